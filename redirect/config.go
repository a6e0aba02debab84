package redirect

import "strings"

// configFile is a file some program reads as configuration, named by the
// path below the directory it is read from (a home directory or a project
// directory, which may be the working directory or any directory below
// it: with HOME delegated, and by default on the platform, HOME can be an
// allowed directory; project files are read from the working directory
// by design). A pattern ending in "/" covers everything below it.
type configFile struct {
	pattern string
	what    string
	program string
	source  string
}

// configFiles are matched on the last components of a target's path (a
// directory pattern anywhere in it), case-insensitively, since macOS and
// Windows file systems fold case.
var configFiles = []configFile{
	{".gitconfig", "git's global configuration", "git", "git-config(1) FILES"},
	{".config/git/", "git's XDG configuration", "git", "git-config(1) FILES"},
	{".config/", "the XDG configuration directory", "git, pip, containers, npm and others", "XDG Base Directory Specification 0.8"},
	{".kube/config", "kubectl's default kubeconfig", "kubectl (exec credential plugins run programs)", "kubectl(1), client-go clientcmd RecommendedHomeFile"},
	{".kube/", "kubectl's configuration directory", "kubectl", "client-go clientcmd"},
	{".curlrc", "curl's default configuration", "curl (options, output paths)", "curl(1) -K, --config"},
	{"_curlrc", "curl's default configuration", "curl", "curl(1) -K, --config"},
	{".wgetrc", "wget's startup file", "wget (use_askpass names a program)", "wget(1) FILES"},
	{".npmrc", "npm's user or project configuration", "npm, pnpm, yarn 1 (script-shell, git, node-options)", "npmrc(5)"},
	{".yarnrc", "yarn 1's configuration", "yarn", "yarnpkg.com yarnrc"},
	{".yarnrc.yml", "yarn's configuration", "yarn (yarnPath runs a program)", "yarnpkg.com configuration/yarnrc"},
	{".pip/pip.conf", "pip's legacy user configuration", "pip", "pip docs Configuration"},
	{"pip.conf", "a pip configuration (user, site or virtualenv)", "pip", "pip docs Configuration"},
	{"pip.ini", "a pip configuration", "pip", "pip docs Configuration"},
	{".cargo/config", "cargo's configuration", "cargo (build.rustc-wrapper, target runner and linker)", "The Cargo Book 3.3 Configuration"},
	{".cargo/config.toml", "cargo's configuration", "cargo", "The Cargo Book 3.3 Configuration"},
	{".docker/config.json", "docker's client configuration", "docker (credential helpers run programs)", "docker(1) config"},
	{".ssh/", "ssh's configuration directory", "ssh, run by git (ProxyCommand, authorized_keys)", "ssh_config(5)"},
	{".aws/config", "the AWS configuration", "aws and SDKs (credential_process runs a program)", "AWS CLI User Guide, Sourcing credentials with an external process"},
	{".mavenrc", "Maven's startup script", "mvn (sourced as a shell script)", "mvn(1) / apache-maven bin/mvn"},
	{".gradle/init.gradle", "a Gradle init script", "gradle", "Gradle docs Initialization Scripts"},
	{".gradle/init.d/", "Gradle init scripts", "gradle", "Gradle docs Initialization Scripts"},
	{".hgrc", "Mercurial's configuration", "hg (hooks)", "hgrc(5)"},
	{"mercurial.ini", "Mercurial's Windows user configuration", "hg (extensions load Python code, hooks run commands)", "hgrc(5) FILES"},
	{".hg/", "a Mercurial repository", "hg (.hg/hgrc and .hg/hgrc-not-shared: extensions load Python code, hooks run commands; sharedpath points at another repository's)", "hgrc(5) FILES, hg help share"},
	{".svn/", "a Subversion working copy", "svn (wc.db and pristine files svn trusts)", "svnbook, Subversion Working Copies"},
	{".subversion/", "Subversion's runtime configuration", "svn (editor-cmd, diff-cmd, merge-tool-cmd and [tunnels] name programs)", "svnbook, Runtime Configuration Area"},
	{".fslckout", "a Fossil checkout database", "fossil (checkout settings such as ssh-command and gdiff-command name programs)", "fossil help settings"},
	{"_FOSSIL_", "a Fossil checkout database (Windows name)", "fossil", "fossil help settings"},
	{".fossil", "Fossil's global configuration database", "fossil (editor, ssh-command, pgp-command name programs)", "fossil help settings"},
	{".fossil-settings/", "Fossil's versioned settings", "fossil (gmerge-command and other settings name programs)", "fossil help settings (versionable)"},
	{".bzr/", "a Bazaar branch or checkout", "bzr, brz (branch.conf and checkout settings)", "bzr help configuration"},
	{".bazaar/", "Bazaar's user configuration and plugins", "bzr (plugins/ are Python code loaded at start, bazaar.conf names an editor)", "bzr help configuration, bzr help plugins"},
	{".envrc", "a direnv script", "direnv (runs it on entering the directory)", "direnv(1)"},
	{".bashrc", "bash's startup file", "bash", "bash(1) INVOCATION"},
	{".bash_profile", "bash's login startup file", "bash", "bash(1) INVOCATION"},
	{".bash_login", "bash's login startup file", "bash", "bash(1) INVOCATION"},
	{".profile", "the login shell's startup file", "sh, bash", "bash(1) INVOCATION, dash(1)"},
	{".zshrc", "zsh's startup file", "zsh", "zsh(1) STARTUP/SHUTDOWN FILES"},
	{".zshenv", "zsh's startup file", "zsh", "zsh(1) STARTUP/SHUTDOWN FILES"},
	{".zprofile", "zsh's login startup file", "zsh", "zsh(1) STARTUP/SHUTDOWN FILES"},
	{".gnupg/", "GnuPG's home", "gpg, run by git for signing", "gpg(1) FILES"},
	{".local/bin/", "the XDG user executable directory", "shells and tools that put it in PATH", "XDG Base Directory Specification 0.8"},
	{"rust-toolchain.toml", "rustup's toolchain file", "rustup (a toolchain path runs that directory's cargo)", "The rustup book, Overrides: The toolchain file"},
	{"rust-toolchain", "rustup's legacy toolchain file", "rustup", "The rustup book, Overrides: The toolchain file"},
}

// configFileOf returns the configuration file role of the path parts.
func configFileOf(parts []string) (configFile, bool) {
	low := make([]string, len(parts))
	for i, p := range parts {
		low[i] = strings.ToLower(p)
	}
	for _, cf := range configFiles {
		pat := strings.Split(strings.ToLower(strings.TrimSuffix(cf.pattern, "/")), "/")
		if strings.HasSuffix(cf.pattern, "/") {
			if containsRun(low[:max(len(low)-1, 0)], pat) { // a file below the directory
				return cf, true
			}
			continue
		}
		if len(low) >= len(pat) && equalRun(low[len(low)-len(pat):], pat) {
			return cf, true
		}
	}
	return configFile{}, false
}

// containsRun reports whether pat occurs as consecutive elements of s.
func containsRun(s, pat []string) bool {
	for i := 0; i+len(pat) <= len(s); i++ {
		if equalRun(s[i:i+len(pat)], pat) {
			return true
		}
	}
	return false
}

func equalRun(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// IsConfigFile reports whether the relative path p names a configuration
// file by role (configFiles), for callers that must know whether a name a
// program makes up could be one (split's PREFIX plus suffix).
func IsConfigFile(p string) bool {
	_, ok := configFileOf(strings.Split(p, "/"))
	return ok
}

// ConfigPatterns are the configuration file patterns by role (a trailing
// "/" marks a directory).
func ConfigPatterns() []string {
	out := make([]string, len(configFiles))
	for i, cf := range configFiles {
		out[i] = cf.pattern
	}
	return out
}
