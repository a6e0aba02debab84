package server

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
)

// TestAuditRecord pins how each kind of outcome becomes its record: the
// result type and error kind, which clock the duration comes from, and
// which of the plan, the run and the refusal fill the rule and reason.
func TestAuditRecord(t *testing.T) {
	t.Parallel()
	start := time.Unix(1700000000, 0)
	const elapsed, took = 900 * time.Millisecond, 700 * time.Millisecond
	c := call{tool: "shell_execute", argv: []string{"cat", "<", "in", "|", "wc"}, envs: map[string]string{"LANG": "C"}}
	spec := &runner.Spec{Timeout: 30 * time.Second, OutputLimit: 1024}
	plan := &plan.Call{Stages: []plan.Stage{{Argv: []string{"cat"}, Rule: "allowlist.exact:cat"}, {Argv: []string{"wc"}, Rule: "allowlist.exact:wc"}}, StdinFile: "in"}
	code := 3
	exited := runner.Result{Outcome: runner.Success, ExitCode: &code, StdoutBytes: 10, StderrBytes: 2, Duration: took}
	killed := runner.Result{Outcome: runner.TimedOut, Signal: "SIGKILL", Duration: took}
	capped := runner.Result{Outcome: runner.OutputCapped, LimitStream: "stdout", Signal: "SIGTERM", StdoutBytes: 65536, StderrBytes: 1030, StdoutTruncated: true, StderrTruncated: true, Duration: took}
	rejection := refusal.New(policy.CodeNotAllowed, 0, "--token=x", "Command not allowed: --token=x")
	launch := &runner.LaunchError{Argv0: "cat", Err: errors.New("not found")}
	redirect := refusal.New("redirect.output", 2, "out", "Failed to open output file")

	// base is the record every outcome of this call shares.
	base := func(f func(*audit.Record)) audit.Record {
		r := audit.Record{
			Time: start, Duration: elapsed, Tool: c.tool, Argv: c.argv, Env: c.envs,
			Directory: "/w", Timeout: spec.Timeout, OutputLim: spec.OutputLimit, Sandbox: "limits", SandboxABI: 0,
		}
		f(&r)
		return r
	}
	planned := func(r *audit.Record) {
		r.Stages, r.Rule, r.Stdin = 2, "allowlist.exact:cat,allowlist.exact:wc", true
	}
	prepared := func(k kind) outcome {
		return outcome{kind: k, spec: spec, dir: "/w", sandbox: sandboxInfo{mode: "limits"}, start: start, elapsed: elapsed}
	}
	with := func(o outcome, f func(*outcome)) outcome { f(&o); return o }

	tests := []struct {
		name string
		c    call
		o    outcome
		want audit.Record
	}{
		{"ran, any exit status is success", c, with(prepared(ran), func(o *outcome) { o.plan, o.run = plan, exited }), base(func(r *audit.Record) {
			planned(r)
			r.ResultType, r.Duration, r.StdoutN, r.StderrN, r.StdoutRead, r.StderrRead, r.ReturnCode = audit.Success, took, 10, 2, 10, 2, &code
		})},
		{"ran into its timeout", c, with(prepared(ran), func(o *outcome) { o.plan, o.run = plan, killed }), base(func(r *audit.Record) {
			planned(r)
			r.ResultType, r.Duration, r.Signal = audit.Timeout, took, "SIGKILL"
		})},
		{"output cap: the bytes kept (the cap) and the bytes read, named apart", c, with(prepared(ran), func(o *outcome) { o.plan, o.run = plan, capped }), base(func(r *audit.Record) {
			planned(r)
			r.ResultType, r.Duration, r.Signal = audit.OutputCap, took, "SIGTERM"
			r.StdoutN, r.StdoutRead, r.StderrN, r.StderrRead = 1024, 65536, 1024, 1030
		})},
		{"refused: the code is the rule, the argument is redacted", c, with(prepared(refused), func(o *outcome) { o.err = rejection }), base(func(r *audit.Record) {
			r.ResultType, r.Rule, r.Reason, r.ReasonArg = audit.Rejected, string(policy.CodeNotAllowed), rejection.Message, "--token=x"
		})},
		{"cancelled before it started", c, with(prepared(ran), func(o *outcome) { o.plan = plan; *o = o.withNotStarted("the server is shutting down") }), base(func(r *audit.Record) {
			planned(r)
			r.ResultType, r.Reason = audit.Cancelled, "the server is shutting down"
		})},
		{"launch failure", c, with(prepared(launchFailed), func(o *outcome) {
			o.plan, o.err, o.run = plan, launch, runner.Result{Outcome: runner.ProcessError, Duration: took}
		}), base(func(r *audit.Record) {
			planned(r)
			r.ResultType, r.ErrorKind, r.Reason, r.Duration = audit.ProcessError, audit.KindLaunch, launch.Error(), took
		})},
		{"redirection failure keeps the plan's rule", c, with(prepared(launchFailed), func(o *outcome) { o.plan, o.err, o.run = plan, redirect, runner.Result{Duration: took} }), base(func(r *audit.Record) {
			planned(r)
			r.ResultType, r.ErrorKind, r.Reason, r.ReasonArg, r.Duration = audit.ProcessError, audit.KindRedirect, redirect.Message, "out", took
		})},
		{"invalid arguments: no call, no spec", call{tool: "shell_execute"}, outcome{kind: invalidArgs, err: errors.New("validating root: bad"), start: start, elapsed: elapsed},
			audit.Record{Time: start, Duration: elapsed, Tool: "shell_execute", ResultType: audit.InvalidRequest, ErrorKind: audit.KindInvalidArguments, Reason: "validating root: bad"}},
		{"protocol error without an error value", call{tool: "nope"}, outcome{kind: protocolErr, start: start, elapsed: elapsed},
			audit.Record{Time: start, Duration: elapsed, Tool: "nope", ResultType: audit.InvalidRequest, ErrorKind: audit.KindProtocol}},
		{"panic keeps what was resolved", c, with(prepared(panicked), func(o *outcome) { o.err = errors.New("internal error: boom") }), base(func(r *audit.Record) {
			r.ResultType, r.ErrorKind, r.Reason = audit.ServerError, audit.KindPanic, "internal error: boom"
		})},
		{"unencodable result", c, with(prepared(unencodable), func(o *outcome) { o.plan, o.err = plan, errors.New("marshaling") }), base(func(r *audit.Record) {
			planned(r)
			r.ResultType, r.ErrorKind, r.Reason = audit.ServerError, audit.KindInternal, "marshaling"
		})},
		{"an outcome nobody filled in is a server error", c, outcome{start: start, elapsed: elapsed},
			audit.Record{Time: start, Duration: elapsed, Tool: c.tool, Argv: c.argv, Env: c.envs, ResultType: audit.ServerError, ErrorKind: audit.KindInternal}},
	}
	for _, tt := range tests {
		if got := auditRecord(tt.c, tt.o); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}

func TestResultOfCoversEveryRunnerOutcome(t *testing.T) {
	t.Parallel()
	for o, want := range map[runner.Outcome]audit.Result{
		runner.Success: audit.Success, runner.TimedOut: audit.Timeout, runner.OutputCapped: audit.OutputCap,
		runner.Cancelled: audit.Cancelled, runner.ProcessError: audit.ProcessError, "bogus": audit.ServerError,
	} {
		if got := resultOf(o); got != want {
			t.Errorf("resultOf(%q) = %q, want %q", o, got, want)
		}
	}
}

// TestAuditByteCountsOnOutputCap, with a real
// program: the record says how much the result kept (the cap) and how
// much was read before the group was stopped.
func TestAuditByteCountsOnOutputCap(t *testing.T) {
	t.Parallel()
	o := testOptions(t, "yes")
	o.Limits.OutputLimit = 1000
	s, buf := newServer(t, o)
	cs := connect(t, s)
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"yes"}}})
	if err != nil || !r.IsError {
		t.Fatalf("yes under a 1000-byte cap: %v %v", err, r)
	}
	recs := records(t, buf)
	if len(recs) != 1 || recs[0]["result_type"] != string(audit.OutputCap) {
		t.Fatalf("audit %v", recs)
	}
	kept, read := recs[0]["stdout_bytes"].(float64), recs[0]["stdout_bytes_read"].(float64)
	if kept != 1000 || read <= kept {
		t.Errorf("stdout_bytes %v stdout_bytes_read %v: want the cap kept and more read", kept, read)
	}
}
