package argvrules

import (
	"path/filepath"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/internal/fsview"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// Rejection is a recognizer's refusal of one argv: the refusal type every
// layer shares. Its Code is "<family>.<what>" (codes.go), Arg the
// offending argv element verbatim and Index its position in the stage's
// argv (-1 when no single element is to blame); Message starts with the
// reference server's catalogue text ("Command rejected by default security
// policy: ...").
type Rejection = refusal.Rejection

// Context is what a recognizer may know of the call besides argv.
type Context struct {
	// Dir is the call's pinned working directory; every output path is
	// probed through it. Nil when no call is in view (fuzzing, `check`
	// without a directory): output paths then get the lexical rules only.
	Dir *workdir.Dir
	// ReadTrees are the directories outside Dir (absolute,
	// symlink-resolved) whose files the stage may read: the allowed
	// directories its sandbox lets it read. A recognizer may look at a
	// file there to judge the call (git reads the repository a working
	// directory below it belongs to); about a file anywhere else it
	// learns nothing, so no verdict reveals what the sandbox hides. Nil:
	// only Dir.
	ReadTrees []string
	// Readable reports whether the stage may read an absolute path
	// outside Dir and ReadTrees (its Landlock Read and Write trees; every
	// path when no sandbox confines it). Nil: none.
	Readable func(path string) bool
	// GitSubcommands are the extra git subcommands the operator admits
	// (MCP_SHELL_GIT_ALLOW_SUBCOMMANDS); see package git.
	GitSubcommands []string
	// Program is where argv[0] resolves through the child PATH, and the
	// symlink chain to the file that runs; zero when it was not resolved
	// (fuzzing, `check` on a machine without the program). It picks the
	// family when argv[0]'s name belongs to none and the dialect where a
	// family has several (awk: gawk, mawk, BusyBox).
	Program Program
	// Env looks a variable up in the stage's environment: the one the
	// child receives (HOME, KUBECONFIG, POSIXLY_CORRECT ...). Nil means
	// an empty environment.
	Env func(name string) (string, bool)
	// Refused reports whether a program name is on the policy's categorical
	// refusal list (make variable values, npm script shells). Nil refuses
	// nothing.
	Refused func(name string) bool
	// Judges are the families whose recognizers judge the stage, as the
	// policy selected them (Select); nil selects them from argv[0] and
	// Program.
	Judges []*Family
	// Dialect is the implementation a family with several reads argv as
	// (Family.Dialect, as the policy selected it); "" selects it from
	// argv[0] and Program.
	Dialect string
	// Outputs, when not nil, collects every path an option names for
	// writing that the containment check accepted (relative to Dir, as the
	// program resolves it): the plan's output paths.
	Outputs *[]string
	// MoreOperands says words the policy cannot see follow argv (an xargs
	// wraps the stage and appends words from standard input, or puts them
	// in place of its -I string): a family must judge the argv as if any
	// words at all followed. Only the wrapper families answer for that;
	// every other family's stage is refused (Check).
	MoreOperands bool

	// base is the directory, relative to Dir, that the program changes
	// into before it writes (go -C DIR): outputPath resolves relative
	// output paths below it.
	base string
}

// below returns ctx with relative output paths resolved below dir, itself
// relative to the current base.
func (c Context) below(dir string) Context {
	if c.base != "" {
		dir = c.base + "/" + dir
	}
	c.base = dir
	return c
}

// Program is a resolved argv[0].
type Program struct {
	// Path is the file found through the child PATH (absolute).
	Path string
	// Links are the symlink chain after Path, each absolute; the last is
	// the file that runs.
	Links []string
}

// names returns the basenames along the chain, the file that runs last.
func (p Program) names() []string {
	var out []string
	if p.Path != "" {
		out = append(out, filepath.Base(p.Path))
	}
	for _, l := range p.Links {
		out = append(out, filepath.Base(l))
	}
	return out
}

// view is what the recognizer may look at (package fsview).
func (c Context) view() fsview.View {
	return fsview.View{Dir: c.Dir, Trees: c.ReadTrees, Readable: c.Readable}
}

// getenv is ctx.Env or nothing.
func (c Context) getenv(name string) (string, bool) {
	if c.Env == nil {
		return "", false
	}
	return c.Env(name)
}

// refused is ctx.Refused or false.
func (c Context) refused(name string) bool { return c.Refused != nil && c.Refused(name) }

// dirPath is Dir's absolute path, or "" when Dir is nil.
func (c Context) dirPath() string {
	if c.Dir == nil {
		return ""
	}
	return c.Dir.Real()
}

// Recognizer decides one pipeline stage. argv includes argv[0] exactly as
// the client sent it (it may be a path such as /usr/bin/tar) and excludes the
// server-managed redirections. A nil result means allowed.
type Recognizer func(argv []string, ctx Context) *Rejection
