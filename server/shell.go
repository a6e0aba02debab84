package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
)

// requestError is a refusal of the call's arguments before policy: bad
// directory, NUL bytes, environment names.
type requestError struct {
	code string
	msg  string
}

func (e *requestError) Error() string { return e.msg }

// shellExecute is the shell_execute handler: arguments → policy → runner →
// result. The audit record is filled in as it goes.
func (s *Server) shellExecute(ctx context.Context, req *mcp.CallToolRequest, in ShellInput) (*mcp.CallToolResult, any, error) {
	st := stateFrom(ctx)
	rec := &st.rec
	rec.Argv, rec.Env = in.Command, in.Envs
	spec, plan, err := s.prepare(in)
	if spec != nil {
		rec.Directory, rec.Timeout, rec.OutputLim = spec.Dir, spec.Timeout, spec.OutputLimit
	}
	if err != nil {
		return s.refuse(rec, err), nil, nil
	}
	rec.Stages, rec.Rule = len(plan.Stages), strings.Join(plan.Rules, ",")
	rec.Stdin, rec.Stdout, rec.Append = plan.StdinFile != "", plan.StdoutFile != "", plan.StdoutAppend

	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	case <-ctx.Done():
		rec.ResultType, rec.Reason = "cancelled", "cancelled while waiting for a free slot"
		return errorResult("Error executing command: cancelled before it started"), nil, nil
	}
	res, runErr := runner.Run(ctx, *spec)
	rec.Duration = res.Duration
	rec.StdoutN, rec.StderrN = res.StdoutBytes, res.StderrBytes
	rec.ReturnCode, rec.Signal = res.ExitCode, res.Signal
	rec.ResultType = string(res.Outcome)
	if runErr != nil {
		rec.ResultType, rec.Reason, rec.ErrorType = string(runner.ProcessError), runErr.Error(), fmt.Sprintf("%T", runErr)
		return errorResult("Error executing command: " + runErr.Error()), nil, nil
	}
	result, out := shape(res, spec)
	return result, out, nil
}

// prepare validates the arguments and builds the runner spec. On error the
// returned spec may still carry what was resolved (for the audit record).
func (s *Server) prepare(in ShellInput) (*runner.Spec, *policy.Plan, error) {
	c := s.opts.Config
	spec := &runner.Spec{OutputLimit: c.OutputLimit, Timeout: c.DefaultTimeout}
	if in.Timeout != nil {
		spec.Timeout = min(time.Duration(*in.Timeout)*time.Second, c.MaxTimeout)
	}
	if err := checkNUL(in); err != nil {
		return spec, nil, err
	}
	dir, err := ResolveDir(in.Directory, c.AllowedDirs)
	if err != nil {
		return spec, nil, &requestError{code: "request.directory", msg: err.Error()}
	}
	spec.Dir = dir
	plan, err := s.opts.Policy.Evaluate(in.Command, dir)
	if err != nil {
		return spec, nil, err
	}
	env, err := childenv.Build(childenv.Config{Allowlist: c.ChildEnvAllowlist, SafePath: c.SafePath}, os.LookupEnv, in.Envs)
	if err != nil {
		return spec, plan, &requestError{code: "request.env", msg: err.Error()}
	}
	if s.opts.ExtraEnv != nil {
		env = append(env, s.opts.ExtraEnv(plan.Stages)...)
	}
	spec.Stages, spec.Env = plan.Stages, env
	spec.StdinFile, spec.StdoutFile, spec.StdoutAppend = plan.StdinFile, plan.StdoutFile, plan.StdoutAppend
	if in.Stdin != nil {
		spec.Stdin = []byte(*in.Stdin)
	}
	return spec, plan, nil
}

func checkNUL(in ShellInput) error {
	bad := func(what string) error {
		return &requestError{code: "request.nul", msg: what + " contains a NUL byte, which cannot be passed to a program"}
	}
	for i, a := range in.Command {
		if strings.IndexByte(a, 0) >= 0 {
			return bad(fmt.Sprintf("command[%d]", i))
		}
	}
	if in.Directory != nil && strings.IndexByte(*in.Directory, 0) >= 0 {
		return bad("directory")
	}
	for k, v := range in.Envs {
		if strings.IndexByte(k, 0) >= 0 || strings.IndexByte(v, 0) >= 0 {
			return bad("envs")
		}
	}
	return nil
}

// refuse turns a refusal into a tool error and fills the audit record.
func (s *Server) refuse(rec *audit.Record, err error) *mcp.CallToolResult {
	rec.ResultType, rec.Reason = "rejected", err.Error()
	var rj *policy.Rejection
	var re *requestError
	switch {
	case errors.As(err, &rj):
		rec.Rule, rec.ReasonArg = rj.Code, rj.Arg
	case errors.As(err, &re):
		rec.Rule = re.code
	}
	return errorResult("Error executing command: " + err.Error())
}
