package server

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
	"github.com/seed-b63acb1b/mcp-shell-server/outputs"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// kind is which way a call ended. The zero kind is no outcome at all, so
// an outcome nobody filled in cannot pass for a run.
type kind int

const (
	// ran: the pipeline started; outcome.run says how it ended.
	ran kind = iota + 1
	// refused: a request check or the policy refused the call before
	// anything started; err is a *refusal.Rejection.
	refused
	// notStarted: the call was cancelled before it started (the server is
	// shutting down, or the client cancelled while it waited for a slot);
	// reason says which.
	notStarted
	// launchFailed: the pipeline could not start; err is the runner's
	// (*runner.LaunchError, or a *refusal.Rejection from opening a
	// redirection).
	launchFailed
	// invalidArgs: the arguments failed the tool's input schema; err is
	// the validation error.
	invalidArgs
	// protocolErr: the SDK answered without running a tool handler; err is
	// its error.
	protocolErr
	// panicked: a tool handler panicked; err carries the panic value.
	panicked
	// unencodable: the structured result could not be marshalled.
	unencodable
	// auditRefused: the call was not run because its audit record had no
	// room (the log failed or is not keeping up); err says why.
	auditRefused
	// startedJob: the call became a background job (background: true, or
	// the adaptive hand-off); job says which. Its end is a separate record.
	startedJob
	// answered: a job or retained-output tool (read_output, job_status,
	// ...) or a resource read answered; job or read says about what.
	answered
)

// outcome is what happened to one call, as the handler saw it, plus the
// timings the middleware adds. The client's result and the audit record
// are both derived from it.
type outcome struct {
	kind kind
	err  error
	// reason says why a notStarted call did not start.
	reason string
	// spec is what prepare resolved (limits, timeout), also when it then
	// refused; nil when the call never reached prepare.
	spec *runner.Spec
	// dir is the pinned working directory, or "" when none was opened.
	dir string
	// plan is the policy's approval; nil unless the policy approved.
	plan *plan.Call
	// run is the runner's result (ran, launchFailed; a Cancelled result
	// for notStarted).
	run     runner.Result
	sandbox sandboxInfo
	// lifetime is the mechanism that binds the call's processes.
	lifetime lifetime.Mechanism
	// raw are the arguments as sent, kept only when they could not be
	// decoded (invalidArgs), so the record can redact the reason quoting
	// them.
	raw json.RawMessage
	// start is when the middleware saw the request, elapsed how long the
	// handler took.
	start   time.Time
	elapsed time.Duration
	// textLimit is the bytes of each stream the result's text shows
	// (0: all); outputID names the call's retained output ("" for none).
	textLimit int64
	outputID  string
	// keep is how to keep an output past the cap (Server.keepHint).
	keep string
	// retained is what the output store kept of a finished call's
	// streams (nil: unknown, or nothing retained), so a result points to
	// read_output only for bytes that are there.
	retained *outputs.Info
	// job is the job the call started, or that a record is about;
	// read is a read of a retained output.
	job  *jobNote
	read *readNote
	// denied are the accesses the sandbox denied a failed call's stages
	// (guessed from their stderr where the kernel reports none).
	denied []sandbox.Denial
	// readDirs are the trees the stages could read, for denied's hint.
	readDirs []string
	// confirmed is how the user answered a call the confirm tier held
	// ("" when it held none).
	confirmed audit.Confirmed
}

// jobNote is what a call did with a job.
type jobNote struct {
	id string
	// end marks a job's end record (otherwise a job_start when the kind is
	// startedJob).
	end      bool
	adaptive bool
	argv     []string // the job's argv as the client sent it
	// state is the job's state when the call returned; killedBy says who
	// killed an ended job.
	state    string
	killedBy string
	// stdinBytes is what job_stdin wrote.
	stdinBytes int64
}

// readNote is one read of a retained output.
type readNote struct {
	id, stream    string
	offset, bytes int64
}

// sandboxInfo is how children were to be confined: the configured mode
// and the Landlock ABI applied (0 without Landlock).
type sandboxInfo struct {
	mode string
	abi  int
}

// with is o ended as kind, with err: a call that failed after it was
// reported (its result could not be encoded, its handler panicked) keeps
// what it resolved.
func (o outcome) with(k kind, err error) outcome {
	o.kind, o.err = k, err
	return o
}

// withNotStarted turns o into a call cancelled before it started.
func (o outcome) withNotStarted(why string) outcome {
	o.kind, o.reason, o.run = notStarted, why, runner.Result{Outcome: runner.Cancelled}
	return o
}

// auditRecord is the one place a call becomes its audit record: what the
// client asked (c) and what happened (o). It is pure, so every path is
// table-tested (outcome_test.go).
func auditRecord(c call, o outcome) audit.Record {
	r := audit.Record{
		Time: o.start, Duration: o.elapsed, Tool: c.tool, Argv: c.argv, Env: c.envs,
		Directory: o.dir, Sandbox: o.sandbox.mode, SandboxABI: o.sandbox.abi, Args: o.raw, Lifetime: string(o.lifetime),
	}
	if o.spec != nil {
		r.Timeout, r.OutputLim = o.spec.Timeout, o.spec.OutputLimit
	}
	if p := o.plan; p != nil {
		r.Stages, r.Rule = len(p.Stages), strings.Join(p.Rules(), ",")
		r.Stdin, r.Stdout, r.Append = p.StdinFile != "", p.StdoutFile != "", p.StdoutAppend
	}
	r.ResultType, r.ErrorKind = o.classify()
	if o.kind == ran || o.kind == launchFailed {
		// The runner's own clock: it excludes the wait for a slot.
		r.Duration = o.run.Duration
		r.StdoutRead, r.StderrRead = o.run.StdoutBytes, o.run.StderrBytes
		if o.plan != nil {
			r.ChildEnv = o.plan.EnvNames()
		}
		r.StdoutN, r.StderrN = kept(o.run.StdoutBytes, o.spec, true), kept(o.run.StderrBytes, o.spec, false)
		// The status the client was given: for a pipeline, its first
		// failing stage's.
		ps := pipelineStatus(o.run)
		r.ReturnCode, r.Signal = ps.exitCode, ps.signal
		for _, d := range o.denied {
			r.SandboxDenied = append(r.SandboxDenied, audit.Denial{Kind: d.Kind, Target: d.Target, Guess: d.Guess})
		}
	}
	r.Job.OutputID, r.Job.SessionID = o.outputID, c.label
	if n := o.job; n != nil {
		r.Job.JobID, r.Job.Adaptive, r.Job.KilledBy, r.Job.StdinBytes = n.id, n.adaptive, n.killedBy, n.stdinBytes
		switch {
		case n.end:
			r.Job.Event = audit.EventJobEnd
		case o.kind == startedJob:
			r.Job.Event = audit.EventJobStart
		}
	}
	if rd := o.read; rd != nil {
		r.Job.Event, r.Job.OutputID, r.Job.Stream, r.Job.Offset, r.Job.ReadBytes = audit.EventOutputRead, rd.id, rd.stream, rd.offset, rd.bytes
	}
	r.Confirmed = o.confirmed
	r.Reason = o.reason
	if o.err != nil {
		r.Reason = o.err.Error()
	}
	if rj := refusal.As(o.err); rj != nil {
		r.ReasonArg = rj.Arg
		if o.kind == refused {
			r.Rule = string(rj.Code)
		}
	}
	return r
}

// kept is how many of a stream's read bytes the call kept, in the result
// or the ">" file: the runner keeps the first OutputLimit bytes (its
// default when unset) and discards the rest; stdout going to a ">" file
// keeps up to FileLimit, when set.
func kept(read int64, spec *runner.Spec, stdout bool) int64 {
	limit := int64(runner.DefaultOutputLimit)
	if spec != nil && spec.OutputLimit > 0 {
		limit = spec.OutputLimit
	}
	if stdout && spec != nil && spec.Plan != nil && spec.Plan.StdoutFile != "" && spec.FileLimit > 0 {
		limit = spec.FileLimit
	}
	return min(read, limit)
}

// classify is the outcome's result_type and error_type.
func (o outcome) classify() (audit.Result, audit.ErrorKind) {
	switch o.kind {
	case ran:
		return resultOf(o.run.Outcome), ""
	case refused:
		return audit.Rejected, ""
	case notStarted:
		return audit.Cancelled, ""
	case launchFailed:
		if refusal.As(o.err) != nil {
			return audit.ProcessError, audit.KindRedirect
		}
		return audit.ProcessError, audit.KindLaunch
	case invalidArgs:
		return audit.InvalidRequest, audit.KindInvalidArguments
	case protocolErr:
		return audit.InvalidRequest, audit.KindProtocol
	case panicked:
		return audit.ServerError, audit.KindPanic
	case auditRefused:
		return audit.ServerError, audit.KindAudit
	case startedJob:
		return audit.Started, ""
	case answered:
		return audit.Success, ""
	}
	// unencodable, and an outcome no path filled in.
	return audit.ServerError, audit.KindInternal
}

// resultOf maps how a started run ended onto the audit vocabulary.
func resultOf(o runner.Outcome) audit.Result {
	switch o {
	case runner.Success:
		return audit.Success
	case runner.TimedOut:
		return audit.Timeout
	case runner.OutputCapped:
		return audit.OutputCap
	case runner.Cancelled:
		return audit.Cancelled
	case runner.ProcessError:
		return audit.ProcessError
	}
	return audit.ServerError
}
