package argvrules

import (
	"fmt"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// Rejection is a recognizer's refusal of one argv.
//
// Rule is a stable machine-readable reason code of the form
// "<family>.<what>", for example "tar.exec-option" or "git.config-override".
// Arg is the offending argv element verbatim and Index its position in argv
// (argv[0] is 0; -1 when no single element is to blame). Message is one
// human sentence that names Arg; it starts with the reference server's
// catalogue text ("Command rejected by default security policy: ...") where
// such a text exists.
type Rejection struct {
	Rule    string
	Arg     string
	Index   int
	Message string
}

// Error returns Message, so a *Rejection can travel as an error.
func (r *Rejection) Error() string { return r.Message }

// Reject builds a Rejection whose Message is
// "Command rejected by default security policy: <policy>: <detail>", where
// detail is formatted from format and args.
func Reject(rule, policy string, index int, arg string, format string, args ...any) *Rejection {
	return &Rejection{
		Rule:    rule,
		Arg:     arg,
		Index:   index,
		Message: fmt.Sprintf("Command rejected by default security policy: %s: %s", policy, fmt.Sprintf(format, args...)),
	}
}

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

// DirPath is Dir's absolute path, or "" when Dir is nil.
func (c Context) DirPath() string {
	if c.Dir == nil {
		return ""
	}
	return c.Dir.Real()
}

// Recognizer decides one pipeline stage. argv includes argv[0] exactly as
// the client sent it (it may be a path such as /usr/bin/tar) and excludes the
// server-managed redirections. A nil result means allowed.
type Recognizer func(argv []string, ctx Context) *Rejection
