// Package git is the argv recognizer for git.
//
// Check parses one pipeline stage's argv the way git 2.53 does: the global
// options of git.c handle_options (which take values, in which forms), then
// the subcommand, then that subcommand's own grammar — the parse-options
// model of parse-options.c (short clusters, attached and separate values,
// unique-prefix abbreviation with exact names winning, --no- forms, "--" and
// "--end-of-options"), git-send-email's three Getopt::Long passes, or the
// small hand-written loops of the shell-script subcommands. Where git 2.39
// (the version installed for the differential tests) parses differently,
// the union of both readings is refused.
//
// What is refused: every configuration override (-c, -cNAME=VALUE,
// --config-env), --exec-path=DIR, -p/--paginate, unknown global options,
// help forms that launch man/info/a browser, configuration writes, options
// that name a program to run (grep -O, rebase -x, --upload-pack,
// --receive-pack, --exec, clone -c/--config/--template, send-email program selectors), ext:: and fd:: transport
// URLs, output files outside the working directory, whole subcommands that
// exist to run programs or serve (filter-branch, instaweb, daemon, shell,
// credential helpers, ...), and every subcommand this package does not know,
// unless an operator allowlists it with Options.AllowSubcommands.
//
// The repository git would use is found as git finds it (every -C in
// turn, --git-dir, GIT_DIR, gitdir: files, the common directory) and its
// configuration is refused when it sets a program-valued key that cannot
// be pinned or an alias the call may run; a repository outside the
// working directory and the allowed directories the stage may read is
// refused unread (package argvrules/internal/fsview: every file read to
// judge a call is opened without blocking, regular files only, bounded).
//
// What is not claimed: configuration-driven helpers read from the
// repository that ChildConfig pins (hooks, pagers, editors, credential
// helpers, ...). ChildConfig returns the environment that
// pins the ones git lets a caller pin; SECURITY-git.md lists the rest. It
// also carries the call's safe.directory list: repositories another user
// owns (a host bind mount in a container) open inside the allowed
// directories and nowhere else.
//
// Check never runs anything, never modifies the file system and never
// panics; it reads the file system only to find and read the repository's
// configuration (above) and to probe output paths under the call's pinned
// directory, with redirect.ProbeWrite, the check every family and every
// ">" target gets (so a symlink inside the directory cannot carry
// --output outside). Its reason codes are in codes.go. Package argvrules
// registers it as the git family.
package git
