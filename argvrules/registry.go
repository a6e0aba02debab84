package argvrules

import (
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/git"
)

// Family is one program family: the executables it covers and the
// recognizer that judges their argv. Rows are data; everything else
// (FamilyOf, the policy's lookup, the fuzz seeds, the table tests, the
// family sections of docs/rules.md) is derived from the registry.
type Family struct {
	// Name is the family's name and the prefix of its reason codes
	// ("tar" → "tar.exec-option").
	Name string
	// Programs are the executable basenames the family covers: the
	// program's own name and the names distributions install it under.
	Programs []string
	// Also, when set, covers further basenames by shape (pip3.12,
	// go1.22.3, git-upload-pack).
	Also func(base string) bool
	// Recognize judges one stage.
	Recognize Recognizer
	// Source names what the grammar follows (program versions, man page
	// sections, source files).
	Source string
	// Secrets, when set, reads a stage's argv for the credentials it
	// carries, with the family's grammar (secrets.go); the audit log
	// redacts them.
	Secrets func(argv []string) Reading

	// The facts below are for the kernel sandbox (package sandbox), which
	// confines each stage by what its family legitimately needs. A
	// program no family covers is a leaf: it may execute only its own
	// file and that file's interpreters. SandboxSource cites the facts.

	// Exec lists what the family's programs execute as part of their
	// everyday job besides their own file and its interpreters: program
	// names, looked up in the stage's PATH, or absolute paths, where a
	// directory grants everything beneath it (git's git-core). Missing
	// entries are skipped. Ignored when RunsPrograms.
	Exec []string
	// RunsPrograms marks families whose job is to run other programs
	// (make recipes, npm scripts, test binaries, build scripts): their
	// stages may execute anything beneath the sandbox's read directories
	// and the writable trees.
	RunsPrograms bool
	// Network says when a stage of the family may use TCP.
	Network Network
	// Caches are directories outside the working directory the family
	// writes as part of its everyday job; the sandbox points each
	// variable at a server-managed directory and makes it writable.
	Caches []Cache
	// HomeConfig are files and directories beneath HOME (relative to it)
	// holding the family's configuration, which its stages may read when
	// the children get HOME (git fails when ~/.gitconfig is unreadable).
	HomeConfig []string
	// ConfigReads, when set, returns further files the user's own
	// configuration beneath home names for the family to read (git's
	// signing keys: ~/.gitconfig's user.signingKey).
	ConfigReads func(home string) []string
	// ExecBeside are helpers beneath the installation prefix of the
	// stage's program (the parent of its directory: /usr for
	// /usr/bin/gcc-12), relative to it; a directory grants everything
	// beneath (a compiler driver's libexec/gcc). Missing entries are
	// skipped. Ignored when RunsPrograms.
	ExecBeside []string
	// Agents are the daemons the family's programs talk to over UNIX
	// sockets (gpg-agent for signing).
	Agents Agents
	// Children are the families whose programs a stage of this family
	// starts in its everyday job (git under go, go and git under make).
	// A stage and its descendants are one Landlock domain, so a stage of
	// a family that RunsPrograms also gets its children's (and their
	// children's) reads beneath HOME, caches and helpers: never their
	// network or agents, which stay the call's.
	Children []string
	// SandboxSource names where Exec, RunsPrograms, Network, Caches,
	// HomeConfig, ExecBeside, Agents and Children come from.
	SandboxSource string
	// Env, when set, returns environment entries a stage of this family
	// needs beyond the minimal child environment (git's hardening
	// configuration) for a call in the given Workspace; they override
	// delegated values of the same name.
	Env func(Workspace) []string
	// Dialect, when set, names the implementation a stage of the family
	// is read as (awk: gawk, mawk or BusyBox, from the resolved program):
	// the plan records it and the recognizer reads it back from
	// Context.Dialect.
	Dialect func(argv0 string, p Program) string
}

// Workspace is where a call runs, for a family's Env: the call's working
// directory and the allowed directories (all absolute, symlink-resolved).
// git's Env makes repositories another user owns usable there and only
// there.
type Workspace struct {
	Dir     string
	Allowed []string
}

// Network is when a family's stage may use the network under the
// sandbox's default network policy (MCP_SHELL_SANDBOX_NETWORK=family).
type Network struct {
	// Always grants every stage of the family (curl, wget).
	Always bool
	// Fetch are the subcommands that fetch: a stage gets the network when
	// the subcommand its argv runs (Subcommands) is one of them, never for
	// a fetch word elsewhere (an argument of a script or of a program
	// under test).
	Fetch []string
	// Subcommands reads the subcommand argv runs with the family's own
	// grammar (every reading, where the grammar leaves two). Required with
	// Fetch.
	Subcommands func(argv []string) []string
	// Reason says why the family needs the network.
	Reason string
}

// Cache is one cache directory of a family.
type Cache struct {
	// Env is the variable the program reads for the directory.
	Env string
	// Dir is the directory's name beneath the server's cache root.
	Dir string
	// User is where the program keeps it by default, relative to HOME
	// (go's ~/.cache/go-build): the sandbox uses the user's own when it
	// exists and only the user can write it, so that builds start warm.
	// Empty for a directory that also holds programs the user runs
	// (GOPATH/bin, CARGO_HOME/bin), which stays the server's.
	User string
	// Warm, for a build cache, is the file the program writes in it once
	// a build into it completed; without it the next build compiles
	// every dependency (go's standard library), which the default
	// timeout does not cover. Empty: a cache whose first use costs what
	// later ones do.
	Warm string
}

// Agents are the UNIX sockets a family's programs talk to.
type Agents struct {
	// Sockets are their paths: "~/" is beneath the stage's HOME, "{uid}"
	// the server's user id, "$NAME" the value of NAME in the stage's
	// environment. Missing ones are skipped.
	Sockets []string
	// Subcommands are the subcommands that talk to them (as
	// Network.Subcommands reads them); nil: every call (a CLI whose
	// every command is a request to its daemon).
	Subcommands []string
	// Reason says why.
	Reason string
}

// gitCore are the directories git's own programs (git-upload-pack,
// git-remote-https, git-submodule ...) are installed in: gitexecdir,
// $(libexecdir)/git-core in git's Makefile, which Debian and Ubuntu set
// to /usr/lib/git-core.
var gitCore = []string{"/usr/lib/git-core", "/usr/libexec/git-core", "/usr/local/libexec/git-core"}

// dockerPlugins are where the docker CLI looks for plugins
// (docker/cli cli-plugins/manager/manager_unix.go defaultSystemPluginDirs).
var dockerPlugins = []string{"/usr/local/lib/docker/cli-plugins", "/usr/local/libexec/docker/cli-plugins", "/usr/lib/docker/cli-plugins", "/usr/libexec/docker/cli-plugins"}

// wrapSandbox cites the wrapper families' sandbox facts: the wrapper and
// the program it runs are one process chain, confined as the wrapped
// program's family is, plus the wrapper's own file (policy/wrap.go).
const wrapSandbox = "the wrapped program's family profile plus the wrapper's own file: the wrapper execs the program the policy resolved, by its absolute path"

// stdbufLibs are where stdbuf's libstdbuf.so is installed
// (PKGLIBEXECDIR, coreutils 9.1 src/local.mk): the one library a wrapper
// may load into the program it runs.
var stdbufLibs = []string{"/usr/libexec/coreutils/libstdbuf.so", "/usr/lib/coreutils/libstdbuf.so", "/usr/local/libexec/coreutils/libstdbuf.so"}

// registry is every family, in the order docs/rules.md lists them. Adding a
// recognizer is one file with its function and one row here.
var registry = []Family{
	{Name: "find", Programs: []string{"find", "gfind", "bfind"}, Recognize: checkFind, Source: "GNU findutils 4.9 find(1)",
		SandboxSource: "find(1): -exec, -execdir, -ok and -okdir are the only programs find runs"},
	{Name: "awk", Programs: awkPrograms, Recognize: checkAwk, Dialect: awkDialectOf, Env: awkEnv, Source: "gawk 5.2, mawk 1.3.4 and BusyBox 1.35 awk grammars",
		SandboxSource: "gawk 5.2 io.c and mawk 1.3.4 files.c: system(), print | cmd and cmd | getline run /bin/sh -c; /inet files are gawk's only network; " +
			"gawk's AWKPATH default \".:/usr/share/awk\" (awkSystemPath keeps the working directory out of the inplace include search)"},
	{Name: "sed", Programs: []string{"sed", "gsed"}, Recognize: checkSed, Source: "GNU sed 4.9 sed/sed.c and sed/compile.c, BusyBox 1.35–1.37 editors/sed.c",
		SandboxSource: "GNU sed 4.9 execute.c: the e command and the e flag of s run /bin/sh -c (popen), which no grant allows; BusyBox sed runs no program"},
	{Name: "sort", Programs: []string{"sort", "gsort"}, Recognize: checkSort, Secrets: sortSecrets, Source: "GNU coreutils 9.1 sort long_options",
		SandboxSource: "coreutils 9.1 sort.c pipe_fork: --compress-program is the only program sort runs"},
	{Name: "tar", Programs: []string{"tar", "gtar", "bsdtar"}, Recognize: checkTar, Source: "GNU tar 1.34 and bsdtar 3.7 grammars",
		Exec: []string{"sh", "gzip", "bzip2", "lbzip2", "xz", "lzip", "lzma", "lzop", "zstd", "compress", "lz4"},
		SandboxSource: "GNU tar 1.34 src/buffer.c zip_program (the compressors of -z -j -J --lzip --lzma --lzop --zstd -Z) and src/system.c " +
			"(compression runs /bin/sh -c PROGRAM, decompression execvp's PROGRAM -d); libarchive 3.7 runs lz4, lzop, zstd ... when built without the library"},
	{Name: "git", Programs: []string{"git"}, Also: isGitDashed, Recognize: checkGit, Env: gitEnv, Secrets: gitTable.read, Source: "git 2.53 ∪ 2.39 parse-options (package git)",
		HomeConfig:  append([]string{".gitconfig", ".config/git/config", ".config/git/ignore", ".config/git/attributes"}, gnupgPublic...),
		ConfigReads: git.SigningFiles,
		Exec: append(append([]string{}, gitCore...), "git", "sh", "true", "ssh", "gpg", "gpgsm", "ssh-keygen",
			"basename", "sed", "uname", "gettext", "envsubst", "gettext.sh", "git-lfs"),
		Network: Network{Fetch: []string{"clone", "fetch", "pull", "push", "ls-remote", "submodule", "fetch-pack", "send-pack", "archive", "send-email"}, Subcommands: gitSubcommands,
			Reason: "they talk to remotes over http(s), git:// or ssh (transport.c, connect.c); archive only with --remote, send-email over SMTP"},
		Agents: Agents{Sockets: []string{"~/.gnupg/S.gpg-agent", "/run/user/{uid}/gnupg/S.gpg-agent", "$SSH_AUTH_SOCK"},
			Subcommands: []string{"commit", "tag", "merge", "rebase", "cherry-pick", "revert", "am", "pull", "commit-tree", "push",
				"clone", "fetch", "ls-remote", "submodule", "fetch-pack", "send-pack", "archive"},
			Reason: "signing (commit.gpgSign, -S, tag -s, push --signed) asks gpg-agent or ssh-agent for the signature, " +
				"and the ssh transport (clone, fetch, pull, push ... of an ssh remote) authenticates through ssh-agent"},
		SandboxSource: "git 2.39/2.53: its own programs live in gitexecdir (git-core); connect.c git_connect runs the local and ssh transports " +
			"(git-upload-pack 'PATH') with use_shell, run-command.c prepare_shell_cmd runs commands with shell metacharacters through sh, " +
			"and 2.39's git-bisect, git-submodule and git-merge-octopus are sh scripts that source gettext.sh and run basename, sed, uname, gettext and envsubst " +
			"(git-sh-setup.sh, git-sh-i18n.sh; each seen denied in test/day); true is the pinned core.editor, ssh the pinned core.sshCommand, " +
			"gpg, gpgsm and ssh-keygen the pinned gpg.*.program (package git ChildConfig); git-lfs is the filter.lfs.process of git lfs install; " +
			"git-config(1) FILES: ~/.gitconfig, $XDG_CONFIG_HOME/git/config; signing: GnuPG 2.2 gpg reads pubring.kbx and trustdb.gpg in ~/.gnupg " +
			"(read-only: on a read-only mount gpg takes no lock; under an unprivileged server access(2) says writable, gpg wants pubring.kbx.lock and fails unless gpg.conf says lock-never; test/day TestSigningUsers) and asks gpg-agent (gpgconf --list-dirs agent-socket), ssh-keygen -Y sign reads user.signingKey when it is a public key and asks ssh-agent for the signature (a private key file is never granted: any git subcommand can print what it reads)"},
	{Name: "rg", Programs: []string{"rg"}, Recognize: checkRg, Secrets: rgSecrets, Source: "ripgrep 13/14 flag definitions",
		SandboxSource: "ripgrep 14 crates/cli: --pre and the --search-zip decompressors are the only programs rg runs"},
	{Name: "split", Programs: []string{"split", "gsplit"}, Recognize: checkSplit, Secrets: splitSecrets, Source: "GNU coreutils 9.1 split --help",
		SandboxSource: "coreutils 9.1 split.c create(): --filter runs $SHELL -c (or /bin/sh)"},
	{Name: "sdiff", Programs: []string{"sdiff", "gsdiff"}, Recognize: checkSdiff, Secrets: sdiffSecrets, Source: "GNU diffutils 3.8 sdiff",
		Exec: []string{"diff"}, SandboxSource: "diffutils 3.8 sdiff.c: sdiff runs DEFAULT_DIFF_PROGRAM (diff) for every comparison"},
	{Name: "diff3", Programs: []string{"diff3", "gdiff3"}, Recognize: checkDiff3, Secrets: diff3Secrets, Source: "GNU diffutils 3.8 diff3",
		Exec: []string{"diff"}, SandboxSource: "diffutils 3.8 diff3.c read_diff: diff3 runs DEFAULT_DIFF_PROGRAM (diff) for each pair"},
	{Name: "wget", Programs: []string{"wget"}, Recognize: checkWget, Secrets: wgetSecrets, Source: "GNU Wget 1.21 wget --help",
		Network:       Network{Always: true, Reason: "downloading is wget's job"},
		SandboxSource: "wget 1.21: --use-askpass is the only program wget runs"},
	{Name: "curl", Programs: []string{"curl"}, Recognize: checkCurl, Secrets: curlSecrets, Source: "curl 7.88 curl --help all",
		Network:       Network{Always: true, Reason: "transfers are curl's job"},
		SandboxSource: "curl 7.88 runs no other program"},
	{Name: "make", Programs: []string{"make", "gmake"}, Recognize: checkMake, Source: "GNU make 4.3/4.4 make(1)",
		RunsPrograms: true, Children: []string{"git", "go", "cc", "npm", "cargo", "pip"},
		SandboxSource: "make(1): recipes are shell commands; children: the toolchains a Makefile wraps (test/day: make running git, go test, cc and npm test)"},
	{Name: "go", Programs: []string{"go"}, Also: isGoRelease, Recognize: checkGo, Source: "go 1.22–1.26 cmd/go flag sets",
		RunsPrograms: true,
		Network: Network{Fetch: []string{"get", "install", "mod", "work", "list"}, Subcommands: goSubcommands,
			Reason: "they resolve and download modules through GOPROXY (cmd/go/internal/modfetch), go list -m to list module versions; build, test and run fetch only missing modules, which go mod download fetches first"},
		Caches:     []Cache{{Env: "GOCACHE", Dir: "go-build", User: ".cache/go-build", Warm: "trim.txt"}, {Env: "GOMODCACHE", Dir: "go-mod", User: "go/pkg/mod"}, {Env: "GOPATH", Dir: "go-path"}},
		HomeConfig: []string{".config/go"},
		Children:   []string{"git", "cc"},
		SandboxSource: "go help environment (GOCACHE, GOMODCACHE, GOPATH; defaults beneath $HOME; go env -w writes os.UserConfigDir()/go/env); " +
			"go build runs the compiler, go test the test binaries it builds in GOTMPDIR; children: git for VCS stamping (go help buildvcs) and gcc for cgo; " +
			"cmd/go/internal/cache writes GOCACHE/trim.txt when a command that built into it completes (a killed or list-only one leaves none)"},
	{Name: "npm", Programs: []string{"npm"}, Recognize: checkNpm, Secrets: npmTable.read, Source: "npm 9–11 nopt definitions",
		RunsPrograms: true, Network: npmFetch, Caches: []Cache{{Env: "npm_config_cache", Dir: "npm", User: ".npm"}}, HomeConfig: []string{".npmrc"},
		Children:      []string{"git"},
		SandboxSource: "npm 10 docs: config cache (default ~/.npm) and userconfig (default ~/.npmrc), npm run-script runs package scripts through sh; git dependencies run git"},
	{Name: "npx", Programs: []string{"npx", "pnpx"}, Recognize: checkNpx, Source: "npm 9–11 npx",
		RunsPrograms: true, Network: Network{Always: true, Reason: "npx downloads the package it runs"}, Caches: []Cache{{Env: "npm_config_cache", Dir: "npm", User: ".npm"}},
		HomeConfig: []string{".npmrc"}, Children: []string{"git"},
		SandboxSource: "npm 10 docs: npm exec (config cache, default ~/.npm; userconfig, default ~/.npmrc)"},
	{Name: "pnpm", Programs: []string{"pnpm"}, Recognize: checkPnpm, Secrets: pnpmTable.read, Source: "pnpm 8–9 CLI",
		RunsPrograms: true,
		Network: Network{Fetch: []string{"install", "i", "add", "update", "up", "fetch", "outdated", "publish", "audit", "dlx", "view", "info"}, Subcommands: nodeSubcommands(false),
			Reason: "they download packages from the registry"},
		Caches:     []Cache{{Env: "npm_config_store_dir", Dir: "pnpm-store", User: ".local/share/pnpm/store"}, {Env: "npm_config_cache_dir", Dir: "pnpm-cache", User: ".cache/pnpm"}},
		HomeConfig: []string{".npmrc", ".config/pnpm"}, Children: []string{"git"},
		SandboxSource: "pnpm 9 docs: settings store-dir and cache-dir, read from npm_config_* variables; .npmrc and ~/.config/pnpm/rc"},
	{Name: "yarn", Programs: []string{"yarn", "yarnpkg"}, Recognize: checkYarn, Secrets: yarnTable.read, Source: "yarn 1.x and berry CLIs",
		RunsPrograms: true,
		Network: Network{Fetch: []string{"install", "add", "upgrade", "up", "outdated", "info", "npm", "dlx", "publish"}, Subcommands: nodeSubcommands(true),
			Reason: "they download packages from the registry"},
		Caches:     []Cache{{Env: "YARN_CACHE_FOLDER", Dir: "yarn", User: ".cache/yarn"}},
		HomeConfig: []string{".yarnrc", ".yarnrc.yml", ".npmrc"}, Children: []string{"git"},
		SandboxSource: "yarn 1 docs (yarn cache dir, YARN_CACHE_FOLDER; ~/.yarnrc) and berry's cacheFolder setting (~/.yarnrc.yml)"},
	{Name: "pip", Programs: []string{"pip", "pip3"}, Also: isPipVersion, Recognize: checkPip, Source: "pip 23–24 optparse command table",
		RunsPrograms: true,
		Network: Network{Fetch: []string{"install", "download", "wheel", "index", "search"}, Subcommands: pipSubcommands,
			Reason: "they download distributions from the package index (pip/_internal/commands)"},
		Caches:     []Cache{{Env: "PIP_CACHE_DIR", Dir: "pip", User: ".cache/pip"}},
		HomeConfig: []string{".config/pip", ".pip"}, Children: []string{"git", "cc"},
		SandboxSource: "pip 23 docs: Caching (PIP_CACHE_DIR, default ~/.cache/pip) and Configuration (~/.config/pip/pip.conf, legacy ~/.pip/pip.conf); builds run setup.py or PEP 517 backends in subprocesses"},
	{Name: "cargo", Programs: []string{"cargo"}, Recognize: checkCargo, Secrets: cargoTable.read, Source: "cargo 1.7x–1.9x clap definitions",
		RunsPrograms: true,
		Network: Network{Fetch: []string{"fetch", "update", "install", "search", "publish", "login", "owner", "yank", "generate-lockfile", "vendor"}, Subcommands: cargoSubcommands,
			Reason: "they download from or talk to the registry; build, check and test fetch only missing crates, which cargo fetch fetches first"},
		Caches:        []Cache{{Env: "CARGO_HOME", Dir: "cargo"}},
		Children:      []string{"git", "cc"},
		SandboxSource: "The Cargo Book, Cargo Home (registry index and crate cache beneath CARGO_HOME, default ~/.cargo, whose bin/ holds what cargo install puts on the user's PATH, so the user's own is never shared); cargo runs rustc, cc as the linker, and build scripts"},
	{Name: "zip", Programs: []string{"zip"}, Recognize: checkZip, Secrets: zipTable.read, Source: "Info-ZIP zip 3.0",
		SandboxSource: "zip 3.0 zip.c: -T runs unzip (or -TT's command); nothing else"},
	{Name: "docker", Programs: []string{"docker"}, Recognize: checkDocker, Secrets: dockerTable.read, Source: "docker CLI 24–28 (cobra)",
		Exec:    dockerPlugins,
		Network: Network{Always: true, Reason: "the CLI talks to the daemon over /run/docker.sock or TCP"},
		Agents: Agents{Sockets: []string{"/var/run/docker.sock", "/run/docker.sock", "/run/user/{uid}/docker.sock", "~/.docker/run/docker.sock"},
			Reason: "every docker command is a request to the daemon, over its UNIX socket unless DOCKER_HOST names TCP"},
		SandboxSource: "docker/cli cli-plugins/manager/manager_unix.go defaultSystemPluginDirs; docker/docker client.DefaultDockerHost (unix:///var/run/docker.sock), " +
			"rootless dockerd's $XDG_RUNTIME_DIR/docker.sock and Docker Desktop's ~/.docker/run/docker.sock"},
	{Name: "podman", Programs: []string{"podman"}, Recognize: checkPodman, Secrets: dockerTable.read, Source: "podman 4–5 (cobra)",
		RunsPrograms: true, Network: Network{Always: true, Reason: "podman pulls images and runs its network helpers"},
		Agents: Agents{Sockets: []string{"/run/user/{uid}/libpod/tmp", "/run/user/{uid}/podman/podman.sock", "/run/podman/podman.sock"},
			Reason: "podman attaches to conmon's sockets beneath its runtime directory, and podman --remote talks to the podman service"},
		SandboxSource: "podman 5: rootless podman itself runs conmon, the OCI runtime and network helpers; conmon's attach and control sockets " +
			"live beneath $XDG_RUNTIME_DIR/libpod, the service's socket is $XDG_RUNTIME_DIR/podman/podman.sock (podman-system-service(1))"},
	{Name: "kubectl", Programs: []string{"kubectl"}, Recognize: checkKubectl, Secrets: kubectlTable.read, Source: "kubectl 1.2x–1.3x (cobra)",
		Network:       Network{Always: true, Reason: "kubectl talks to the API server"},
		SandboxSource: "kubectl 1.3x: credential exec plugins named by the kubeconfig are its only programs (widen with MCP_SHELL_SANDBOX_EXEC)"},
	{Name: "hg", Programs: []string{"hg"}, Recognize: checkHg, Source: "Mercurial 6.x mercurial/dispatch.py (_earlyparseopts, fancyopts.earlygetopt) and commands.globalopts",
		HomeConfig:    []string{".hgrc", ".config/hg"},
		SandboxSource: "hg help config: the editor, merge tools, pager and ssh remotes are hg's programs, none granted (hg runs as a leaf did: its own file and interpreter); hgrc(5) FILES"},
	{Name: "openssl", Programs: []string{"openssl"}, Recognize: checkOpenssl, Source: "OpenSSL 3.0.19 apps/lib/opt.c opt_next and the option tables of openssl CMD -help",
		SandboxSource: "OpenSSL 3.0 apps run no program (the engines, providers and configuration modules they load are shared libraries: the recognizer's concern)"},
	{Name: "pygmentize", Programs: []string{"pygmentize"}, Recognize: checkPygmentize, Source: "Pygments 2.x pygments/cmdline.py (argparse)",
		SandboxSource: "Pygments 2.x runs no program"},
	{Name: "patch", Programs: []string{"patch", "gpatch"}, Recognize: checkPatch, Source: "GNU patch 2.7.6 src/patch.c longopts and get_some_switches, util.c create_backup",
		SandboxSource: "GNU patch 2.7.6 pch.c do_ed_script (popen \"ed - FILE\" for ed-style diffs) and util.c systemic (system() for -g/PATCH_GET): neither ed nor sh is granted, so an ed script in the patch text fails instead of running"},
	{Name: "xargs", Programs: []string{"xargs", "gxargs"}, Recognize: wrappers["xargs"].check, Source: "GNU findutils 4.9 xargs(1), xargs/xargs.c", SandboxSource: wrapSandbox},
	{Name: "timeout", Programs: []string{"timeout", "gtimeout"}, Recognize: wrappers["timeout"].check, Source: "GNU coreutils 9.1 timeout(1), src/timeout.c", SandboxSource: wrapSandbox},
	{Name: "nice", Programs: []string{"nice", "gnice"}, Recognize: wrappers["nice"].check, Source: "GNU coreutils 9.1 nice(1), src/nice.c", SandboxSource: wrapSandbox},
	{Name: "ionice", Programs: []string{"ionice"}, Recognize: wrappers["ionice"].check, Source: "util-linux 2.38 ionice(1), schedutils/ionice.c", SandboxSource: wrapSandbox},
	{Name: "nohup", Programs: []string{"nohup", "gnohup"}, Recognize: wrappers["nohup"].check, Source: "GNU coreutils 9.1 nohup(1), src/nohup.c", SandboxSource: wrapSandbox},
	{Name: "stdbuf", Programs: []string{"stdbuf", "gstdbuf"}, Recognize: wrappers["stdbuf"].check, Source: "GNU coreutils 9.1 stdbuf(1), src/stdbuf.c",
		Exec:          stdbufLibs,
		SandboxSource: wrapSandbox + "; stdbuf.c set_LD_PRELOAD loads libstdbuf.so from PKGLIBEXECDIR (Debian /usr/libexec/coreutils, Fedora /usr/libexec/coreutils, Alpine /usr/libexec/coreutils)"},
	{Name: "time", Programs: []string{"time"}, Recognize: wrappers["time"].check, Source: "GNU time 1.9 time(1), src/time.c", SandboxSource: wrapSandbox},
	{Name: "env", Programs: []string{"env", "genv"}, Recognize: wrappers["env"].check, Source: "GNU coreutils 9.1 env(1), src/env.c", SandboxSource: wrapSandbox},
	{Name: "flock", Programs: []string{"flock"}, Recognize: wrappers["flock"].check, Source: "util-linux 2.38 flock(1), sys-utils/flock.c", SandboxSource: wrapSandbox},
	{Name: "file", Programs: []string{"file"}, Recognize: checkFile, Source: "file 5.4x file(1)",
		SandboxSource: "file 5.44 compress.c: only -z may run a decompressor, when libmagic lacks the library"},
	{Name: "cc", Programs: []string{"cc", "c++", "gcc", "g++", "clang", "clang++"}, Also: isCompilerName, Recognize: checkCC,
		Source: "GCC 12 manual: 3.2 Overall Options, 3.13 Options for Linking, 3.16 Directory Options, 3.18 Developer Options; clang 14–18 driver Options.td",
		Exec:   []string{"as", "ld", "ld.bfd", "ld.gold", "ld.lld", "ld.mold"}, ExecBeside: []string{"lib/gcc", "libexec/gcc", "lib/gcc-cross", "libexec/gcc-cross"},
		SandboxSource: "GCC 12 manual 3.16 -B (the driver runs cc1, cc1plus, collect2, lto-wrapper and lto1 from libexec/gcc/TARGET/VERSION beneath its prefix, " +
			"Debian's lib/gcc/TARGET/VERSION: gcc -print-prog-name=cc1) and 3.13 -fuse-ld=bfd|gold|lld|mold (ld.NAME); test/day saw gcc -c run cc1 and as, " +
			"a link collect2 and ld, -flto lto-wrapper, lto1 and the driver again (COLLECT_GCC); clang runs itself and ld"},
	{Name: "7z", Programs: []string{"7z", "7za", "7zr", "7zz"}, Recognize: check7z, Source: "p7zip 16.02 and 7-Zip 22+ command line syntax (-o, -w)",
		ExecBeside:    []string{"lib/p7zip", "libexec/p7zip"},
		SandboxSource: "Debian's p7zip-full: /usr/bin/7z is a sh script running /usr/lib/p7zip/7z (test/day); 7-Zip runs no other program"},
	{Name: "yq", Programs: []string{"yq", "xq", "tomlq"}, Recognize: checkYq, Source: "python-yq 3.x (yq, xq, tomlq) and mikefarah/yq 4 command lines",
		Exec:          []string{"jq"},
		SandboxSource: "python-yq 3.1 yq/__init__.py runs jq with its filter (subprocess.Popen([\"jq\", ...])); test/day saw it denied"},
	{Name: "zscripts", Programs: zScripts, Recognize: checkZScripts, Source: "gzip 1.12, bzip2 1.0.8, xz 5.4 and zstd 1.5 wrapper scripts",
		Exec:          []string{"gzip", "bzip2", "xz", "zstd", "grep", "sed", "diff", "cmp", "mktemp", "rm"},
		SandboxSource: "gzip 1.12 gunzip.in, zcat.in, zgrep.in, zdiff.in (sh scripts running gzip -cd, grep, sed, diff, cmp; zdiff's temporary files with mktemp and rm), and their bzip2, xz and zstd counterparts (test/day saw zcat and gunzip denied)"},
}

// gnupgPublic are the files GnuPG 2.2 reads in ~/.gnupg to sign and
// verify with a running agent (the keyring, the trust database and the
// options): never private-keys-v1.d or openpgp-revocs.d, which only the
// agent and the user need.
var gnupgPublic = []string{".gnupg/pubring.kbx", ".gnupg/pubring.gpg", ".gnupg/trustdb.gpg", ".gnupg/gpg.conf", ".gnupg/common.conf", ".gnupg/public-keys.d", ".gnupg/tofu.db"}

// zScripts are the wrapper scripts of the compressors (zscripts family).
var zScripts = []string{"gunzip", "zcat", "uncompress", "zgrep", "zegrep", "zfgrep", "zdiff", "zcmp",
	"bzgrep", "bzegrep", "bzfgrep", "bzdiff", "bzcmp", "xzgrep", "xzegrep", "xzfgrep", "xzdiff", "xzcmp", "zstdgrep"}

// Subcommands are the subcommands argv runs as f's grammar reads them
// (Network.Subcommands); nil for a family without a reader or a nil f.
func (f *Family) Subcommands(argv []string) []string {
	if f == nil || f.Network.Subcommands == nil {
		return nil
	}
	return f.Network.Subcommands(argv)
}

// npmFetch are npm's commands that talk to the registry (npm 10
// lib/utils/cmd-list.js names and aliases).
var npmFetch = Network{
	Fetch: []string{"install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add",
		"ci", "clean-install", "ic", "install-clean", "isntall-clean", "install-test", "it", "install-ci-test", "cit", "sit", "clean-install-test",
		"update", "up", "upgrade", "udpate", "outdated", "view", "info", "show", "v", "audit", "publish", "unpublish",
		"search", "s", "se", "find", "ping", "login", "adduser", "add-user", "logout", "whoami", "dist-tag", "dist-tags",
		"owner", "author", "access", "deprecate", "doctor", "token", "team", "org", "star", "unstar", "stars", "repo", "bugs", "docs"},
	Subcommands: npmSubcommands,
	Reason:      "they download packages from or talk to the registry",
}

// byProgram maps every listed basename to its family.
var byProgram = func() map[string]*Family {
	m := map[string]*Family{}
	for i := range registry {
		f := &registry[i]
		for _, p := range f.Programs {
			if m[p] != nil {
				panic("argvrules: program " + p + " is in two families")
			}
			m[p] = f
		}
	}
	return m
}()

// FamilyOf returns the family of an executable basename (as produced by
// path.Base of argv[0]), or nil when no family covers it. The Family is
// the registry's own row: read it, never modify it. The comparison
// is exact (case-sensitive), plus each family's Also shapes.
func FamilyOf(base string) *Family {
	if f := byProgram[base]; f != nil {
		return f
	}
	for i := range registry {
		if f := &registry[i]; f.Also != nil && f.Also(base) {
			return f
		}
	}
	return nil
}

// Check judges one stage with the recognizers of ctx.Judges (Families of
// argv[0] and ctx.Program when nil), or returns nil when no family covers
// the program (the policy then allows it by name alone).
func Check(argv []string, ctx Context) *Rejection {
	if len(argv) == 0 {
		return nil
	}
	judges := ctx.Judges
	if judges == nil {
		judges = Families(argv[0], ctx.Program)
	}
	for _, f := range judges {
		if ctx.MoreOperands && !f.IsWrapper() {
			return appendedRejection(f, argv)
		}
		if r := f.Recognize(argv, ctx); r != nil {
			return r
		}
	}
	return nil
}

// multiCall are executables that pick what to run by argv[0]'s basename
// (BusyBox and toybox applets, rustup's proxies cargo, rustc ...): behind
// them the name decides the family, not the file.
var multiCall = map[string]bool{"busybox": true, "toybox": true, "rustup": true}

// Families returns the families that judge argv0: the family of its
// basename and, when the symlink chain of the resolved program (Program)
// ends in a file of another family, that one too, so "awk2 -> gawk"
// is judged as awk and "find -> gawk" by both. A chain through a
// multi-call binary is judged by the name alone.
func Families(argv0 string, p Program) []*Family {
	var out []*Family
	if f := FamilyOf(path.Base(argv0)); f != nil {
		out = append(out, f)
	}
	names := p.names()
	for i := len(names) - 1; i >= 0; i-- {
		if multiCall[names[i]] {
			return out
		}
		if f := FamilyOf(names[i]); f != nil {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
			return out
		}
	}
	return out
}

// Selection is how a stage's program is judged and confined, decided
// once per stage (Select).
type Selection struct {
	// Judges are the families whose recognizers judge the stage
	// (Families).
	Judges []*Family
	// Family is the family whose sandbox facts confine the stage: the
	// family of the file that runs (the last of Judges), or nil for a
	// leaf.
	Family *Family
	// Dialect is the implementation Family reads argv as ("" when the
	// family has one).
	Dialect string
}

// Select decides which families judge argv0, resolved as p, and which
// one confines it. A name and a chain that lead to different families
// are judged by both and confined as the file that runs; behind a
// multi-call binary the name decides.
func Select(argv0 string, p Program) Selection {
	s := Selection{Judges: Families(argv0, p)}
	if n := len(s.Judges); n > 0 {
		s.Family = s.Judges[n-1]
		if s.Family.Dialect != nil {
			s.Dialect = s.Family.Dialect(argv0, p)
		}
	}
	return s
}

// All returns every family, in registry order: the registry's own rows,
// to read, never to modify.
func All() []*Family {
	out := make([]*Family, len(registry))
	for i := range registry {
		out[i] = &registry[i]
	}
	return out
}

// Names returns every family name, in registry order.
func Names() []string {
	out := make([]string, len(registry))
	for i, f := range registry {
		out[i] = f.Name
	}
	return out
}

// isGitDashed: git's "git-NAME" programs (git-upload-pack, ...) are the
// dashed form of a subcommand (git.c cmd_main).
func isGitDashed(base string) bool { return strings.HasPrefix(base, "git-") }

// isPipVersion: pip followed by a Python version (pip3.12, pip2).
func isPipVersion(base string) bool {
	v, ok := strings.CutPrefix(base, "pip")
	return ok && v != "" && strings.Trim(v, "0123456789.") == ""
}

// isGoRelease: golang.org/dl wrappers (go1.22.3, go1.23rc1) run that go
// release.
func isGoRelease(base string) bool {
	v, ok := strings.CutPrefix(base, "go1")
	return ok && strings.Trim(v, "0123456789.rcbeta") == ""
}

// familyNamed returns the registry row named name (tests, seeds).
func familyNamed(name string) *Family {
	i := slices.IndexFunc(registry, func(f Family) bool { return f.Name == name })
	if i < 0 {
		return nil
	}
	return &registry[i]
}

// GitFamily is git's registry row, whose Env (the hardening configuration)
// the policy gives every call.
func GitFamily() *Family { return familyNamed("git") }

// gitEnv is the git family's Env: git.ChildConfig for the workspace.
func gitEnv(w Workspace) []string { return git.ChildConfig(w.Dir, w.Allowed) }

// Registry returns every family's row, in registry order, for the
// documentation generator (internal/docgen): the rows are the registry's
// own, to be read and never modified.
func Registry() []*Family {
	out := make([]*Family, len(registry))
	for i := range registry {
		out[i] = &registry[i]
	}
	return out
}

// WithChildren returns f and, when f RunsPrograms, the families its
// Children name, transitively, each once, f first: the families whose
// reads, caches and helpers one stage of f needs (see Family.Children).
// Nil for a nil f.
func (f *Family) WithChildren() []*Family {
	if f == nil {
		return nil
	}
	if v, ok := withChildren.Load(f); ok {
		return v.([]*Family)
	}
	out := []*Family{f}
	for i := 0; f.RunsPrograms && i < len(out); i++ {
		for _, name := range out[i].Children {
			if c := familyNamed(name); c != nil && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	withChildren.Store(f, out)
	return out
}

var withChildren sync.Map // *Family → []*Family
