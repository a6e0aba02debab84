package git

import "github.com/seed-b63acb1b/mcp-shell-server/refusal"

// Option-table builders: f is a flag, r takes a required value, o an
// optional (attached-only) value; the *n variants are PARSE_OPT_NONEG.
func f(long string, short byte) optSpec  { return optSpec{long: long, short: short} }
func fn(long string, short byte) optSpec { return optSpec{long: long, short: short, noNeg: true} }
func r(long string, short byte) optSpec  { return optSpec{long: long, short: short, arg: argRequired} }
func rn(long string, short byte) optSpec {
	return optSpec{long: long, short: short, arg: argRequired, noNeg: true}
}
func o(long string, short byte) optSpec { return optSpec{long: long, short: short, arg: argOptional} }

// deny marks a table row as refused when selected.
func deny(s optSpec, rule refusal.Rule) optSpec { s.rule = rule; return s }

// grepTable is builtin/grep.c cmd_grep's option array (git 2.53; 2.39 has
// the same rows), parsed with PARSE_OPT_KEEP_DASHDASH |
// PARSE_OPT_STOP_AT_NON_OPTION. -O/--open-files-in-pager takes an optional
// attached pager command and runs it.
var grepTable = optTable{
	number:          true,
	stopAtNonOption: true,
	nodash:          "()",
	strictShort:     true,
	opts: []optSpec{
		f("cached", 0), f("no-index", 0), f("untracked", 0), f("exclude-standard", 0),
		f("recurse-submodules", 0), f("invert-match", 'v'), f("ignore-case", 'i'),
		f("word-regexp", 'w'), f("text", 'a'), f("", 'I'), f("textconv", 0),
		f("recursive", 'r'), rn("max-depth", 0), f("extended-regexp", 'E'),
		f("basic-regexp", 'G'), f("fixed-strings", 'F'), f("perl-regexp", 'P'),
		f("line-number", 'n'), f("column", 0), f("", 'h'), f("", 'H'), f("full-name", 0),
		f("files-with-matches", 'l'), f("name-only", 0), f("files-without-match", 'L'),
		f("null", 'z'), f("only-matching", 'o'), f("count", 'c'), o("color", 0),
		f("break", 0), f("heading", 0), r("context", 'C'), r("before-context", 'B'),
		r("after-context", 'A'), r("threads", 0), f("show-function", 'p'),
		f("function-context", 'W'), r("", 'f'), rn("", 'e'), fn("and", 0), fn("or", 0),
		fn("not", 0), f("quiet", 'q'), f("all-match", 0),
		deny(o("open-files-in-pager", 'O'), ruleExternal),
		f("ext-grep", 0), r("max-count", 'm'),
	},
}

// rebaseTable is builtin/rebase.c builtin_rebase_options (git 2.53), parsed
// with flags 0 (options are recognised after operands). -x/--exec adds exec
// lines that run a shell command after each commit.
var rebaseTable = optTable{
	strictShort: true,
	opts: []optSpec{
		r("onto", 0), f("keep-base", 0), f("no-verify", 0), f("quiet", 'q'),
		f("verbose", 'v'), f("no-stat", 'n'), f("stat", 0), f("signoff", 0),
		f("committer-date-is-author-date", 0), f("reset-author-date", 0),
		f("ignore-date", 0), r("", 'C'), f("ignore-whitespace", 0), r("whitespace", 0),
		f("force-rebase", 'f'), f("no-ff", 0), fn("continue", 0), fn("skip", 0),
		fn("abort", 0), fn("quit", 0), fn("edit-todo", 0), fn("show-current-patch", 0),
		fn("apply", 0), fn("merge", 'm'), fn("interactive", 'i'),
		f("preserve-merges", 'p'), f("rerere-autoupdate", 0), rn("empty", 0),
		f("keep-empty", 'k'), f("autosquash", 0), f("update-refs", 0),
		o("gpg-sign", 'S'), f("autostash", 0),
		deny(r("exec", 'x'), ruleExternal),
		f("allow-empty-message", 0), o("rebase-merges", 'r'), f("fork-point", 0),
		r("strategy", 's'), r("strategy-option", 'X'), f("root", 0),
		f("reschedule-failed-exec", 0), f("reapply-cherry-picks", 0),
	},
}

// cloneTable is builtin/clone.c builtin_clone_options (git 2.53 ∪ 2.39).
// -u/--upload-pack names the remote program, -c/--config writes
// configuration (core.fsmonitor, core.sshCommand, ...) before checkout, and
// --template copies hooks from a directory.
var cloneTable = optTable{opts: []optSpec{
	f("verbose", 'v'), f("quiet", 'q'), f("progress", 0), f("reject-shallow", 0),
	f("no-checkout", 'n'), f("bare", 0), f("naked", 0), f("mirror", 0), f("local", 'l'),
	f("no-hardlinks", 0), f("shared", 's'), o("recurse-submodules", 0), o("recursive", 0),
	r("jobs", 'j'), deny(r("template", 0), ruleExternal), r("reference", 0),
	r("reference-if-able", 0), f("dissociate", 0), r("origin", 'o'), r("branch", 'b'),
	r("revision", 0), deny(r("upload-pack", 'u'), ruleExternal), r("depth", 0),
	r("shallow-since", 0), r("shallow-exclude", 0), f("single-branch", 0), f("tags", 0),
	f("shallow-submodules", 0), r("separate-git-dir", 0), r("ref-format", 0),
	deny(r("config", 'c'), ruleExternal), r("server-option", 0), f("ipv4", '4'),
	f("ipv6", '6'), r("filter", 0), f("also-filter-submodules", 0),
	f("remote-submodules", 0), f("sparse", 0), r("bundle-uri", 0),
}}

// fetchTable is builtin/fetch.c builtin_fetch_options (git 2.53 ∪ 2.39).
var fetchTable = optTable{opts: []optSpec{
	f("verbose", 'v'), f("quiet", 'q'), f("all", 0), f("set-upstream", 0),
	f("append", 'a'), f("atomic", 0), deny(r("upload-pack", 0), ruleExternal),
	f("force", 'f'), f("multiple", 'm'), f("tags", 't'), f("no-tags", 'n'), r("jobs", 'j'),
	f("prefetch", 0), f("prune", 'p'), f("prune-tags", 'P'), o("recurse-submodules", 0),
	f("dry-run", 0), f("porcelain", 0), f("write-fetch-head", 0), f("keep", 'k'),
	f("update-head-ok", 'u'), f("progress", 0), r("depth", 0), r("shallow-since", 0),
	r("shallow-exclude", 0), r("deepen", 0), f("unshallow", 0), f("refetch", 0),
	r("submodule-prefix", 0), r("recurse-submodules-default", 0),
	f("update-shallow", 0), r("refmap", 0), r("server-option", 'o'), f("ipv4", '4'),
	f("ipv6", '6'), r("negotiation-tip", 0), f("negotiate-only", 0), r("filter", 0),
	f("auto-maintenance", 0), f("auto-gc", 0), f("show-forced-updates", 0),
	f("write-commit-graph", 0), f("stdin", 0),
}}

// pullTable is builtin/pull.c pull_options (git 2.53 ∪ 2.39), which
// forwards --upload-pack to fetch.
var pullTable = optTable{opts: []optSpec{
	f("verbose", 'v'), f("quiet", 'q'), f("progress", 0), o("recurse-submodules", 0),
	o("rebase", 'r'), f("stat", 'n'), f("summary", 0), o("log", 0), f("signoff", 0),
	f("squash", 0), f("commit", 0), f("edit", 'e'), r("cleanup", 0), f("ff", 0),
	f("ff-only", 0), f("verify", 0), f("verify-signatures", 0), f("autostash", 0),
	r("strategy", 's'), r("strategy-option", 'X'), o("gpg-sign", 'S'),
	f("allow-unrelated-histories", 0), f("all", 0), f("append", 'a'),
	deny(r("upload-pack", 0), ruleExternal), f("force", 'f'), f("tags", 't'),
	f("prune", 'p'), o("jobs", 'j'), f("dry-run", 0), f("keep", 'k'), r("depth", 0),
	r("shallow-since", 0), r("shallow-exclude", 0), r("deepen", 0), f("unshallow", 0),
	f("update-shallow", 0), r("refmap", 0), r("server-option", 'o'), f("ipv4", '4'),
	f("ipv6", '6'), r("negotiation-tip", 0), f("show-forced-updates", 0),
	f("set-upstream", 0),
}}

// pushTable is builtin/push.c options (git 2.53 ∪ 2.39); --exec is a hidden
// synonym of --receive-pack.
var pushTable = optTable{opts: []optSpec{
	f("verbose", 'v'), f("quiet", 'q'), r("repo", 0), f("all", 0), f("branches", 0),
	f("mirror", 0), f("delete", 'd'), f("tags", 0), f("dry-run", 'n'), f("porcelain", 0),
	f("force", 'f'), o("force-with-lease", 0), f("force-if-includes", 0),
	r("recurse-submodules", 0), f("thin", 0),
	deny(r("receive-pack", 0), ruleExternal), deny(r("exec", 0), ruleExternal),
	f("set-upstream", 'u'), f("progress", 0), f("prune", 0), f("no-verify", 0),
	f("follow-tags", 0), o("signed", 0), f("atomic", 0), r("push-option", 'o'),
	f("ipv4", '4'), f("ipv6", '6'),
}}

// lsRemoteTable is builtin/ls-remote.c options (git 2.53 ∪ 2.39).
var lsRemoteTable = optTable{opts: []optSpec{
	f("quiet", 'q'), deny(r("upload-pack", 0), ruleExternal), deny(r("exec", 0), ruleExternal),
	f("tags", 't'), f("branches", 'b'), f("heads", 'h'), f("refs", 0), f("get-url", 0),
	r("sort", 0), f("exit-code", 0), f("symref", 0), r("server-option", 'o'),
}}

// archiveTable merges builtin/archive.c's local options (--output,
// --remote, --exec) with archive.c parse_archive_args (git 2.53 ∪ 2.39).
// -0..-9 are compression levels (handled as a number).
var archiveTable = optTable{number: true, opts: []optSpec{
	r("output", 'o'), r("remote", 0), deny(r("exec", 0), ruleExternal),
	r("format", 0), r("prefix", 0), r("add-file", 0), r("add-virtual-file", 0),
	f("worktree-attributes", 0), r("mtime", 0), f("verbose", 'v'), f("list", 'l'),
}}

// commitTable is builtin/commit.c builtin_commit_options (value-taking rows
// and the short letters; git 2.53 ∪ 2.39). Only value consumption matters:
// "git commit -m --exec" is a message.
var commitTable = optTable{opts: []optSpec{
	f("quiet", 'q'), f("verbose", 'v'), r("file", 'F'), r("author", 0), r("date", 0),
	r("message", 'm'), r("reedit-message", 'c'), r("reuse-message", 'C'), r("fixup", 0),
	r("squash", 0), f("reset-author", 0), r("trailer", 0), f("signoff", 's'),
	r("template", 't'), f("edit", 'e'), r("cleanup", 0), f("status", 0),
	o("gpg-sign", 'S'), f("all", 'a'), f("include", 'i'), f("interactive", 0),
	f("patch", 'p'), f("only", 'o'), f("no-verify", 'n'), f("dry-run", 0), f("short", 0),
	f("branch", 0), f("porcelain", 0), f("long", 0), f("null", 'z'), f("amend", 0),
	f("no-post-rewrite", 0), o("untracked-files", 'u'), r("pathspec-from-file", 0),
	f("pathspec-file-nul", 0), f("allow-empty", 0), f("allow-empty-message", 0),
	f("ahead-behind", 0),
}}

// messageTable covers the value-taking options of tag, merge, cherry-pick,
// revert, notes, stash, checkout, switch, branch, worktree, remote and am
// that an agent commonly writes (git 2.53). Shared because only value
// consumption matters for them.
var messageTable = optTable{opts: []optSpec{
	r("message", 'm'), r("file", 'F'), r("local-user", 'u'), r("cleanup", 0), r("sort", 0),
	r("format", 0), r("strategy", 's'), r("strategy-option", 'X'), r("into-name", 0),
	o("gpg-sign", 'S'), r("mainline", 0), r("reuse-message", 'C'), r("reedit-message", 'c'),
	r("ref", 0), r("pathspec-from-file", 0), r("orphan", 0), r("conflict", 0),
	o("track", 't'), r("set-upstream-to", 0), r("points-at", 0), r("reason", 0),
	r("whitespace", 0), r("directory", 0), r("exclude", 0), r("include", 0),
	r("patch-format", 0), r("resolvemsg", 0), r("empty", 0), r("trailer", 0),
	r("create", 0), r("force-create", 0), r("author", 0), r("date", 0),
}}

// messageShortValues lists, per subcommand, the short letters of
// messageTable's subcommands that take a value (letters differ between
// subcommands: switch -c creates a branch, tag -n takes an optional count).
var messageShortValues = map[string]string{
	"tag":         "mFu",
	"merge":       "mFsX",
	"cherry-pick": "mX",
	"revert":      "mX",
	"notes":       "mFCc",
	"stash":       "m",
	"checkout":    "bB",
	"switch":      "cC",
	"branch":      "u",
	"worktree":    "bB",
	"remote":      "tm",
	"am":          "Cp",
}

// logTable lists the revision.c and diff.c options of the log family (log,
// show, diff, whatchanged, diff-tree, diff-index, diff-files, rev-list,
// shortlog, range-diff, format-patch) that take a separate value (git 2.53;
// these parsers do not abbreviate). Options missing here are flags, which
// only makes the scan stricter.
var logTable = optTable{noAbbrev: true, opts: []optSpec{
	r("max-count", 'n'), r("", 'S'), r("", 'G'), r("", 'O'), r("", 'L'),
	r("ignore-matching-lines", 'I'), r("skip", 0), r("since", 0), r("after", 0),
	r("until", 0), r("before", 0), r("author", 0), r("committer", 0), r("grep", 0),
	r("grep-reflog", 0), r("exclude", 0), r("output", 0), r("find-object", 0),
	r("diff-filter", 0), r("word-diff-regex", 0), r("src-prefix", 0),
	r("dst-prefix", 0), r("line-prefix", 0), r("anchored", 0), r("rotate-to", 0),
	r("skip-to", 0),
}}

// formatPatchExtra are builtin/log.c builtin_format_patch_options rows that
// take a separate value (git 2.53 ∪ 2.39).
var formatPatchExtra = []optSpec{
	r("output-directory", 'o'), r("reroll-count", 'v'), r("suffix", 0),
	r("start-number", 0), r("filename-max-length", 0), r("subject-prefix", 0),
	r("cover-from-description", 0), r("add-header", 0), r("to", 0), r("cc", 0),
	r("in-reply-to", 0), r("signature", 0), r("base", 0), r("signature-file", 0),
	r("interdiff", 0), r("range-diff", 0), r("creation-factor", 0),
	r("description-file", 0),
}

// configTable is builtin/config.c's legacy-mode option array plus the
// options of its 2.46+ subcommands (git 2.53 ∪ 2.39). Rows marked with
// ruleConfigWrite select an action that writes, renames, removes or edits.
var configTable = optTable{opts: []optSpec{
	f("global", 0), f("system", 0), f("local", 0), f("worktree", 0), r("file", 'f'),
	r("blob", 0), fn("get", 0), fn("get-all", 0), fn("get-regexp", 0),
	fn("get-urlmatch", 0), deny(fn("replace-all", 0), ruleConfigWrite),
	deny(fn("add", 0), ruleConfigWrite), deny(fn("unset", 0), ruleConfigWrite),
	deny(fn("unset-all", 0), ruleConfigWrite), deny(fn("rename-section", 0), ruleConfigWrite),
	deny(fn("remove-section", 0), ruleConfigWrite), fn("list", 'l'),
	deny(fn("edit", 'e'), ruleConfigWrite), fn("get-color", 0), fn("get-colorbool", 0),
	r("type", 't'), f("bool", 0), f("int", 0), f("bool-or-int", 0), f("bool-or-str", 0),
	f("path", 0), f("expiry-date", 0), f("null", 'z'), f("name-only", 0),
	f("includes", 0), f("show-origin", 0), f("show-scope", 0), r("default", 0),
	f("fixed-value", 0), r("comment", 0), f("all", 0), f("regexp", 0), r("url", 0),
	r("value", 0), f("show-names", 0),
}}

// helpTable is builtin/help.c builtin_help_options (git 2.53 ∪ 2.39).
// -m/-w/-i choose man, a web browser or info.
var helpTable = optTable{opts: []optSpec{
	fn("all", 'a'), f("external-commands", 0), f("aliases", 0), f("exclude-guides", 0),
	deny(f("man", 'm'), ruleHelp), deny(f("web", 'w'), ruleHelp),
	deny(f("info", 'i'), ruleHelp), f("verbose", 'v'), fn("guides", 'g'),
	fn("user-interfaces", 0), fn("developer-interfaces", 0), fn("config", 'c'),
	fn("config-for-completion", 0), fn("config-sections-for-completion", 0),
}}

// initTable is builtin/init-db.c init_db_options (git 2.53 ∪ 2.39);
// --template copies hooks into the new repository.
var initTable = optTable{opts: []optSpec{
	deny(r("template", 0), ruleExternal), f("bare", 0), o("shared", 0), f("quiet", 'q'),
	r("separate-git-dir", 0), r("initial-branch", 'b'), r("object-format", 0),
	r("ref-format", 0),
}}

// applyTable is apply.c apply_parse_options (git 2.53 ∪ 2.39): the
// value-taking rows, --unsafe-paths (which lets a patch write outside the
// working tree) and --build-fake-ancestor FILE (which writes FILE).
var applyTable = optTable{opts: []optSpec{
	r("exclude", 0), r("include", 0), r("", 'p'), r("", 'C'), r("whitespace", 0),
	r("directory", 0), r("build-fake-ancestor", 0),
	deny(f("unsafe-paths", 0), ruleOutput),
	f("stat", 0), f("numstat", 0), f("summary", 0), f("check", 0), f("index", 0),
	f("intent-to-add", 'N'), f("cached", 0), f("apply", 0), f("3way", '3'),
	f("reverse", 'R'), f("reject", 0), f("verbose", 'v'), f("quiet", 'q'),
	f("recount", 0), f("allow-empty", 0), f("allow-overlap", 0), f("inaccurate-eof", 0),
	f("ignore-space-change", 0), f("ignore-whitespace", 0), f("no-add", 0), f("binary", 0),
	f("", 'z'),
}}
