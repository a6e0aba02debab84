package server

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// call is one tool call in the terms both tools share.
type call struct {
	tool    string   // the tool's name
	argv    []string // as the client sent it
	dir     *string  // nil = first allowed directory
	timeout *time.Duration
	stdin   *string
	envs    map[string]string
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
	// session is the MCP session the call came on ("" over stdio and
	// stateless HTTP): a job it starts keeps the session open.
	session string
}

// execute runs c through the request checks, the policy and the runner,
// and says what happened. It writes nothing: the middleware turns the
// outcome into the audit record. A call that became a job keeps its pinned
// directory (and its stdin file) open until the job ends.
func (s *Server) execute(ctx context.Context, c call) (o outcome) {
	spec, plan, err := s.prepare(c)
	defer func() {
		if o.kind != startedJob {
			spec.Dir.Close()
			spec.StdinFrom.Close() // nil-safe; the runner closed the child's copy
		}
	}()
	o = outcome{spec: spec, sandbox: s.sandbox(), textLimit: s.opts.Limits.TextLimit}
	if spec.Dir != nil {
		o.dir = spec.Dir.Real()
	}
	if err != nil {
		o.kind, o.err = refused, err
		return o
	}
	o.plan = plan
	stdin, err := s.prepareJob(c, spec)
	if err != nil {
		o.kind, o.err = refused, err
		return o
	}
	if c.job.Background {
		return s.startJob(c, o, stdin)
	}
	return s.run(ctx, c, o)
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
	return o
}

// sandbox is how this server confines children, for the audit record.
func (s *Server) sandbox() sandboxInfo {
	info := sandboxInfo{mode: s.opts.SandboxMode}
	if s.opts.Launcher != nil { // the effective mode: auto resolves to landlock or limits
		info.mode, info.abi = s.opts.Launcher.Mode(), s.opts.Launcher.ABI()
	}
	return info
}

// prepare validates the call and builds the runner spec. The spec is
// returned even on error, carrying what was resolved (for the audit); its
// pinned working directory, when not nil, must be closed after the run.
func (s *Server) prepare(c call) (*runner.Spec, *policy.Plan, error) {
	l := s.opts.Limits
	spec := &runner.Spec{OutputLimit: l.OutputLimit, Timeout: l.DefaultTimeout, DrainPastLimit: c.drain, Sandbox: s.opts.Launcher}
	if c.timeout != nil {
		spec.Timeout = min(*c.timeout, l.MaxTimeout)
	}
	if c.exact && strings.TrimSpace(c.argv[0]) == "" {
		return spec, nil, refusal.New(CodeProgram, 0, c.argv[0], "program is empty")
	}
	if err := checkNUL(c); err != nil {
		return spec, nil, err
	}
	dir, err := workdir.OpenAllowed(c.dir, s.opts.AllowedDirs)
	if err != nil {
		return spec, nil, err
	}
	spec.Dir = dir
	evaluate := s.opts.Policy.Evaluate
	if c.exact {
		evaluate = s.opts.Policy.EvaluateArgv
	}
	plan, err := evaluate(c.argv, dir)
	if err != nil {
		return spec, nil, err
	}
	env, err := childenv.Build(s.opts.ChildEnv, os.LookupEnv, c.envs)
	if err != nil {
		return spec, plan, refusal.New(CodeEnv, -1, "", "%s", err.Error())
	}
	if s.opts.ExtraEnv != nil {
		env = overlay(env, s.opts.ExtraEnv(plan.Stages, dir.Real()))
	}
	spec.Stages, spec.Env = plan.Stages, env
	spec.StdinFile, spec.StdoutFile, spec.StdoutAppend = plan.StdinFile, plan.StdoutFile, plan.StdoutAppend
	if c.stdin != nil {
		spec.Stdin = []byte(*c.stdin)
	}
	return spec, plan, nil
}

func checkNUL(c call) error {
	bad := func(what string) error {
		return refusal.New(CodeNUL, -1, "", "%s contains a NUL byte, which cannot be passed to a program", what)
	}
	for i, a := range c.argv {
		if strings.IndexByte(a, 0) >= 0 {
			return bad(fmt.Sprintf("argument %d", i))
		}
	}
	if c.dir != nil && strings.IndexByte(*c.dir, 0) >= 0 {
		return bad("the directory")
	}
	for k, v := range c.envs {
		if strings.IndexByte(k, 0) >= 0 || strings.IndexByte(v, 0) >= 0 {
			return bad("envs")
		}
	}
	return nil
}

// overlay returns env with extra's entries added, an extra entry replacing
// any entry of the same name: the hardening must win over a delegated
// value, and a duplicated name would leave the choice to each program's
// getenv. Empty values are kept (they are meaningful, e.g.
// GIT_PROXY_COMMAND=).
func overlay(env, extra []string) []string {
	if len(extra) == 0 {
		return env
	}
	names := make(map[string]bool, len(extra))
	for _, kv := range extra {
		name, _, _ := strings.Cut(kv, "=")
		names[name] = true
	}
	out := make([]string, 0, len(env)+len(extra))
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); !names[name] {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}
