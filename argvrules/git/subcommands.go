package git

import (
	"slices"
	"strings"
	"sync"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// subCheck decides one subcommand. args are the subcommand's arguments
// (argv[base:]), so an argument's argv index is base plus its position.
type subCheck func(args []string, base int, g globals) *refusal.Rejection

// refusedSubcommands are refused whatever their arguments, with the reason.
// The names come from git 2.53 command-list.txt and git.c commands[].
var refusedSubcommands = map[string]string{
	"filter-branch":            "runs the shell snippets given as its filters",
	"instaweb":                 "starts a web server and a browser (--httpd, --browser)",
	"web--browse":              "starts a browser program",
	"daemon":                   "serves repositories and runs --access-hook programs",
	"shell":                    "is a restricted login shell that runs commands",
	"upload-pack":              "is server-side transport plumbing that runs configured hooks",
	"receive-pack":             "is server-side transport plumbing that runs hooks",
	"upload-archive":           "is server-side transport plumbing",
	"upload-archive--writer":   "is server-side transport plumbing",
	"send-pack":                "is transport plumbing whose --receive-pack/--exec name a program",
	"fetch-pack":               "is transport plumbing whose --upload-pack/--exec name a program",
	"http-backend":             "is a CGI server program",
	"http-fetch":               "is transport plumbing",
	"http-push":                "is transport plumbing",
	"remote-ext":               "runs the command given in its arguments",
	"remote-fd":                "is a remote helper for file descriptors",
	"credential":               "runs the configured credential helpers and can print secrets",
	"credential-cache":         "is a credential helper",
	"credential-cache--daemon": "is a credential helper daemon",
	"credential-store":         "is a credential helper that reads and writes a secrets file",
	"fsmonitor--daemon":        "starts a background daemon",
	"hook":                     "runs repository hooks by name",
	"submodule--helper":        "is internal plumbing whose foreach runs commands",
	"for-each-repo":            "runs git with arbitrary arguments in configured repositories",
	"merge-index":              "runs the merge program named in its arguments",
	"merge-one-file":           "is the helper merge-index runs",
	"mergetool--lib":           "is the shell library that runs merge tools",
	"difftool--helper":         "runs the configured diff tool",
	"difftool":                 "runs an external diff tool: the configured one, or one git guesses (vimdiff, which takes commands from the request's stdin)",
	"mergetool":                "runs an external merge tool: the configured one, or one git guesses (vimdiff, which takes commands from the request's stdin)",
	"imap-send":                "runs the configured imap.tunnel command",
	"cvsserver":                "is a server that runs commands",
	"svn":                      "is a foreign-SCM bridge outside this policy",
	"p4":                       "is a foreign-SCM bridge outside this policy",
	"cvsimport":                "is a foreign-SCM bridge outside this policy",
	"cvsexportcommit":          "is a foreign-SCM bridge outside this policy",
	"archimport":               "is a foreign-SCM bridge outside this policy",
	"quiltimport":              "is a foreign-SCM bridge outside this policy",
	"gui":                      "starts a graphical program",
	"citool":                   "starts a graphical program",
	"whatchanged":              "is deprecated in git 2.53, so a repository alias may replace it",
	"pack-redundant":           "is deprecated in git 2.53, so a repository alias may replace it",
}

// knownSubcommands maps the subcommands this policy accepts to their rules,
// built on first use. Subcommands with a nil check get the common rules
// only. It is set in init because the checks refer back to it.
var knownSubcommands func() map[string]subCheck

func init() { knownSubcommands = sync.OnceValue(buildKnownSubcommands) }

func buildKnownSubcommands() map[string]subCheck {
	plain := []string{
		"status", "add", "stage", "mv", "rm", "reset", "restore", "describe", "reflog",
		"rev-parse", "ls-files", "ls-tree", "cat-file", "merge-base", "blame", "annotate",
		"pickaxe", "show-ref", "for-each-ref", "symbolic-ref", "update-ref", "update-index",
		"write-tree", "read-tree", "commit-tree", "hash-object", "check-ignore",
		"check-attr", "check-mailmap", "check-ref-format", "count-objects", "fsck",
		"gc", "prune", "repack", "pack-refs", "verify-commit", "verify-tag", "verify-pack",
		"name-rev", "cherry", "show-branch", "clean", "stripspace", "var",
		"version", "interpret-trailers", "mktag", "mktree", "merge-tree", "merge-file",
		"sparse-checkout", "replace", "rerere", "column", "refs", "repo",
		"last-modified", "backfill", "patch-id", "mailinfo", "mailsplit",
		"get-tar-commit-id", "unpack-file", "prune-packed", "show-index",
		"multi-pack-index", "commit-graph", "unpack-objects", "update-server-info",
		"fmt-merge-msg", "replay",
	}
	known := make(map[string]subCheck, len(plain)+40)
	for _, s := range plain {
		known[s] = nil
	}
	for s := range messageShortValues {
		known[s] = messageCheck(s)
	}
	for _, s := range []string{"log", "show", "diff", "diff-tree", "diff-index",
		"diff-files", "rev-list", "shortlog", "range-diff"} {
		known[s] = checkLogFamily
	}
	known["format-patch"] = checkFormatPatch
	known["grep"] = tableCheck(&grepTable)
	known["rebase"] = tableCheck(&rebaseTable)
	known["clone"] = checkClone
	known["fetch"] = tableCheck(&fetchTable)
	known["pull"] = tableCheck(&pullTable)
	known["push"] = tableCheck(&pushTable)
	known["ls-remote"] = tableCheck(&lsRemoteTable)
	known["init"] = checkInit
	known["bundle"] = checkBundle
	known["commit"] = tableCheck(&commitTable)
	known["archive"] = checkArchive
	known["apply"] = checkApply
	known["init-db"] = checkInit
	known["config"] = checkConfig
	known["help"] = checkHelp
	known["bisect"] = checkBisect
	known["submodule"] = checkSubmodule
	known["maintenance"] = checkMaintenance
	known["send-email"] = checkSendEmail
	return known
}

// checkSubcommand applies the rules of subcommand sub, whose name is
// argv[i] (i is 0 for the dashed git-NAME form).
func checkSubcommand(sub string, argv []string, i int, g globals, allow []string) *refusal.Rejection {
	args := argv[i+1:]
	base := i + 1
	if why, ok := refusedSubcommands[sub]; ok {
		return ruleSubcommand.Reject(i, argv[i],
			"git %s %s", sub, why)
	}
	if len(args) > 0 && args[0] == "--help" {
		// git.c handle_builtin turns "git CMD --help" into "git help CMD",
		// which runs man, info or a browser.
		return ruleHelp.Reject(base, args[0],
			"%q after a subcommand opens the manual page with man, info or a browser", args[0])
	}
	chk, known := knownSubcommands()[sub]
	if !known && !slices.Contains(allow, sub) {
		return ruleUnknownSub.Reject(i, argv[i],
			"%q is not a subcommand this policy knows (it may be an alias from repository configuration); an operator can allowlist it",
			sub)
	}
	if chk == nil {
		chk = tableCheck(&optTable{})
	}
	if rej := chk(args, base, g); rej != nil {
		return rej
	}
	if rej := checkOutputWords(args, base, g); rej != nil {
		return rej
	}
	return checkRepoConfig(g, sub, known)
}

// tableCheck returns a check that parses the arguments with table t,
// refuses selected dangerous rows, ambiguous abbreviations that include one,
// unknown short letters of strict tables, and the --exec prefixes every
// subcommand refuses.
func tableCheck(t *optTable) subCheck {
	return func(args []string, base int, g globals) *refusal.Rejection {
		_, rej := parseAndCheck(args, base, t)
		return rej
	}
}

func parseAndCheck(args []string, base int, t *optTable) (parseResult, *refusal.Rejection) {
	res := parseOptions(args, base, t)
	for _, ev := range res.events {
		if rej := checkEvent(ev, t); rej != nil {
			return res, rej
		}
	}
	return res, nil
}

// checkEvent applies the table-independent option rules to one event.
func checkEvent(ev optEvent, t *optTable) *refusal.Rejection {
	if name, ok := longName(ev.arg); ok && name != "" && strings.HasPrefix("exec", name) && ev.index >= 0 {
		return ruleExternal.Reject(ev.index, ev.arg,
			"%q (a prefix of --exec) selects a remote-side program", ev.arg)
	}
	if ev.spec != nil && ev.spec.rule.Code != "" && !ev.unset {
		return ev.spec.rule.Reject(ev.index, ev.arg,
			"%q selects %s", ev.arg, describe(ev.spec))
	}
	for _, c := range ev.ambiguous {
		if c.rule.Code != "" {
			return ruleAmbiguous.Reject(ev.index, ev.arg,
				"%q is an ambiguous abbreviation that includes %s; refused conservatively",
				ev.arg, describe(c))
		}
	}
	if ev.unknown && t.strictShort && !strings.HasPrefix(ev.arg, "--") {
		return ruleUnknownShort.Reject(ev.index, ev.arg,
			"%q contains short option -%s, which this git 2.53 option table does not know; refused conservatively",
			ev.arg, ev.value)
	}
	return nil
}

// longName returns the option name of a "--name[=value]" element.
func longName(arg string) (string, bool) {
	body, ok := strings.CutPrefix(arg, "--")
	if !ok {
		return "", false
	}
	name, _, _ := strings.Cut(body, "=")
	return name, true
}

func describe(s *optSpec) string {
	switch {
	case s.long != "" && s.short != 0:
		return "-" + string(s.short) + "/--" + s.long
	case s.long != "":
		return "--" + s.long
	}
	return "-" + string(s.short)
}

// messageCheck builds the table of a subcommand from messageTable, keeping
// that subcommand's own value-taking short letters.
func messageCheck(sub string) subCheck {
	t := &optTable{}
	for _, s := range messageTable.opts {
		s.short = 0
		t.opts = append(t.opts, s)
	}
	for _, c := range []byte(messageShortValues[sub]) {
		t.opts = append(t.opts, r("", c))
	}
	return tableCheck(t)
}
