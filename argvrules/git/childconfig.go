package git

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// pinnedConfig is the command-scope configuration given to every git
// child. Command scope (GIT_CONFIG_COUNT/KEY_n/VALUE_n, git 2.31+) is read
// after system, global, repository and worktree configuration, so these
// values override what a repository's .git/config sets. Each entry neutralises
// a setting that makes git run a program named by configuration.
var pinnedConfig = [][2]string{
	// Hooks (.git/hooks/* or a repository-chosen hooksPath) run on commit,
	// merge, checkout, rebase, push, gc, ...
	{"core.hooksPath", "/dev/null"},
	// core.fsmonitor=<command> runs on status, diff, add, ...
	{"core.fsmonitor", "false"},
	// Pagers only start with a terminal on stdout; pin them anyway.
	{"core.pager", "cat"},
	// Editors run for commit without -m, commit --amend, rebase -i and
	// --continue, tag -a, merge --edit, ...; "true" accepts the text git
	// proposes (an empty message still aborts the commit or tag, a todo
	// list runs as proposed, so "rebase -i --autosquash" works) instead of
	// running a repository-chosen program.
	{"core.editor", "true"},
	{"sequence.editor", "true"},
	// ssh transport program.
	{"core.sshCommand", "ssh"},
	// Password prompt program; an empty value disables it.
	{"core.askPass", ""},
	// An empty credential.helper resets the helper list read so far.
	{"credential.helper", ""},
	// Signing and verification programs (commit.gpgSign, log --show-signature,
	// verify-commit, ...) for each gpg.format, which stays the user's
	// (openpgp, x509 or ssh signing all run a pinned program), and the ssh
	// default-key command, run with gpg.format=ssh when user.signingKey
	// is unset (gpg-interface.c get_default_ssh_signing_key): "true"
	// prints no key, so git says none is configured.
	{"gpg.program", "gpg"},
	{"gpg.openpgp.program", "gpg"},
	{"gpg.x509.program", "gpgsm"},
	{"gpg.ssh.program", "ssh-keygen"},
	{"gpg.ssh.defaultKeyCommand", "true"},
	// Remote helpers that run programs.
	{"protocol.ext.allow", "never"},
	{"protocol.fd.allow", "never"},
	// git archive --format=tgz/tar.gz (and -o x.tgz) run this filter; the
	// value is git 2.38+'s own default, the internal gzip (archive-tar.c
	// internal_gzip_command). Other formats are refused by the recognizer.
	{"tar.tgz.command", "git archive gzip"},
	{"tar.tar.gz.command", "git archive gzip"},
}

// ChildConfig returns the environment entries ("NAME=value") that harden a
// git child process of a call running in dir (absolute, symlink-resolved),
// where allowed are the allowed directories: GIT_CONFIG_COUNT,
// GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n pinning the settings in
// pinnedConfig and the safe.directory list of safeDirectories,
// GIT_CEILING_DIRECTORIES (ceilings), plus
// GIT_TERMINAL_PROMPT=0 (no credential prompts), GIT_PAGER=cat and
// PAGER=cat, GIT_ALLOW_PROTOCOL (only file, git, http, https and ssh
// transports, so no remote helper such as ext:: or fd:: runs) and an empty
// GIT_PROXY_COMMAND (which makes git ignore core.gitProxy commands).
//
// The caller must add these after any operator-delegated variables so they
// win, and must refuse per-request overrides of GIT_CONFIG_* and the other
// names here. Settings git does not let a caller pin from outside remain
// delegated; SECURITY-git.md lists them.
func ChildConfig(dir string, allowed []string) []string {
	config := append(append([][2]string{}, pinnedConfig...), safeDirectories(dir, allowed)...)
	env := make([]string, 0, 2*len(config)+6)
	env = append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(len(config)))
	for i, kv := range config {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	if c := ceilings(allowed); c != "" {
		env = append(env, "GIT_CEILING_DIRECTORIES="+c)
	}
	return append(env,
		"GIT_TERMINAL_PROMPT=0",
		"GIT_PAGER=cat",
		"PAGER=cat",
		"GIT_ALLOW_PROTOCOL=file:git:http:https:ssh",
		"GIT_PROXY_COMMAND=",
	)
}

// ceilings is the GIT_CEILING_DIRECTORIES value of a call: the parent of
// every allowed directory that is not itself inside one. git does not
// look for a repository in a ceiling directory or above it while
// discovering one from the working directory (git(1)
// GIT_CEILING_DIRECTORIES; setup.c setup_git_directory_gently_1 stops at
// longest_ancestor_length, the ceiling itself excluded), so git uses a
// repository inside the allowed directories or none, exactly where the
// recognizer's repository check may look (checkRepoConfig): a repository
// above them is neither read by the check nor used by git.
func ceilings(allowed []string) string {
	var out []string
	for _, a := range allowed {
		if p := filepath.Dir(a); p != a && workdir.Inside(p, allowed) == "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return strings.Join(out, string(filepath.ListSeparator))
}

// safeDirectories is the safe.directory list of a call in dir: the
// repositories there that another user owns (a container's uid against a
// host bind mount: "detected dubious ownership") open for the allowed
// directories only.
//
// git checks the owner of a repository's worktree and git directory and,
// when it is not the running user, looks the worktree (the git directory
// of a bare repository) up in safe.directory, read only from protected
// configuration: system, global and command scope, where command scope is
// GIT_CONFIG_COUNT/KEY/VALUE and -c (git-config(1) SCOPES "Protected
// configuration", Documentation/config/safe.adoc; setup.c
// ensure_valid_ownership → git_protected_config(safe_directory_cb), since
// git 2.38, commit 6061601d9f; older git ignores these entries and refuses
// as before). An empty value resets the list, so an operator's
// "safe.directory=*" in ~/.gitconfig does not reach beyond the allowed
// directories either. Before git 2.46 a value matches one path exactly
// (fspathcmp), so the list names each allowed directory and dir with every
// parent up to its allowed directory: the worktree top git discovers from
// dir is one of them when it lies inside an allowed directory. From git
// 2.46 (commit 313eec177a) "D/*" matches every repository below D, which
// also covers one a call reaches with git -C; older git compares it
// literally and matches nothing. Never "*". git compares its own
// getcwd-derived path with "/" separators, hence ToSlash.
func safeDirectories(dir string, allowed []string) [][2]string {
	out := [][2]string{{"safe.directory", ""}}
	add := func(d string) { out = append(out, [2]string{"safe.directory", filepath.ToSlash(d)}) }
	for _, a := range allowed {
		add(a)
		add(strings.TrimSuffix(filepath.ToSlash(a), "/") + "/*")
	}
	root := workdir.Inside(dir, allowed)
	for d := dir; root != "" && d != root; d = filepath.Dir(d) {
		add(d)
	}
	return out
}
