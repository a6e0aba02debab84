package server

import (
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// shellTool is shell_execute (the reference server's tool): argv with
// pipelines and redirections, text compatible with the reference, and
// ShellOutput as structured content.
var shellTool = tool[ShellInput]{
	call: func(req *mcp.CallToolRequest, in ShellInput) call {
		c := call{argv: in.Command, dir: in.Directory, stdin: in.Stdin, envs: in.Envs, progress: newReporter(req), job: in.JobInput}
		c.discardStderr = in.CaptureStderr != nil && !*in.CaptureStderr
		if in.MaxOutputSize != nil {
			c.outputLimit = *in.MaxOutputSize
		}
		if in.SessionID != nil {
			c.label = *in.SessionID
		}
		if in.Timeout != nil {
			d := time.Duration(min(*in.Timeout, 1<<30)) * time.Second
			c.timeout = &d
		}
		return c
	},
	result: func(o outcome) (*mcp.CallToolResult, any) {
		res, out := shape(o.run, o.spec, o.view())
		return withHint(res, sandbox.Hint(o.denied, o.readDirs)), out
	},
}

// withHint puts hint on the line after an error result's headline.
func withHint(res *mcp.CallToolResult, hint string) *mcp.CallToolResult {
	if hint == "" || !res.IsError || len(res.Content) == 0 {
		return res
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		head, rest, more := strings.Cut(tc.Text, "\n")
		tc.Text = head + "\n" + hint
		if more {
			tc.Text += "\n" + rest
		}
	}
	return res
}
