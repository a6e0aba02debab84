package server

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
	"github.com/seed-b63acb1b/mcp-shell-server/server/framing"
)

// Name is the server's MCP implementation name.
const Name = "mcp-shell-server"

// Options are what a Server is built from: what it needs, not the whole
// configuration (package cli maps config.Config onto it). Policy, Audit,
// positive Limits and MaxConcurrent are
// required; Log may be nil (silent).
type Options struct {
	Limits Limits
	// Tools are the tools to expose: "shell_execute", "execute_command".
	Tools []string
	// MaxConcurrent is how many calls run at once; further calls wait.
	MaxConcurrent int
	// Advertised is what the tool descriptions list; the policy decides.
	Advertised Allowlist
	// SandboxMode is the configured confinement ("off", "limits",
	// "landlock"), recorded in every audit record.
	SandboxMode string
	// Launcher, when not nil, starts every child through the sandbox
	// launcher (rlimits, no_new_privs, Landlock); Policy must then have
	// been built with its rules and temporary directories.
	Launcher *sandbox.Launcher
	// Policy decides every call (policy.Decide): its plan holds each
	// stage's program, environment and confinement.
	Policy  *policy.Policy
	Audit   *audit.Logger
	Log     *slog.Logger
	Version string
	// Lifetime is the process's lifetime mechanism (lifetime.Setup's), which
	// binds every call's processes to it and which every audit record
	// names; nil is lifetime.Default().
	Lifetime *lifetime.Manager
	// Jobs configures background jobs and retained output (background.go);
	// the zero value turns them off.
	Jobs JobOptions
	// ConfirmTimeout is how long a call the confirm tier holds waits for
	// the user's answer (confirm.go); 0 means DefaultConfirmTimeout.
	ConfirmTimeout time.Duration
}

// DefaultConfirmTimeout is how long a held call waits for the user by
// default (MCP_SHELL_CONFIRM_TIMEOUT_SECONDS): two minutes lets someone
// read the command and its sandbox facts and come back from another
// window, while a question no one is there to answer does not hold a
// concurrency slot for long.
const DefaultConfirmTimeout = 120 * time.Second

// Limits bound every call.
type Limits struct {
	// DefaultTimeout applies when a call gives none; MaxTimeout clamps
	// what a call asks for.
	DefaultTimeout, MaxTimeout time.Duration
	// OutputLimit is the cap in bytes per stream (stdout, stderr).
	OutputLimit int64
	// RedirectLimit is the cap in bytes of a ">"/">>" file; 0 means
	// OutputLimit.
	RedirectLimit int64
	// TextLimit is the bytes of each stream a shell_execute result's text
	// carries (head and tail, textlimit.go); 0 means all of it.
	TextLimit int64
}

// Allowlist is the allowlist as the operator wrote it: program names and
// pattern sources.
type Allowlist struct {
	Commands, Patterns []string
}

// Server is the MCP server with its tools registered.
type Server struct {
	opts Options
	sem  chan struct{}
	mcp  *mcp.Server
	// base is cancelled by Shutdown: every running call's process group is
	// then terminated.
	base     context.Context
	shutdown context.CancelFunc
	// gate admits calls until Shutdown, which then waits for them.
	gate gate
	// calls are the running calls, by session; carriers the HTTP
	// requests carrying them.
	calls    calls
	carriers carriers
	// bg is the retained outputs and jobs (background.go).
	bg background
	// caps are the capabilities initialize advertises (methods.go).
	caps *mcp.ServerCapabilities
	// sessions bounds the HTTP sessions (sessions.go); nil over stdio.
	sessions *sessionTable
}

// New builds the server and registers its tools. It returns an error if a
// tool cannot be registered (a programming error caught by tests).
func New(o Options) (s *Server, err error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Lifetime == nil {
		o.Lifetime = lifetime.Default()
	}
	if o.ConfirmTimeout <= 0 {
		o.ConfirmTimeout = DefaultConfirmTimeout
	}
	s = &Server{opts: o, sem: make(chan struct{}, o.MaxConcurrent)}
	self := s
	s.base, s.shutdown = context.WithCancel(context.Background())
	sopts := &mcp.ServerOptions{
		Logger: o.Log,
		// Tools set explicitly: the SDK would infer listChanged true
		// from AddTool, but the tool list is fixed at start-up.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		Instructions: instructions(o.Tools),
	}
	if err := s.openBackground(sopts); err != nil {
		return nil, err
	}
	s.caps = sopts.Capabilities
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Hardened shell command executor", Version: o.Version}, sopts)
	s.mcp.AddReceivingMiddleware(s.offeredMiddleware)
	defer func() {
		// AddTool panics on schema mistakes; report them as an error.
		if r := recover(); r != nil {
			err = fmt.Errorf("server: registering tools: %v", r)
		}
		if err != nil {
			self.closeBackground() // s is nil by now
		}
	}()
	out, err := shellOutputSchema()
	if err != nil {
		return nil, fmt.Errorf("server: output schema: %w", err)
	}
	if slices.Contains(o.Tools, "shell_execute") {
		if err := s.addShellExecute(out); err != nil {
			return nil, err
		}
	}
	if slices.Contains(o.Tools, "execute_command") {
		eout, err := jsonschema.For[ExecOutput](nil)
		if err != nil {
			return nil, fmt.Errorf("server: output schema: %w", err)
		}
		err = addTool(s, &mcp.Tool{
			Name:         "execute_command",
			Title:        "Run one program",
			Description:  s.description("Execute one program with an explicit argv (program + args), without a shell; every argument is data (\"|\", \">\" and \";\" included). A non-zero exit or a timeout is a normal result.", min(DefaultTimeoutMS*time.Millisecond, o.Limits.MaxTimeout), false),
			InputSchema:  s.withJobInputs(execInputSchema()),
			OutputSchema: eout,
			Annotations:  annotations("Run one program"),
		}, execTool)
		if err != nil {
			return nil, err
		}
	}
	if err := s.registerBackground(); err != nil {
		return nil, err
	}
	s.mcp.AddReceivingMiddleware(s.auditMiddleware, s.readAuditMiddleware, s.protocolMiddleware)
	return s, nil
}

// instructions is the server's instructions for the tools it exposes:
// it names only those.
func instructions(tools []string) string {
	const lead = "Runs allowlisted programs as argv arrays without a shell. "
	shell, exec := slices.Contains(tools, "shell_execute"), slices.Contains(tools, "execute_command")
	switch {
	case shell && exec:
		return lead + "shell_execute takes an argv with \"|\" pipelines and \"<\", \">\", \">>\" redirection; execute_command takes a program and arguments that are all literal (\";\", \"|\" and \"&&\" included). Their descriptions list what is allowed."
	case exec:
		return lead + "See the execute_command tool description for what is allowed."
	}
	return lead + "See the shell_execute tool description for what is allowed."
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
	return addTool(s, &mcp.Tool{
		Name:         "shell_execute",
		Title:        "Run a command",
		Description:  s.description("Execute a command given as an argv array (no shell: quotes, globs, $VARS and ; mean nothing). Pipelines: [\"ls\",\"|\",\"wc\",\"-l\"]. Redirection inside the working directory: [\"sort\",\"in.txt\",\">\",\"out.txt\"].", s.opts.Limits.DefaultTimeout, true),
		InputSchema:  s.withJobInputs(shellInputSchema()),
		OutputSchema: out,
		Annotations:  annotations("Run a command"),
	}, shellTool)
}

// MCP returns the go-sdk server, for transports.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Shutdown terminates every running call's process group (SIGTERM, grace,
// SIGKILL), then waits until those calls have been reaped and audited, or
// ctx is done. Calls that start afterwards are cancelled at once.
func (s *Server) Shutdown(ctx context.Context) error {
	s.gate.close()
	s.shutdown()
	drained := make(chan struct{})
	go func() { s.gate.wait(); close(drained) }()
	defer s.closeBackground() // jobs have written their end records by then
	select {
	case <-drained:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func ptr[T any](v T) *T { return &v }

// editHint says how files are changed with the allowed programs: sed -i
// for an edit in place, patch with the diff as stdin, and (where the tool
// has redirections) a ">" with the new content as stdin; "" when none of
// them is allowed.
func editHint(allowed []string, redirects bool) string {
	var ways []string
	if slices.Contains(allowed, "sed") {
		ways = append(ways, `edit in place with ["sed","-i","s/old/new/","file.txt"]`)
	}
	if slices.Contains(allowed, "patch") {
		ways = append(ways, `apply a diff with ["patch","-p1"] and the diff as stdin`)
	}
	if redirects && slices.Contains(allowed, "cat") {
		ways = append(ways, `write a whole file with ["cat",">","file.txt"] and its content as stdin`)
	}
	if len(ways) == 0 {
		return ""
	}
	return "Changing files: " + strings.Join(ways, "; ") + "."
}

// description is a tool's description: what it does (lead), then the
// allowlist (sorted, so it is stable), the patterns in the operator's
// order and the limits in force (defaultTimeout is the tool's own).
// Allowlisted names the policy refuses
// whatever the allowlist says (sh, bash, ...) are listed as refused, not
// as allowed: a client would only waste calls on them.
func (s *Server) description(lead string, defaultTimeout time.Duration, redirects bool) string {
	a, l := s.opts.Advertised, s.opts.Limits
	var allowed, refused []string
	for _, c := range slices.Sorted(slices.Values(a.Commands)) {
		if _, _, ok := policy.Refused(c); ok {
			refused = append(refused, c)
		} else {
			allowed = append(allowed, c)
		}
	}
	var b strings.Builder
	b.WriteString(lead + "\n")
	fmt.Fprintf(&b, "Allowed commands: %s\n", strings.Join(allowed, ", "))
	if len(refused) > 0 {
		fmt.Fprintf(&b, "Always refused by the security policy although listed: %s\n", strings.Join(refused, ", "))
	}
	if len(a.Patterns) > 0 {
		fmt.Fprintf(&b, "Allowed patterns: %s\n", strings.Join(a.Patterns, ", "))
	}
	if hint := editHint(allowed, redirects); hint != "" {
		b.WriteString(hint + "\n")
	}
	fmt.Fprintf(&b, "Default timeout: %ds; maximum timeout: %ds; output cap: %d bytes\n",
		int(defaultTimeout.Seconds()), int(l.MaxTimeout.Seconds()), l.OutputLimit)
	b.WriteString("Options that run other programs or write outside the working directory are refused (e.g. find -exec, sort -o, tar --to-command, git -c).")
	b.WriteString(s.jobsDescription())
	return b.String()
}

// callState carries one call from the middleware to the handler and back:
// the handler reports the call and its outcome, the middleware writes the
// record. Exactly one record per tools/call.
type callState struct {
	start time.Time
	call  call
	// ticket is the room reserved for the call's record; admitErr why
	// none could be reserved (the call is then not run).
	ticket   *audit.Ticket
	admitErr error
	// reported is set once a handler has reported an outcome; a call
	// without one never reached a handler.
	reported bool
	outcome  outcome
}

func (st *callState) report(o outcome) { st.outcome, st.reported = o, true }

type callKey struct{}

// stateFrom returns the call's state, or a throwaway one when the handler
// runs without the middleware (tests).
func stateFrom(ctx context.Context) *callState {
	st, _ := ctx.Value(callKey{}).(*callState)
	if st == nil {
		st = &callState{}
	}
	return st
}

// auditMiddleware wraps tools/call: it admits the call through the
// shutdown gate and the audit log (a call whose record has no room is
// answered without running), ties it to its session and to the HTTP
// request that carried it (ending either cancels the call), recovers
// handler panics into tool errors and writes the call's audit record, also
// for calls no handler saw (protocol errors). It rewrites a handler's
// result in one case only: a record that could not be written is reported
// in it.
func (s *Server) auditMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		st := &callState{start: time.Now(), call: call{tool: toolName(req)}}
		if s.gate.enter() {
			defer s.gate.leave() // after the record below is written
		}
		st.ticket, st.admitErr = s.opts.Audit.Admit()
		ctx, lc := s.calls.start(ctx, sessionID(req))
		defer s.calls.end(lc)
		car, viaHTTP := s.carriers.of(req)
		switch {
		case viaHTTP && car == nil: // the POST is already gone
			lc.cancel(errDisconnected)
		case viaHTTP:
			defer context.AfterFunc(car.ctx, func() { lc.cancel(errDisconnected) })()
			ctx = framing.WithDeferrals(ctx, car.deferred)
		}
		ctx = context.WithValue(ctx, callKey{}, st)
		defer func() {
			if r := recover(); r != nil {
				res, err = s.recovered(st, r), nil
			}
			res = s.writeAudit(ctx, st, res, err)
			if car != nil && car.single && clientCancelled(ctx) {
				car.drop.Store(true) // MCP: no response to a cancelled request
			}
		}()
		return next(ctx, method, req)
	}
}

func toolName(req mcp.Request) string {
	if ctr, ok := req.(*mcp.CallToolRequest); ok && ctr.Params != nil {
		return ctr.Params.Name
	}
	return ""
}

// recovered turns a handler panic into the outcome and the client's
// result; the panic value goes to the diagnostic log, not to the client.
func (s *Server) recovered(st *callState, r any) *mcp.CallToolResult {
	s.opts.Log.Error("panic in tool handler", "panic", r, "stack", string(debug.Stack()))
	// Keep what the handler resolved before it panicked.
	st.report(st.outcome.with(panicked, fmt.Errorf("internal error: %v", r)))
	return errorResult("Error executing command: internal server error; the call was not completed")
}

// writeAudit writes st's record and returns the client's result: res, or,
// when the record of a call that ran could not be written, res with a
// note saying so. A call no handler reported on was answered by the SDK
// itself: err is its protocol error.
func (s *Server) writeAudit(ctx context.Context, st *callState, res mcp.Result, err error) mcp.Result {
	o := st.outcome
	if !st.reported {
		o = outcome{kind: protocolErr, err: err}
	}
	o.start, o.elapsed = st.start, time.Since(st.start)
	o.lifetime = s.opts.Lifetime.Mechanism()
	rec := auditRecord(st.call, o)
	if st.ticket == nil {
		if st.admitErr != nil {
			// Best effort: the log is failing or full, so this record
			// most likely joins the dropped count of the next one written.
			s.opts.Audit.Log(ctx, rec)
		}
		return res
	}
	werr := st.ticket.Log(ctx, rec)
	if werr == nil {
		return res
	}
	s.opts.Log.Error("the audit record of a call that ran could not be written", "tool", st.call.tool, "err", werr)
	if r, ok := res.(*mcp.CallToolResult); ok && r != nil {
		r.Content = append(r.Content, &mcp.TextContent{Text: "Warning: the server could not write this call's audit record; further calls are refused until it can."})
	}
	return res
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}
