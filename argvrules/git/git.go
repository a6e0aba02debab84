package git

import (
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// Check judges one git stage. argv[0] is "git" or a path to it; a
// basename "git-NAME" is the dashed form of subcommand NAME (git.c
// cmd_main), which takes no global options. Output paths are probed under
// dir (nil: lexical rules only). allow lists subcommand names (aliases
// defined in repository configuration, or subcommands this package does
// not model) that are accepted although unknown; they still get the rules
// every subcommand gets (remote-helper URLs, --exec prefixes, the man-page
// --help form), and names refused categorically (filter-branch, daemon,
// ...) cannot be admitted. The server wires allow from
// MCP_SHELL_GIT_ALLOW_SUBCOMMANDS.
func Check(argv []string, dir *workdir.Dir, allow []string) *refusal.Rejection {
	return check(argv, globals{dir: dir}, allow)
}

// Call is what CheckCall knows of the call besides argv.
type Call struct {
	// Dir is the call's pinned working directory (nil: lexical rules only).
	Dir *workdir.Dir
	// Allow are the operator's extra subcommands (see Check).
	Allow []string
	// Trees are the directories outside Dir (absolute, symlink-resolved)
	// whose files the stage may read: a repository git would use there is
	// read to judge the call; one anywhere else is refused unread.
	Trees []string
	// Env looks a variable up in the stage's environment (GIT_DIR,
	// GIT_WORK_TREE, GIT_COMMON_DIR); nil is an empty one.
	Env func(name string) (string, bool)
}

// CheckCall is Check with the rest of the call in view: the repository
// git would use is found the way git finds it from the stage's directory,
// options and environment.
func CheckCall(argv []string, c Call) *refusal.Rejection {
	return check(argv, globals{dir: c.Dir, trees: c.Trees, env: c.Env}, c.Allow)
}

// globals is what the global options said that subcommand rules need.
type globals struct {
	// cdirs are the -C values in order: git chdirs into each while parsing
	// (git.c handle_options), so an output path is relative to all of them.
	cdirs []string
	// gitDirs and workTrees are the --git-dir and --work-tree values; they
	// are resolved after the -C values, and commands that need a work tree
	// chdir into it (setup_work_tree) before opening an output file.
	gitDirs, workTrees []string
	// gitDir is the last --git-dir value; bare is set by --bare.
	gitDir string
	bare   bool
	any    bool         // at least one global option preceded the subcommand
	dir    *workdir.Dir // the call's working directory (nil: unknown)
	// order are the -C, --git-dir and --work-tree values as given.
	order []dirOption
	// trees and env are Call's Trees and Env.
	trees []string
	env   func(string) (string, bool)
}

// dirOption is one -C, --git-dir or --work-tree value and its argv index.
type dirOption struct {
	opt, val string
	index    int
}

// addDir records the value of a directory-selecting global option at
// argv index i.
func (g *globals) addDir(opt, val string, i int) {
	if opt == "-C" || opt == "--git-dir" || opt == "--work-tree" {
		g.order = append(g.order, dirOption{opt, val, i})
	}
	switch opt {
	case "-C":
		g.cdirs = append(g.cdirs, val)
	case "--git-dir":
		g.gitDirs, g.gitDir = append(g.gitDirs, val), val
	case "--work-tree":
		g.workTrees = append(g.workTrees, val)
	}
}

func check(argv []string, g0 globals, allow []string) *refusal.Rejection {
	if len(argv) == 0 {
		return nil
	}
	for i, a := range argv {
		if strings.IndexByte(a, 0) >= 0 || !utf8.ValidString(a) {
			return ruleBadInput.Reject(i, a,
				"argument %d contains a NUL byte or invalid UTF-8", i)
		}
	}
	for i := 1; i < len(argv); i++ {
		if isRemoteHelperURL(argv[i]) {
			return ruleRemoteHelper.Reject(i, argv[i],
				"%q names the ext:: or fd:: remote helper, which runs a program", argv[i])
		}
	}
	base := filepath.Base(strings.ReplaceAll(argv[0], `\`, "/"))
	base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	if sub, ok := strings.CutPrefix(base, "git-"); ok && sub != "" {
		return checkSubcommand(sub, argv, 0, g0, allow)
	}
	g, i, rej := parseGlobals(argv)
	if rej != nil || i < 0 {
		return rej
	}
	g.dir, g.trees, g.env = g0.dir, g0.trees, g0.env
	if i >= len(argv) {
		return nil // bare "git" prints usage
	}
	sub := argv[i]
	switch sub {
	case "--version", "-v":
		sub = "version"
	case "--help", "-h":
		sub = "help"
	}
	return checkSubcommand(sub, argv, i, g, allow)
}

// parseGlobals walks git.c handle_options (git 2.53 ∪ 2.39). It returns the
// index of the subcommand, or -1 when a global option makes git print
// something and exit before any subcommand runs.
func parseGlobals(argv []string) (globals, int, *refusal.Rejection) {
	var g globals
	i := 1
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == "" || a[0] != '-' {
			break
		}
		switch a {
		case "--help", "-h", "--version", "-v":
			return g, i, nil
		case "--exec-path", "--html-path", "--man-path", "--info-path":
			return g, -1, nil // prints a path and exits
		case "-p", "--paginate":
			return g, i, rulePager.Reject(i, a,
				"%s starts a pager, a program chosen by configuration and environment", a)
		case "--bare":
			g.any, g.bare = true, true
			continue
		case "-P", "--no-pager", "--no-lazy-fetch", "--no-replace-objects",
			"--literal-pathspecs", "--no-literal-pathspecs", "--glob-pathspecs",
			"--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "--no-advice":
			g.any = true
			continue
		case "-c", "--config-env":
			return g, i, ruleConfigOverride.Reject(i, a,
				"%s overrides configuration for this command; every override is refused", a)
		case "-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
			"--attr-source", "--shallow-file":
			g.any = true
			if i+1 >= len(argv) {
				return g, -1, nil // usage error
			}
			i++
			g.addDir(a, argv[i], i)
			continue
		}
		if strings.HasPrefix(a, "-c") || strings.HasPrefix(a, "--config-env=") {
			return g, i, ruleConfigOverride.Reject(i, a,
				"%q overrides configuration for this command; every override is refused", a)
		}
		if strings.HasPrefix(a, "--exec-path") {
			return g, i, ruleExecPath.Reject(i, a,
				"%q makes git run subcommands from another directory", a)
		}
		if strings.HasPrefix(a, "--list-cmds=") {
			return g, -1, nil // lists command names and exits
		}
		if name, val, ok := strings.Cut(a, "="); ok {
			switch name {
			case "--git-dir", "--work-tree":
				g.addDir(name, val, i)
				g.any = true
				if name == "--git-dir" {
					g.gitDir = val
				}
				continue
			case "--namespace", "--super-prefix", "--attr-source":
				g.any = true
				continue
			}
		}
		return g, i, ruleGlobalOption.Reject(i, a,
			"%q is not a git 2.53 global option this policy knows", a)
	}
	return g, i, nil
}

// isRemoteHelperURL reports whether s, or the value after an "=" in s,
// starts with the ext:: or fd:: transport (case-insensitively, as a
// conservative reading of transport.c's helper selection).
func isRemoteHelperURL(s string) bool {
	l := strings.ToLower(s)
	if strings.HasPrefix(l, "ext::") || strings.HasPrefix(l, "fd::") {
		return true
	}
	return strings.Contains(l, "=ext::") || strings.Contains(l, "=fd::")
}

// SubcommandIndex is the index in argv of the subcommand git runs, after
// git.c handle_options' global options (-C, -c, --git-dir, -P ...), or
// -1 when it runs none or argv is the dashed git-NAME form.
func SubcommandIndex(argv []string) int {
	if len(argv) == 0 {
		return -1
	}
	_, i, rej := parseGlobals(argv)
	if rej != nil || i < 1 || i >= len(argv) || strings.HasPrefix(argv[i], "-") {
		return -1
	}
	return i
}

// Subcommand returns the subcommand argv runs, read as check reads it
// (the dashed git-NAME form, then git.c handle_options' global options),
// or "" when git runs none (bare git, --exec-path and the like, a parse
// error).
func Subcommand(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	base := filepath.Base(strings.ReplaceAll(argv[0], `\`, "/"))
	base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	if sub, ok := strings.CutPrefix(base, "git-"); ok && sub != "" {
		return sub
	}
	_, i, rej := parseGlobals(argv)
	if rej != nil || i < 0 || i >= len(argv) || strings.HasPrefix(argv[i], "-") {
		return ""
	}
	return argv[i]
}
