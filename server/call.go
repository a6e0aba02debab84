package server

import (
	"context"
	"slices"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/outputs"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// call is one tool call in the terms both tools share.
type call struct {
	tool    string   // the tool's name
	argv    []string // as the client sent it
	dir     *string  // nil = first allowed directory
	timeout *time.Duration
	// defaultTimeout is the tool's default when timeout is nil (0: the
	// server's, Limits.DefaultTimeout); a job's is the job maximum.
	defaultTimeout time.Duration
	stdin          *string
	envs           map[string]string
	// exact makes every argv element data (execute_command): no pipeline,
	// no redirection.
	exact bool
	// drain keeps reading past the output cap instead of stopping.
	drain bool
	// progress reports while the command runs; nil when the client asked
	// for none.
	progress *reporter
	// job is what the call asks of jobs and retained output (jobcall.go).
	job JobInput
	// protocol is the revision the call's session speaks (protocolOf):
	// what its answer may contain.
	protocol string
	// session is the MCP session the call came on ("" over stdio and
	// stateless HTTP): a job it starts keeps the session open.
	session string
	// discardStderr, outputLimit (0: the server's cap; never above it) and
	// label are shell_execute's capture_stderr, max_output_size and
	// session_id.
	discardStderr bool
	outputLimit   int64
	label         string
	// asker is the session that can ask the user about a call the
	// confirm tier holds (confirm.go); nil when there is none.
	asker asker
}

// execute runs c through the policy's decision (policy.Decide, the one
// path from a request to a verdict, which `check` takes too) and the
// runner, and says what happened. It writes nothing: the middleware turns
// the outcome into the audit record. A call that became a job keeps its
// plan (pinned directory, temporary directory) and its stdin file open
// until the job ends.
func (s *Server) execute(ctx context.Context, c call) (o outcome) {
	pl, err := s.opts.Policy.Decide(c.request())
	spec := s.spec(c, pl)
	defer func() {
		if o.kind != startedJob {
			pl.Close()
			spec.StdinFrom.Close() // nil-safe; the runner closed the child's copy
		}
	}()
	o = outcome{spec: spec, sandbox: s.sandbox(), textLimit: s.opts.Limits.TextLimit, keep: s.keepHint()}
	if pl != nil {
		o.dir = pl.Dir.Real()
	}
	if err != nil {
		o.kind, o.err = refused, err
		return o
	}
	o.plan = pl
	stdin, err := s.prepareJob(c, spec)
	if err != nil {
		o.kind, o.err = refused, err
		return o
	}
	if c.job.Background || c.job.Detached {
		var ok bool
		if o, ok = s.confirmJob(ctx, c, o); !ok {
			stdin.Close()
			return o
		}
		return s.startJob(c, o, stdin)
	}
	return s.run(ctx, c, o)
}

// request is what the policy is asked to decide.
func (c call) request() policy.Request {
	return policy.Request{Argv: c.argv, Exact: c.exact, Dir: c.dir, Envs: c.envs}
}

// run starts o's approved spec once a slot is free and waits for it.
func (s *Server) run(ctx context.Context, c call, o outcome) outcome {
	// After Shutdown has begun, refuse at once rather than queue behind it.
	if s.gate.closing() {
		return o.withNotStarted("the server is shutting down")
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	defer context.AfterFunc(s.base, func() { stop(errShutdown) })()
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	case <-ctx.Done():
		return o.withNotStarted("cancelled while waiting for a free slot: " + cancelReason(ctx))
	}
	var ok bool
	if o, ok = s.confirm(ctx, c, o); !ok {
		return o
	}
	o.spec.Progress = &runner.Progress{}
	stopProgress := c.progress.start(ctx, o.spec.Progress, o.spec.Timeout)
	o = s.runForeground(ctx, c, o)
	stopProgress()
	if o.kind == startedJob {
		return o // handed off after the adaptive delay
	}
	o.kind = ran
	if o.err != nil {
		o.kind = launchFailed
	}
	if o.run.Outcome == runner.Cancelled {
		o.reason = cancelReason(ctx)
	}
	o.readDirs = s.readDirs()
	o.denied = denials(o)
	return o
}

// denials are what the sandbox denied a call that ran confined and
// failed, read from its stderr (sandbox.GuessCallDenials).
func denials(o outcome) []sandbox.Denial { return denialsIn(o, o.run.Stderr) }

// denialsIn are the denials of a failed confined call read from stderr,
// the stream as captured or, for a job, as retained.
// A stage that exited 127 may be a program the loader could not load.
func denialsIn(o outcome, stderr []byte) []sandbox.Denial {
	if o.kind != ran || !pipelineStatus(o.run).failed || !sandbox.Confined(o.plan) {
		return nil
	}
	ds := sandbox.GuessCallDenials(o.plan, stderr)
	if exited127(o.run) {
		for _, d := range sandbox.LibraryDenials(o.readDirs, stderr) {
			if len(ds) < sandbox.MaxDenials && !slices.Contains(ds, d) {
				ds = append(ds, d)
			}
		}
	}
	// The registry's and git's denials are read from their own
	// messages, not guessed from any line: they keep their place when
	// the guesses fill the cap, and the call reports at most MaxDenials.
	failed := stageFailed(o.run)
	known := append(sandbox.CredentialDenials(o.plan, failed, stderr), sandbox.SigningDenials(o.plan, failed, stderr)...)
	known = known[:min(len(known), sandbox.MaxDenials)]
	ds = ds[:min(len(ds), sandbox.MaxDenials-len(known))]
	return append(ds, known...)
}

// hintBytes is how much of a job's retained stderr is read for the
// denials it reports: the programs say so near their start.
const hintBytes = 64 << 10

// stderrHead is the start of an output's retained stderr.
func stderrHead(out *outputs.Output) []byte {
	if out == nil {
		return nil
	}
	c, err := out.Read(1, 0, hintBytes)
	if err != nil {
		return nil
	}
	return c.Data
}

// exited127 reports whether a stage of res exited 127: the status
// glibc's and musl's dynamic loader exit with when a library will not
// load (and a shell's for a program it cannot find).
func exited127(res runner.Result) bool {
	if ec := res.ExitCode; ec != nil && *ec == 127 {
		return true
	}
	for _, st := range res.Stages {
		if st.ExitCode != nil && *st.ExitCode == 127 {
			return true
		}
	}
	return false
}

// readDirs are the trees confined stages read, for the hints that widen
// them (MCP_SHELL_SANDBOX_READ_DIRS replaces the list, so a hint gives
// all of it).
func (s *Server) readDirs() []string {
	if s.opts.Launcher == nil {
		return sandbox.DefaultReadDirs
	}
	return s.opts.Launcher.ReadDirs()
}

// sandbox is how this server confines children, for the audit record.
func (s *Server) sandbox() sandboxInfo {
	info := sandboxInfo{mode: s.opts.SandboxMode}
	if s.opts.Launcher != nil { // the effective mode: auto resolves to landlock or limits
		info.mode, info.abi = s.opts.Launcher.Mode(), s.opts.Launcher.ABI()
	}
	return info
}

// spec is how the runner runs pl for c: the limits and the timeout (also
// for a refused call, whose record names them) and the stdin.
func (s *Server) spec(c call, pl *plan.Call) *runner.Spec {
	l := s.opts.Limits
	spec := &runner.Spec{Plan: pl, OutputLimit: l.OutputLimit, FileLimit: l.RedirectLimit, Timeout: l.DefaultTimeout, DrainPastLimit: c.drain, Sandbox: s.opts.Launcher, Lifetime: s.opts.Lifetime}
	if c.defaultTimeout > 0 {
		spec.Timeout = min(c.defaultTimeout, l.MaxTimeout)
	}
	if c.timeout != nil {
		spec.Timeout = min(*c.timeout, l.MaxTimeout)
	} else if coldCache(pl) != "" {
		// The first build into an empty cache: a call that asked for no
		// timeout gets the most it could have asked for.
		spec.Timeout = max(spec.Timeout, l.MaxTimeout)
	}
	if c.stdin != nil {
		spec.Stdin = []byte(*c.stdin)
	}
	if c.outputLimit > 0 {
		spec.OutputLimit = min(c.outputLimit, l.OutputLimit)
	}
	spec.DiscardStderr = c.discardStderr
	return spec
}

// stageFailed says whether stage i of res ended other than with status 0
// (a stage without a status, not started or not waited for, counts as
// failed).
func stageFailed(res runner.Result) func(int) bool {
	return func(i int) bool {
		if i >= len(res.Stages) {
			return true
		}
		ec := res.Stages[i].ExitCode
		return ec == nil || *ec != 0
	}
}
