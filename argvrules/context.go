package argvrules

import (
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
	// GitSubcommands are the extra git subcommands the operator admits
	// (MCP_SHELL_GIT_ALLOW_SUBCOMMANDS); see package git.
	GitSubcommands []string
}

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
