package server

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// shellExecute is the shell_execute handler (the reference server's tool):
// argv with pipelines and redirections, text compatible with the
// reference, and ShellOutput as structured content.
func (s *Server) shellExecute(ctx context.Context, req *mcp.CallToolRequest, in ShellInput) (*mcp.CallToolResult, any, error) {
	c := call{argv: in.Command, dir: in.Directory, stdin: in.Stdin, envs: in.Envs, progress: newReporter(req)}
	if in.Timeout != nil {
		d := time.Duration(min(*in.Timeout, 1<<30)) * time.Second
		c.timeout = &d
	}
	res, spec, err := s.execute(ctx, c, &stateFrom(ctx).rec)
	if err != nil {
		return errorResult("Error executing command: " + err.Error()), nil, nil
	}
	result, out := shape(res, spec)
	return result, out, nil
}
