package server

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/config"
	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// Name is the server's MCP implementation name.
const Name = "mcp-shell-server"

// Options are what a Server is built from. Config, Policy and Audit are
// required; Log may be nil (silent).
type Options struct {
	Config  *config.Config
	Policy  *policy.Policy
	Audit   *audit.Logger
	Log     *slog.Logger
	Version string
	// ExtraEnv returns environment entries added to a call's child
	// environment for the given stages (e.g. git hardening); may be nil.
	ExtraEnv func(stages [][]string) []string
	// Launcher, when not nil, starts every child through the sandbox
	// launcher (rlimits, no_new_privs, Landlock).
	Launcher *sandbox.Launcher
}

// Server is the MCP server with its tools registered.
type Server struct {
	opts Options
	sem  chan struct{}
	mcp  *mcp.Server
	// base is cancelled by Shutdown: every running call's process group is
	// then terminated. Each running call holds calls for reading, so
	// Shutdown's write lock waits for them.
	base     context.Context
	shutdown context.CancelFunc
	calls    sync.RWMutex
	// drained is closed once every call has ended after Shutdown.
	drainOnce sync.Once
	drained   chan struct{}
}

// New builds the server and registers its tools. It returns an error if a
// tool cannot be registered (a programming error caught by tests).
func New(o Options) (s *Server, err error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	s = &Server{opts: o, sem: make(chan struct{}, o.Config.MaxConcurrent)}
	s.base, s.shutdown = context.WithCancel(context.Background())
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Hardened shell command executor", Version: o.Version},
		&mcp.ServerOptions{
			Logger:       o.Log,
			Capabilities: &mcp.ServerCapabilities{},
			Instructions: "Runs allowlisted programs as argv arrays without a shell. See the shell_execute tool description for what is allowed.",
		})
	defer func() {
		// AddTool panics on schema mistakes; report them as an error.
		if r := recover(); r != nil {
			err = fmt.Errorf("server: registering tools: %v", r)
		}
	}()
	out, err := shellOutputSchema()
	if err != nil {
		return nil, fmt.Errorf("server: output schema: %w", err)
	}
	if o.Config.HasTool("shell_execute") {
		if err := s.addShellExecute(out); err != nil {
			return nil, err
		}
	}
	if o.Config.HasTool("execute_command") {
		eout, err := jsonschema.For[ExecOutput](nil)
		if err != nil {
			return nil, fmt.Errorf("server: output schema: %w", err)
		}
		err = addTool(s.mcp, &mcp.Tool{
			Name:         "execute_command",
			Title:        "Run one program",
			Description:  s.description("Execute one program with an explicit argv (program + args), without a shell; every argument is data (\"|\", \">\" and \";\" included). A non-zero exit or a timeout is a normal result."),
			InputSchema:  execInputSchema(),
			OutputSchema: eout,
			Annotations:  annotations("Run one program"),
		}, s.executeCommand)
		if err != nil {
			return nil, err
		}
	}
	s.mcp.AddReceivingMiddleware(s.auditMiddleware)
	return s, nil
}

func annotations(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{
		Title:           title,
		ReadOnlyHint:    false,
		IdempotentHint:  false,
		DestructiveHint: ptr(true),
		OpenWorldHint:   ptr(true),
	}
}

func (s *Server) addShellExecute(out *jsonschema.Schema) error {
	return addTool(s.mcp, &mcp.Tool{
		Name:         "shell_execute",
		Title:        "Run a command",
		Description:  s.description("Execute a command given as an argv array (no shell: quotes, globs, $VARS and ; mean nothing). Pipelines: [\"ls\",\"|\",\"wc\",\"-l\"]. Redirection inside the working directory: [\"sort\",\"in.txt\",\">\",\"out.txt\"]."),
		InputSchema:  shellInputSchema(),
		OutputSchema: out,
		Annotations:  annotations("Run a command"),
	}, s.shellExecute)
}

// MCP returns the go-sdk server, for transports.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Shutdown terminates every running call's process group (SIGTERM, grace,
// SIGKILL), then waits until those calls have been reaped and audited, or
// ctx is done. Calls that start afterwards are cancelled at once.
func (s *Server) Shutdown(ctx context.Context) error {
	s.shutdown()
	s.drainOnce.Do(func() {
		s.drained = make(chan struct{})
		go func() { s.calls.Lock(); close(s.drained) }()
	})
	select {
	case <-s.drained:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func ptr[T any](v T) *T { return &v }

// description is a tool's description: what it does (lead), then the
// allowlist, patterns and limits in force, sorted so it is stable.
func (s *Server) description(lead string) string {
	c := s.opts.Config
	var b strings.Builder
	b.WriteString(lead + "\n")
	fmt.Fprintf(&b, "Allowed commands: %s\n", strings.Join(c.Commands, ", "))
	if len(c.PatternSources) > 0 {
		fmt.Fprintf(&b, "Allowed patterns: %s\n", strings.Join(c.PatternSources, ", "))
	}
	fmt.Fprintf(&b, "Default timeout: %ds; maximum timeout: %ds; output cap: %d bytes\n",
		int(c.DefaultTimeout.Seconds()), int(c.MaxTimeout.Seconds()), c.OutputLimit)
	b.WriteString("Options that run other programs or write outside the working directory are refused (e.g. find -exec, sort -o, tar --to-command, git -c).")
	return b.String()
}

// callState carries one call's audit record from the handler to the
// middleware, which writes it: exactly one record per tools/call.
type callState struct {
	rec     audit.Record
	written bool
}

type callKey struct{}

func stateFrom(ctx context.Context) *callState {
	st, _ := ctx.Value(callKey{}).(*callState)
	if st == nil {
		st = &callState{}
	}
	return st
}

// auditMiddleware wraps tools/call: it recovers handler panics into tool
// errors and writes the call's audit record, also for calls the handler
// never saw (schema failures).
func (s *Server) auditMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		st := &callState{}
		st.rec.Time = time.Now()
		if ctr, ok := req.(*mcp.CallToolRequest); ok && ctr.Params != nil {
			st.rec.Tool = ctr.Params.Name
		}
		ctx = context.WithValue(ctx, callKey{}, st)
		defer func() {
			if r := recover(); r != nil {
				s.opts.Log.Error("panic in tool handler", "panic", r, "stack", string(debug.Stack()))
				st.rec.ResultType, st.rec.ErrorType = "server_error", "panic"
				st.rec.Reason = fmt.Sprint("internal error: ", r)
				res, err = errorResult("Error executing command: internal server error; the call was not completed"), nil
			}
			s.finishAudit(ctx, st, res, err)
		}()
		return next(ctx, method, req)
	}
}

func (s *Server) finishAudit(ctx context.Context, st *callState, res mcp.Result, err error) {
	if st.rec.ResultType == "" {
		st.rec.ResultType = "invalid_request"
		switch {
		case err != nil:
			st.rec.Reason, st.rec.ErrorType = err.Error(), "protocol_error"
		default:
			if ctr, ok := res.(*mcp.CallToolResult); ok && ctr.IsError {
				st.rec.Reason, st.rec.ErrorType = resultText(ctr), "invalid_arguments"
				explainInvalid(ctr)
			}
		}
	}
	if st.rec.Duration == 0 {
		st.rec.Duration = time.Since(st.rec.Time)
	}
	st.rec.Lifetime = string(lifetime.Default().Mechanism())
	s.opts.Audit.Log(ctx, st.rec)
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func resultText(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// explainInvalid rewrites the SDK's argument-validation text for the model:
// the reference's "Input validation error:" prefix, the SDK's detail kept,
// and a reminder of the expected shape.
func explainInvalid(r *mcp.CallToolResult) {
	detail := strings.TrimPrefix(resultText(r), `validating "arguments": `)
	r.Content = []mcp.Content{&mcp.TextContent{Text: "Input validation error: " + detail +
		` (expected {"command": ["program", "arg", ...]} with optional "stdin", "directory", "timeout" (integer seconds >= 1), "envs"; execute_command takes "program", "args", "cwd", "timeout_ms" (1..600000), "stdin")`}}
}
