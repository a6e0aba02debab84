package server

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// killGrace is the pause between SIGTERM and SIGKILL to a call's process
// group. It is short so that a cancelled call's processes are gone within
// about 200 ms even when they ignore SIGTERM, yet long enough for git or a
// compiler to remove lock and temporary files.
const killGrace = 150 * time.Millisecond

// call is one tool call in the terms both tools share.
type call struct {
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
}

// launchError is a run that could not start (or whose redirection could
// not be opened); it wraps the runner's error.
type launchError struct{ err error }

func (e *launchError) Error() string { return e.err.Error() }
func (e *launchError) Unwrap() error { return e.err }

// execute runs c through policy and runner, filling rec as it goes. It
// returns a refusal (*refusal.Rejection), a *launchError,
// or the run's result.
func (s *Server) execute(ctx context.Context, c call, rec *audit.Record) (runner.Result, *runner.Spec, error) {
	rec.Argv, rec.Env = c.argv, c.envs
	spec, plan, err := s.prepare(c)
	defer spec.Dir.Close()
	rec.Timeout, rec.OutputLim = spec.Timeout, spec.OutputLimit
	if spec.Dir != nil {
		rec.Directory = spec.Dir.Real()
	}
	rec.Sandbox, rec.SandboxABI = s.opts.Config.SandboxMode, 0
	if s.opts.Launcher != nil { // the effective mode: auto resolves to landlock or limits
		rec.Sandbox, rec.SandboxABI = s.opts.Launcher.Mode(), s.opts.Launcher.ABI()
	}
	if err != nil {
		s.refused(rec, err)
		return runner.Result{}, spec, err
	}
	rec.Stages, rec.Rule = len(plan.Stages), strings.Join(plan.Rules, ",")
	rec.Stdin, rec.Stdout, rec.Append = plan.StdinFile != "", plan.StdoutFile != "", plan.StdoutAppend
	// After Shutdown has begun, refuse at once rather than queue behind it.
	if !s.calls.TryRLock() {
		rec.ResultType, rec.Reason = string(runner.Cancelled), "the server is shutting down"
		return runner.Result{Outcome: runner.Cancelled}, spec, nil
	}
	defer s.calls.RUnlock()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	defer context.AfterFunc(s.base, stop)()
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	case <-ctx.Done():
		rec.ResultType, rec.Reason = string(runner.Cancelled), "cancelled while waiting for a free slot"
		return runner.Result{Outcome: runner.Cancelled}, spec, nil
	}
	spec.Progress = &runner.Progress{}
	stopProgress := c.progress.start(ctx, spec.Progress, spec.Timeout)
	res, runErr := runner.Run(ctx, *spec)
	stopProgress()
	rec.Duration = res.Duration
	rec.StdoutN, rec.StderrN = res.StdoutBytes, res.StderrBytes
	rec.ReturnCode, rec.Signal = res.ExitCode, res.Signal
	rec.ResultType = string(res.Outcome)
	if runErr != nil {
		rec.ResultType, rec.Reason, rec.ErrorType = string(runner.ProcessError), runErr.Error(), fmt.Sprintf("%T", runErr)
		return res, spec, &launchError{runErr}
	}
	return res, spec, nil
}

// prepare validates the call and builds the runner spec. The spec is
// returned even on error, carrying what was resolved (for the audit); its
// pinned working directory, when not nil, must be closed after the run.
func (s *Server) prepare(c call) (*runner.Spec, *policy.Plan, error) {
	cfg := s.opts.Config
	spec := &runner.Spec{OutputLimit: cfg.OutputLimit, Timeout: cfg.DefaultTimeout, DrainPastLimit: c.drain, KillGrace: killGrace, Sandbox: s.opts.Launcher}
	if c.timeout != nil {
		spec.Timeout = min(*c.timeout, cfg.MaxTimeout)
	}
	if err := checkNUL(c); err != nil {
		return spec, nil, err
	}
	dir, err := workdir.OpenAllowed(c.dir, cfg.AllowedDirs)
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
	env, err := childenv.Build(childenv.Config{Allowlist: cfg.ChildEnvAllowlist, SafePath: cfg.SafePath}, os.LookupEnv, c.envs)
	if err != nil {
		return spec, plan, refusal.New(CodeEnv, -1, "", "%s", err.Error())
	}
	if s.opts.ExtraEnv != nil {
		env = overlay(env, s.opts.ExtraEnv(plan.Stages))
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

// refused records a refusal in the audit record.
func (s *Server) refused(rec *audit.Record, err error) {
	rec.ResultType, rec.Reason = "rejected", err.Error()
	if rj := refusal.As(err); rj != nil {
		rec.Rule, rec.ReasonArg = string(rj.Code), rj.Arg
	}
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
