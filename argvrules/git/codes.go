package git

import "github.com/seed-b63acb1b/mcp-shell-server/refusal"

// The rules this package refuses with: each pairs a reason code with the
// catalogue phrase "git <phrase>" every refusal of that code uses.
var (
	// git.config-override: -c, -cNAME=VALUE or --config-env overrides configuration for one command; every override is refused.
	ruleConfigOverride = refusal.Rule{Code: "git.config-override", Phrase: "git command-scoped config"}
	// git.exec-path: --exec-path=DIR makes git run its helper programs from DIR.
	ruleExecPath = refusal.Rule{Code: "git.exec-path", Phrase: "git external program"}
	// git.pager: -p/--paginate starts a pager, a program chosen by configuration and environment.
	rulePager = refusal.Rule{Code: "git.pager", Phrase: "git pager"}
	// git.unknown-global-option: a global option git does not have (before the subcommand).
	ruleGlobalOption = refusal.Rule{Code: "git.unknown-global-option", Phrase: "git global option"}
	// git.help-viewer: a help form that opens man, info or a browser.
	ruleHelp = refusal.Rule{Code: "git.help-viewer", Phrase: "git help viewer"}
	// git.config-write: a git config form that writes configuration, which later commands read.
	ruleConfigWrite = refusal.Rule{Code: "git.config-write", Phrase: "git config"}
	// git.init-adopts-config: git init or clone --separate-git-dir would turn a directory that already holds a "config" file into a repository, keeping that configuration.
	ruleInitAdopt = refusal.Rule{Code: "git.init-adopts-config", Phrase: "git repository configuration"}
	// git.repository-config: the repository's configuration sets a program-valued key that cannot be pinned for the call (remote.<name>.uploadpack, diff.external, filter.<driver>.process, ...) or an alias the call may run, or a file git reads to find the repository is a FIFO, device or oversized file.
	ruleRepoConfig = refusal.Rule{Code: "git.repository-config", Phrase: "git repository configuration"}
	// git.repository-outside: the repository git would use (a -C, --git-dir, --work-tree or GIT_DIR value, a gitdir: file or commondir target) lies outside the working directory and the allowed directories the stage may read, so it is refused unread.
	ruleRepoOutside = refusal.Rule{Code: "git.repository-outside", Phrase: "git repository configuration"}
	// git.external-program: an option that names a program to run (grep -O, rebase -x, --upload-pack, --exec, ...).
	ruleExternal = refusal.Rule{Code: "git.external-program", Phrase: "git external program"}
	// git.remote-helper-url: an ext:: or fd:: transport URL, whose remote helper runs a program.
	ruleRemoteHelper = refusal.Rule{Code: "git.remote-helper-url", Phrase: "git external program"}
	// git.output-path: an output file or directory option whose path leaves the working directory.
	ruleOutput = refusal.Rule{Code: "git.output-path", Phrase: "git output file"}
	// git.refused-subcommand: a subcommand that exists to run programs or serve (filter-branch, daemon, shell, ...).
	ruleSubcommand = refusal.Rule{Code: "git.refused-subcommand", Phrase: "git external program"}
	// git.unknown-subcommand: a subcommand this package does not know (maybe a repository alias); operators can admit it.
	ruleUnknownSub = refusal.Rule{Code: "git.unknown-subcommand", Phrase: "git subcommand"}
	// git.ambiguous-option: an abbreviation whose candidates include a refused option.
	ruleAmbiguous = refusal.Rule{Code: "git.ambiguous-option", Phrase: "git external program"}
	// git.unknown-short-option: a short option a strict table does not know.
	ruleUnknownShort = refusal.Rule{Code: "git.unknown-short-option", Phrase: "git external program"}
	// git.send-email-program: a send-email option that selects a program (--sendmail-cmd, --smtp-server=/path, ...).
	ruleSendEmail = refusal.Rule{Code: "git.send-email-program", Phrase: "git external program"}
	// git.bad-input: an argument with a NUL byte or invalid UTF-8.
	ruleBadInput = refusal.Rule{Code: "git.bad-input", Phrase: "git argument"}
)
