package childenv

import (
	"fmt"
	"strings"
)

// steer is one variable, or a family of variables, through which a
// request could do what a refused option does: make a program run another
// program or load code, read a configuration file of its choosing, or
// write elsewhere. Pattern is an upper-case name, "NAME_*" for a prefix or
// "*_NAME" for a suffix; Program and Effect say whom it steers and how;
// Source is the documentation the entry was taken from.
type steer struct {
	Pattern, Program, Effect, Source string
}

// steering is the table behind Steering, grouped by who reads the
// variables. A per-call value of any of them is refused even when the
// operator allowlists the name (the operator's own value is still
// inherited); an allowlisted name is reported by Warnings at start-up.
// Every variable is read case-insensitively here because npm reads
// npm_config_* in any case and Windows-built tools fold case.
var steering = []steer{
	// The dynamic loader and the C library, for every program.
	{"LD_*", "ld.so", "preloads libraries, audits calls, moves the library path", "ld.so(8) ENVIRONMENT"},
	{"DYLD_*", "dyld", "preloads libraries (macOS)", "dyld(1)"},
	{"GLIBC_TUNABLES", "glibc", "changes allocator and loader behaviour (CVE-2023-4911)", "glibc manual, Tunables"},
	{"GCONV_PATH", "glibc iconv", "loads gconv modules (shared libraries) from a directory", "iconv_open(3), glibc gconv_conf.c"},
	{"GCONV_*", "glibc iconv", "selects gconv module configuration", "glibc gconv_conf.c"},
	{"LOCPATH", "glibc", "loads locale data from a directory", "locale(7)"},
	{"NLSPATH", "glibc catopen", "reads message catalogues from a path", "catopen(3)"},
	{"HOSTALIASES", "glibc resolver", "reads a host alias file", "hostname(7)"},
	{"MALLOC_TRACE", "glibc mtrace", "writes an allocation trace to the file it names", "mtrace(3)"},
	{"TMPDIR", "every program", "moves temporary files (sort, compilers, mktemp) to a directory of its choosing", "POSIX XBD 8.3, sort(1)"},
	{"SSLKEYLOGFILE", "curl, Node.js, Python, NSS", "writes TLS session keys to the file it names", "curl(1) ENVIRONMENT"},
	{"OPENSSL_CONF", "OpenSSL", "reads a configuration that loads engines and providers (shared libraries)", "config(5ssl)"},
	{"OPENSSL_ENGINES", "OpenSSL", "loads engines from a directory", "openssl-env(7)"},
	{"OPENSSL_MODULES", "OpenSSL", "loads providers from a directory", "openssl-env(7)"},
	{"OPENSSL_*", "OpenSSL", "OPENSSL_CONF_INCLUDE, OPENSSL_TRACE ... steer configuration loading and write traces", "openssl-env(7)"},

	// Shells, which run make recipes, npm and pip scripts, git hooks and aliases.
	{"BASH_ENV", "bash", "runs a startup file in every non-interactive bash", "bash(1) INVOCATION"},
	{"ENV", "sh, dash, bash --posix", "runs a startup file", "dash(1), bash(1)"},
	{"SHELLOPTS", "bash", "turns on shell options (xtrace with PS4 runs code)", "bash(1) Shell Variables"},
	{"BASHOPTS", "bash", "turns on shopt options", "bash(1) Shell Variables"},
	{"PS4", "bash", "is expanded, command substitutions included, before each traced command", "bash(1) PROMPTING"},
	{"PROMPT_COMMAND", "bash", "runs before each prompt", "bash(1) Shell Variables"},
	{"IFS", "sh", "changes word splitting of scripts", "POSIX XCU 2.5.3"},
	{"ZDOTDIR", "zsh", "moves the startup files", "zsh(1) STARTUP/SHUTDOWN FILES"},
	{"SHELL", "make, npm, editors", "names the shell programs run commands with", "npm-config(7) shell, make(1)"},

	// Home and configuration directories: every family's dotfiles.
	{"HOME", "git, curl, wget, npm, pip, cargo, kubectl, docker, ssh", "moves every per-user configuration file (~/.gitconfig, ~/.kube/config, ~/.curlrc ...)", "git-config(1) FILES, curl(1) -K, kubectl(1)"},
	{"XDG_*", "git, pip, podman, npm", "moves per-user configuration, data and runtime (sockets) directories", "XDG Base Directory Specification 0.8"},
	{"*_HOME", "java, mvn, cargo, rustup, gradle, pnpm, curl ...", "picks an installation or configuration directory, and so the programs run from it (JAVA_HOME selects the java that mvn runs)", "mvn(1), rustup book Environment variables, curl(1) CURL_HOME"},
	{"GNUPGHOME", "gpg (git signing)", "moves gpg's configuration, which can name programs", "gpg(1) ENVIRONMENT"},

	// Editors, pagers, browsers and askpass helpers.
	{"EDITOR", "git, crontab, npm edit", "names the editor program", "git-var(1) GIT_EDITOR"},
	{"VISUAL", "git, less", "names the editor program", "git-var(1) GIT_EDITOR"},
	{"PAGER", "git, man, kubectl", "names the pager program", "git-var(1) GIT_PAGER"},
	{"MANPAGER", "man", "names the pager program", "man(1)"},
	{"SYSTEMD_PAGER", "systemctl, journalctl", "names the pager program", "systemctl(1)"},
	{"LESS*", "less", "LESSOPEN/LESSCLOSE run input preprocessors, LESSKEY binds commands", "less(1) INPUT PREPROCESSOR"},
	{"BROWSER", "npm docs, git web--browse, python webbrowser", "names the browser program", "npm-config(7) browser"},
	{"SSH_ASKPASS*", "ssh (git over ssh)", "names the askpass program", "ssh(1) ENVIRONMENT"},
	{"SUDO_ASKPASS", "sudo", "names the askpass program", "sudo(8)"},

	{"*_EDITOR", "git, kubectl, svn, bzr ...", "names the editor program (GIT_EDITOR, KUBE_EDITOR, SVN_EDITOR)", "git-var(1), svn help commit"},
	{"*_PAGER", "git, psql, aws, gh ...", "names the pager program (GIT_PAGER, PSQL_PAGER, AWS_PAGER)", "git-var(1), psql(1)"},
	{"*_ASKPASS", "git, ssh, sudo", "names the askpass program", "git-credential(1), ssh(1)"},
	{"*_RSH", "rsync, cvs, tar", "names the remote shell program (RSYNC_RSH, CVS_RSH)", "rsync(1), cvs(1)"},
	{"RSH", "GNU tar (rmt)", "names the remote shell program", "tar(1) --rsh-command"},
	{"*_CONFIG_FILE", "pip, aws, pylint, ...", "names a configuration file, whose settings can name programs or plugins (PIP_CONFIG_FILE, AWS_CONFIG_FILE)", "pip docs Configuration, AWS CLI User Guide"},
	{"*_CONFIG_PATH", "rg, pkg-config ...", "names configuration read as options (RIPGREP_CONFIG_PATH, PKG_CONFIG_PATH)", "rg(1), pkg-config(1)"},

	// Version control systems other than git.
	{"HG*", "hg", "HGRCPATH names configuration (extensions load Python code, hooks run commands); HGEDITOR, HGMERGE name programs", "hg help environment"},
	{"SVN_*", "svn", "SVN_EDITOR and SVN_SSH name programs", "svn help, svnbook Runtime Configuration Area"},
	{"BZR_*", "bzr", "BZR_PLUGIN_PATH loads Python plugins; BZR_EDITOR names a program", "bzr help env-variables"},
	{"BRZ_*", "brz (breezy)", "BRZ_PLUGIN_PATH loads Python plugins; BRZ_EDITOR names a program", "brz help env-variables"},

	// Backup naming of GNU tools and programs patch runs.
	{"PATCH_*", "GNU patch", "PATCH_GET makes patch run co, get or p4 (through the shell); PATCH_VERSION_CONTROL names backups", "patch(1) ENVIRONMENT"},
	{"SIMPLE_BACKUP_SUFFIX", "GNU patch, cp, mv, install", "names backup files", "patch(1), cp(1) --backup"},
	{"VERSION_CONTROL", "GNU patch, cp, mv, install", "chooses backup naming", "patch(1), cp(1) --backup"},

	// git and the programs it runs.
	{"GIT_*", "git", "GIT_CONFIG_*, GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_EXEC_PATH ... name programs and configuration", "git(1) ENVIRONMENT VARIABLES"},

	// Tools with option variables (the refused options, through the environment).
	{"RIPGREP_CONFIG_PATH", "rg", "reads flags (--pre) from a file", "rg(1) CONFIGURATION FILES"},
	{"TAR_OPTIONS", "GNU tar", "prepends options (--to-command, -I)", "tar(1) ENVIRONMENT"},
	{"TAPE", "GNU tar", "names the default archive, which tar writes without -f", "tar(1) ENVIRONMENT"},
	{"GZIP", "gzip, tar -z", "prepends gzip options", "gzip(1) ENVIRONMENT"},
	{"BZIP", "bzip2", "prepends options", "bzip2(1) ENVIRONMENT"},
	{"BZIP2", "bzip2", "prepends options", "bzip2(1) ENVIRONMENT"},
	{"XZ_OPT", "xz, tar -J", "prepends options", "xz(1) ENVIRONMENT"},
	{"XZ_DEFAULTS", "xz", "prepends options", "xz(1) ENVIRONMENT"},
	{"ZIPOPT", "zip", "prepends options (-TT runs a command)", "zip(1) ENVIRONMENT"},
	{"ZIP", "zip", "prepends options (-TT runs a command)", "zip(1) ENVIRONMENT"},
	{"UNZIP", "unzip", "prepends options", "unzip(1) ENVIRONMENT OPTIONS"},
	{"UNZIPOPT", "unzip", "prepends options", "unzip(1) ENVIRONMENT OPTIONS"},
	{"GREP_OPTIONS", "grep < 2.21", "prepends options", "grep 2.20 grep(1)"},
	{"MAKEFLAGS", "make", "adds options and variable assignments (--eval)", "make(1), GNU make manual 5.7.3"},
	{"MFLAGS", "make", "adds options", "GNU make manual 5.7.3"},
	{"GNUMAKEFLAGS", "make", "adds options", "GNU make manual 5.7.3"},
	{"MAKEFILES", "make", "reads extra makefiles, whose recipes run commands", "GNU make manual 3.4"},
	{"AWKPATH", "gawk", "finds -f and @include program files", "gawk manual 2.5.1"},
	{"AWKLIBPATH", "gawk", "finds @load extensions (shared libraries)", "gawk manual 2.5.2"},
	{"GAWK_*", "gawk", "GAWK_PERSIST_FILE keeps the heap in a file of its choosing", "gawk manual 2.5.3"},
	{"MAWK_LONG_OPTIONS", "mawk", "changes option parsing", "mawk(1) ENVIRONMENT"},
	{"POSIXLY_CORRECT", "GNU getopt, gawk", "changes option parsing and turns on gawk --posix", "getopt(3), gawk manual 2.5.3"},
	{"_POSIX2_VERSION", "coreutils", "changes option parsing", "coreutils manual 2.13"},

	// Interpreters that package scripts run.
	{"NODE_OPTIONS", "node", "adds options (--require loads code)", "node(1) NODE_OPTIONS"},
	{"NODE_PATH", "node", "adds module directories", "node(1) NODE_PATH"},
	{"NODE_V8_COVERAGE", "node", "writes coverage files into the directory it names", "node(1)"},
	{"NODE_REDIRECT_WARNINGS", "node", "writes warnings to the file it names", "node(1)"},
	{"NODE_REPL_HISTORY", "node", "writes the REPL history file it names", "node(1)"},
	{"NODE_COMPILE_CACHE", "node", "writes the compile cache into the directory it names", "node(1)"},
	{"PYTHON*", "python", "PYTHONPATH, PYTHONSTARTUP, PYTHONHOME, PYTHONUSERBASE load code from elsewhere", "python(1) ENVIRONMENT VARIABLES"},
	{"PYTEST_ADDOPTS", "pytest", "adds options (-p loads a plugin module)", "pytest docs, Environment variables"},
	{"PYTEST_PLUGINS", "pytest", "loads the plugin modules it names", "pytest docs, Environment variables"},
	{"MYPYPATH", "mypy", "adds module directories mypy reads (and its plugins import from)", "mypy docs, Running mypy"},
	{"MYPY_CACHE_DIR", "mypy", "writes the cache into the directory it names", "mypy docs, The mypy configuration file"},
	{"PYLINTRC", "pylint", "names the configuration file, whose load-plugins imports modules", "pylint docs, Configuration"},
	{"VIRTUAL_ENV", "pip", "selects the environment whose pip.conf and interpreter pip uses", "pip docs Configuration, Location"},
	{"PERL5*", "perl", "PERL5OPT adds options (-M loads code), PERL5LIB adds module directories", "perlrun(1) ENVIRONMENT"},
	{"PERLLIB", "perl", "adds module directories", "perlrun(1) ENVIRONMENT"},
	{"PERL_*", "perl, ExtUtils::MakeMaker, Module::Build", "PERL_MM_OPT and PERL_MB_OPT add build options (INSTALL_BASE writes elsewhere)", "ExtUtils::MakeMaker, Module::Build docs"},
	{"LUA_*", "lua", "LUA_INIT runs the code it holds (or the file it names) at start-up; LUA_PATH, LUA_CPATH move module search", "lua(1)"},
	{"PHPRC", "php", "names php.ini, whose auto_prepend_file runs code", "php docs, The configuration file"},
	{"PHP_INI_SCAN_DIR", "php", "adds .ini files, whose auto_prepend_file runs code", "php docs, The configuration file"},
	{"R_PROFILE*", "R", "runs the start-up file it names", "R docs, ?Startup"},
	{"R_ENVIRON*", "R", "reads the environment file it names", "R docs, ?Startup"},
	{"R_LIBS*", "R", "adds library directories", "R docs, ?.libPaths"},
	{"ERL_*", "erl", "ERL_FLAGS, ERL_AFLAGS, ERL_ZFLAGS add options (-eval runs code); ERL_LIBS adds code directories", "erl(1)"},
	{"JULIA_*", "julia", "JULIA_LOAD_PATH, JULIA_DEPOT_PATH, JULIA_PROJECT choose the code julia loads", "julia docs, Environment Variables"},
	{"GUILE_*", "guile", "GUILE_LOAD_PATH and GUILE_LOAD_COMPILED_PATH move module search", "guile manual 4.2.2"},
	{"TCLLIBPATH", "tclsh", "adds package directories", "tclsh(1)"},
	{"VIMINIT", "vim (an editor git may run)", "holds Ex commands vim runs at start-up", "vim :help VIMINIT"},
	{"EXINIT", "vi, ex", "holds Ex commands run at start-up", "vim :help EXINIT, POSIX ex"},
	{"VIMRUNTIME", "vim", "moves the runtime files vim sources", "vim :help VIMRUNTIME"},
	{"*OPT", "perl, ruby, xz, zip ...", "by convention, options for a program (PERL5OPT, RUBYOPT, XZ_OPT, ZIPOPT)", "perlrun(1), ruby(1), xz(1), zip(1)"},
	{"*OPTS", "java tools, maven, gradle, sbt, ant ...", "by convention, options for a program (JAVA_OPTS, MAVEN_OPTS, SBT_OPTS, ANT_OPTS)", "mvn(1), gradle and sbt docs"},
	{"*OPTIONS", "node, tar, java, grep ...", "by convention, options for a program (NODE_OPTIONS, TAR_OPTIONS, JAVA_TOOL_OPTIONS)", "node(1), tar(1)"},
	{"RUBY*", "ruby", "RUBYOPT adds options (-r loads code), RUBYLIB adds directories", "ruby(1) ENVIRONMENT"},
	{"GEM_*", "gem, bundler", "GEM_HOME/GEM_PATH select installed gems and their executables", "gem help environment"},
	{"BUNDLE_*", "bundler", "configuration (BUNDLE_GEMFILE picks the Gemfile, which is Ruby code)", "bundle-config(1)"},
	{"JAVA_TOOL_OPTIONS", "java", "adds JVM options (-javaagent loads code)", "JDK Troubleshooting Guide, JAVA_TOOL_OPTIONS"},
	{"_JAVA_OPTIONS", "java", "adds JVM options", "HotSpot arguments.cpp"},
	{"JDK_JAVA_OPTIONS", "java", "adds JVM options", "java(1) Using the JDK_JAVA_OPTIONS Launcher Environment Variable"},
	{"JAVA_OPTS", "gradle, tomcat scripts", "adds JVM options", "gradle docs Environment variables"},
	{"MAVEN_OPTS", "mvn", "adds JVM options", "mvn(1), maven.apache.org configure"},
	{"MAVEN_ARGS", "mvn", "adds Maven options", "maven.apache.org configure"},
	{"GRADLE_OPTS", "gradle", "adds JVM options", "gradle docs Environment variables"},
	{"CLASSPATH", "java", "adds class directories", "java(1)"},

	// Package managers and build tools.
	{"NPM_CONFIG_*", "npm, pnpm, yarn 1", "sets any npm configuration (script-shell, userconfig, git, node-options ...)", "npm-config(7) Environment Variables"},
	{"YARN_*", "yarn", "sets yarn configuration (YARN_RC_FILENAME, yarnPath runs a program)", "yarnpkg.com configuration/yarnrc"},
	{"COREPACK_*", "corepack", "selects and downloads package-manager binaries", "corepack README Environment Variables"},
	{"PIP_*", "pip", "sets any pip option (PIP_CONFIG_FILE, PIP_PYTHON, PIP_EDITOR ...)", "pip docs Configuration, Environment Variables"},
	{"CARGO_*", "cargo", "sets any cargo configuration (CARGO_BUILD_RUSTC_WRAPPER, CARGO_TARGET_*_RUNNER, CARGO_HOME)", "The Cargo Book 3.6 Environment Variables"},
	{"RUSTUP_*", "rustup", "selects the toolchain (RUSTUP_TOOLCHAIN may be a path) and its home", "The rustup book, Environment variables"},
	{"RUSTC", "cargo", "names the compiler program", "The Cargo Book 3.6"},
	{"RUSTC_WRAPPER", "cargo", "names a program that wraps every rustc call", "The Cargo Book 3.6"},
	{"RUSTC_WORKSPACE_WRAPPER", "cargo", "names a program that wraps rustc for workspace members", "The Cargo Book 3.6"},
	{"RUSTDOC", "cargo", "names the rustdoc program", "The Cargo Book 3.6"},
	{"RUSTFLAGS", "cargo", "adds rustc flags (-C linker= runs a program)", "The Cargo Book 3.6"},
	{"RUSTDOCFLAGS", "cargo", "adds rustdoc flags", "The Cargo Book 3.6"},
	{"CC", "make, go (cgo), cargo build scripts", "names the C compiler program", "GNU make manual 10.3, go help environment"},
	{"CXX", "make, go (cgo)", "names the C++ compiler program", "GNU make manual 10.3, go help environment"},
	{"FC", "make, go (cgo)", "names the Fortran compiler program", "go help environment"},
	{"AR", "make, go", "names the archiver program", "GNU make manual 10.3, go help environment"},
	{"LD", "make, cc", "names the linker program", "GNU make manual 10.3"},
	{"CPP", "make", "names the preprocessor program", "GNU make manual 10.3"},
	// make's implicit rules (GNU make manual 10.3, Variables Used by
	// Implicit Rules): the program variables name what a built-in rule
	// runs, the flag variables are its options ("make hello" with hello.c
	// runs "$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(TARGET_ARCH) hello.c
	// $(LDLIBS) -o hello"; CFLAGS=-B./evil/ makes gcc run ./evil/as).
	{"AS", "make", "names the assembler program", "GNU make manual 10.3"},
	{"RM", "make", "names the file-removal program of clean rules", "GNU make manual 10.3"},
	{"F77", "make", "names the Fortran compiler program", "GNU make manual 10.3"},
	{"M2C", "make", "names the Modula-2 compiler program", "GNU make manual 10.3"},
	{"PC", "make", "names the Pascal compiler program", "GNU make manual 10.3"},
	{"CO", "make", "names the RCS checkout program", "GNU make manual 10.3"},
	{"GET", "make", "names the SCCS get program", "GNU make manual 10.3"},
	{"LEX", "make", "names the lexer generator program", "GNU make manual 10.3"},
	{"YACC", "make", "names the parser generator program", "GNU make manual 10.3"},
	{"LINT", "make", "names the lint program", "GNU make manual 10.3"},
	{"MAKEINFO", "make", "names the Texinfo program", "GNU make manual 10.3"},
	{"TEX", "make", "names the TeX program", "GNU make manual 10.3"},
	{"TEXI2DVI", "make", "names the Texinfo-to-DVI program", "GNU make manual 10.3"},
	{"WEAVE", "make", "names the Web program", "GNU make manual 10.3"},
	{"CWEAVE", "make", "names the C Web program", "GNU make manual 10.3"},
	{"TANGLE", "make", "names the Web program", "GNU make manual 10.3"},
	{"CTANGLE", "make", "names the C Web program", "GNU make manual 10.3"},
	{"MAKE", "make", "names the program recursive $(MAKE) recipes run", "GNU make manual 5.7.1"},
	{"MAKEOVERRIDES", "make", "holds the variable definitions passed to sub-makes through MAKEFLAGS", "GNU make manual 5.7.3"},
	{"TARGET_ARCH", "make", "adds compiler options to the built-in compile and link rules", "GNU make manual 10.3 (make -p)"},
	{"OUTPUT_OPTION", "make", "is the output option of the built-in rules (-o $@)", "GNU make manual 10.2"},
	{"LDLIBS", "make, cc", "adds libraries and linker options to the built-in link rule", "GNU make manual 10.3"},
	{"LOADLIBES", "make, cc", "adds libraries to the built-in link rule (the older LDLIBS)", "GNU make manual 10.3"},
	{"*FLAGS", "make, cc, cargo, go ...", "by the GNU convention, options for a program: CFLAGS, CXXFLAGS, CPPFLAGS, LDFLAGS, FFLAGS, ASFLAGS, ARFLAGS, YFLAGS ... (-B DIR, -wrapper, -fplugin=, -specs= run or load what they name)", "GNU make manual 10.3, gcc manual 3.16 Directory Options"},
	// The compiler drivers' own variables (gcc manual 3.20, Environment
	// Variables Affecting GCC; clang: Driver.cpp).
	{"GCC_EXEC_PREFIX", "gcc", "is the prefix of the subprograms gcc runs (cc1, as, collect2)", "gcc manual 3.20"},
	{"COMPILER_PATH", "gcc", "adds directories gcc searches for its subprograms (as, ld, collect2)", "gcc manual 3.20"},
	{"LIBRARY_PATH", "gcc", "adds directories gcc searches for startup files, libraries and its specs file, whose *linker: entry names the linker program (checked with GCC 12: a specs file there ran a planted linker)", "gcc manual 3.20, gcc.c startfile_prefixes and read_specs"},
	{"GCC_COMPARE_DEBUG", "gcc", "makes gcc compile a second time with the options it names", "gcc manual 3.20"},
	{"DEPENDENCIES_OUTPUT", "gcc, cpp", "writes make dependencies to the file it names", "gcc manual 3.20"},
	{"SUNPRO_DEPENDENCIES", "gcc, cpp", "writes make dependencies to the file it names", "gcc manual 3.20"},
	{"COLLECT_*", "gcc's collect2", "COLLECT_GCC and COLLECT_LTO_WRAPPER name the programs collect2 runs", "gcc collect2.c"},
	{"CCC_OVERRIDE_OPTIONS", "clang", "edits clang's command line (adds and removes options)", "clang Driver.cpp applyOverrideOptions"},
	{"CMAKE_*", "cmake", "CMAKE_<LANG>_COMPILER_LAUNCHER runs a program around every compile; CMAKE_TOOLCHAIN_FILE is cmake code", "cmake-env-variables(7)"},
	// Not steering, by the same source: CPATH, C_INCLUDE_PATH,
	// CPLUS_INCLUDE_PATH, OBJC_INCLUDE_PATH add header directories: a
	// header found there becomes code of the program being compiled, as
	// the request's own source files do, and gcc runs and loads nothing
	// from them (no specs file is read there).
	{"PKG_CONFIG*", "go (cgo), cargo build scripts", "names pkg-config and its search path, whose output becomes compiler flags", "go help environment, pkg-config(1)"},
	{"CGO_*", "go", "CGO_CFLAGS/CGO_LDFLAGS pass flags to the C compiler and linker", "go help environment"},
	{"GOROOT", "go", "selects the Go installation, and so the go command and tools run", "go help environment"},
	{"GOPATH", "go", "moves the module cache and install directory (writes elsewhere)", "go help environment"},
	{"GOBIN", "go", "moves where go install writes programs", "go help environment"},
	{"GOCACHE", "go", "moves the build cache (a poisoned cache supplies compiled code)", "go help environment"},
	{"GOMODCACHE", "go", "moves the module cache", "go help environment"},
	{"GOFLAGS", "go", "adds build flags (-toolexec, -exec, -overlay)", "go help environment"},
	{"GOENV", "go", "names the go environment file, which sets any go variable", "go help environment"},
	{"GOTOOLCHAIN", "go", "selects and downloads another go toolchain to run", "go help toolchain"},
	{"GOPROXY", "go", "selects the module source", "go help environment"},
	{"GOSUMDB", "go", "selects or disables the checksum database", "go help environment"},
	{"GONOSUMDB", "go", "disables checksum verification for module paths", "go help environment"},
	{"GONOSUMCHECK", "go", "disables checksum verification", "go help environment"},
	{"GOINSECURE", "go", "allows insecure module fetches", "go help environment"},
	{"GOPRIVATE", "go", "fetches module paths directly with a VCS (git, hg ...)", "go help environment"},
	{"GONOPROXY", "go", "fetches module paths directly with a VCS", "go help environment"},
	{"GOVCS", "go", "allows version control programs for module paths", "go help vcs"},
	{"GOWORK", "go", "names the workspace file, which adds modules to the build", "go help work"},
	{"GOTMPDIR", "go", "moves temporary build files", "go help environment"},
	{"GOCOVERDIR", "go", "writes coverage files into the directory it names", "go help testflag"},
	{"GCCGO", "go", "names the gccgo program", "go help environment"},
	{"GOGCCFLAGS", "go", "adds C compiler flags", "go help environment"},

	// Network and cluster clients.
	{"CURL_HOME", "curl", "moves .curlrc, whose options are unchecked", "curl(1) -K, --config"},
	{"WGETRC", "wget", "names a wgetrc, whose commands are unchecked (use_askpass runs a program)", "wget(1) FILES"},
	{"SYSTEM_WGETRC", "wget", "names the system wgetrc", "wget(1) FILES"},
	{"KUBECONFIG", "kubectl", "names kubeconfig files, whose exec credential plugins run programs (= the refused --kubeconfig)", "kubectl(1), client-go clientcmd loader.go"},
	{"KUBECTL_*", "kubectl", "KUBECTL_EXTERNAL_DIFF names the diff program", "kubectl diff --help"},
	{"KUBE_*", "kubectl", "KUBE_EDITOR names the editor program", "kubectl edit --help"},
	{"DOCKER_*", "docker", "DOCKER_HOST, DOCKER_CONTEXT, DOCKER_CONFIG select the daemon and the credential helpers (= the refused -H, -c, --config)", "docker(1) Environment variables"},
	{"CONTAINER_HOST", "podman", "selects the service to talk to (= the refused --url)", "podman(1) Environment variables"},
	{"CONTAINERS_*", "podman, buildah", "name containers.conf, storage.conf and registries.conf, which name runtimes and hooks", "containers.conf(5) ENVIRONMENT"},
	{"BUILDKIT_*", "docker buildx", "selects the BuildKit daemon", "docker buildx docs"},
}

// Steering reports whether a per-call override of name could make a child
// run another program, load code, read configuration of its choosing or
// write elsewhere (the steering table; matched case-insensitively). PATH
// is one: program resolution never uses a per-call PATH, so one is never
// accepted.
func Steering(name string) bool {
	_, ok := steeringEntry(name)
	return ok
}

// SteeringReason returns why name steers programs, for messages and the
// start-up warning: "<program>: <effect> (<source>)".
func SteeringReason(name string) (string, bool) {
	e, ok := steeringEntry(name)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%s: %s (%s)", e.Program, e.Effect, e.Source), true
}

// pathEntry is PATH's row: it is matched apart from the table because its
// effect is the server's own program resolution.
var pathEntry = steer{"PATH", "every program name", "would choose which program a name resolves to; programs are resolved with the operator's PATH only", "README MCP_SHELL_SAFE_PATH"}

func steeringEntry(name string) (steer, bool) {
	u := strings.ToUpper(name)
	if u == "PATH" {
		return pathEntry, true
	}
	for _, e := range steering {
		if matchSteer(e.Pattern, u) {
			return e, true
		}
	}
	return steer{}, false
}

func matchSteer(pattern, name string) bool {
	switch {
	case strings.HasSuffix(pattern, "*"):
		return strings.HasPrefix(name, strings.TrimSuffix(pattern, "*"))
	case strings.HasPrefix(pattern, "*"):
		return strings.HasSuffix(name, strings.TrimPrefix(pattern, "*"))
	}
	return name == pattern
}

// Warnings returns one start-up warning per allowlisted name that steers
// programs: its value reaches every child (the operator's own value, never
// a request's). The caller logs them (cli's warnAtStart).
func Warnings(cfg Config) []string {
	var out []string
	for _, name := range cfg.Allowlist {
		if why, ok := SteeringReason(name); ok {
			out = append(out, fmt.Sprintf("%s is passed to every child and steers %s; per-call values of it are refused", name, why))
		}
	}
	return out
}
