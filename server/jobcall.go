package server

import (
	"context"
	"errors"
	"fmt"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
	"os"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/jobs"
	"github.com/seed-b63acb1b/mcp-shell-server/outputs"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
)

// A job runs the spec prepare built, through runner.Run, exactly as a
// foreground call does; what differs is who waits (jobs.Table, not the
// request), its context (the server's, not the request's: a job outlives
// the request and the session that started it), its timeout (the job
// maximum) and that its output is read from the retained store.

// prepareJob checks the call's job and retention arguments and sets the
// spec's stdin from them: a retained stdout (stdin_output_id), or a pipe
// whose write end the returned Input holds (stdin_open). Both are closed
// with the spec's directory when the call or its job ends.
func (s *Server) prepareJob(c call, spec *runner.Spec) (*jobs.Input, error) {
	j, redirected := c.job, spec.Plan.StdinFile != ""
	switch {
	case j.StdinOpen && !j.Background && !j.Detached:
		return nil, refusal.New(CodeStdin, -1, "", "stdin_open needs background: true (a foreground call's standard input is its stdin argument)")
	case j.StdinOpen && (c.stdin != nil || j.StdinOutputID != nil || redirected):
		return nil, refusal.New(CodeStdin, -1, "", "stdin_open cannot be combined with stdin, stdin_output_id or \"<\": send the first input with job_stdin")
	case j.StdinOpen:
		r, w, err := os.Pipe()
		if err != nil {
			return nil, refusal.New(CodeStdin, -1, "", "cannot create the job's stdin pipe: %v", err)
		}
		spec.StdinFrom = r
		return jobs.NewInput(w), nil
	case j.StdinOutputID == nil:
		return nil, nil
	case c.stdin != nil || redirected:
		return nil, refusal.New(CodeStdin, -1, "", "stdin_output_id cannot be combined with stdin or \"<\"")
	}
	id := *j.StdinOutputID
	out, err := s.lookupOutput(id)
	if err != nil {
		return nil, err
	}
	data, f, err := out.OpenStdout()
	switch {
	case errors.Is(err, outputs.ErrRunning):
		return nil, refusal.New(CodeStdin, -1, id, "output %s is still being written (its job is running); wait for the end with job_status {\"id\":%q,\"wait\":%d}, then chain it", id, id, maxWaitSeconds)
	case err != nil:
		return nil, refusal.New(CodeUnknownID, -1, id, "%s", err.Error())
	}
	// A stdout held in memory is fed like a stdin argument (the runner
	// only reads it); one in its file is the child's stdin itself.
	spec.Stdin, spec.StdinFrom = data, f
	return nil, nil
}

// lookupOutput finds a retained output, or refuses with a message that
// says whether the id never existed, expired or was evicted.
func (s *Server) lookupOutput(id string) (*outputs.Output, error) {
	if !outputs.ValidID(id) {
		return nil, refusal.New(CodeUnknownID, -1, id, "unknown output id %q: ids are the output_id or job_id of an earlier result (10 characters, such as k3v9x2m4qa)", id)
	}
	out, err := s.bg.store.Get(id)
	var nf *outputs.NotFoundError
	switch {
	case errors.As(err, &nf) && nf.Reason == "":
		return nil, refusal.New(CodeUnknownID, -1, id, "unknown output id %q: no retained output has it (a call that printed nothing keeps none)", id)
	case errors.As(err, &nf):
		return nil, refusal.New(CodeUnknownID, -1, id, "%s; run the command again to get it back", nf.Error())
	case err != nil:
		return nil, refusal.New(CodeUnknownID, -1, id, "output %s cannot be read: %v", id, err)
	}
	return out, nil
}

// startJob queues the prepared call as a background job and returns at
// once; stdin is the job's open stdin or nil.
func (s *Server) startJob(c call, o outcome, stdin *jobs.Input) outcome {
	if !s.gate.enter() {
		stdin.Close()
		return o.withNotStarted("the server is shutting down")
	}
	// The job's end record has its room from the start, as the call's
	// own record has: a job never ends unrecorded for want of room.
	end, err := s.opts.Audit.Admit()
	if err != nil {
		s.gate.leave()
		stdin.Close()
		o.kind, o.err = auditRefused, fmt.Errorf("the server cannot write the job's end record right now, so the job was not started: %w", err)
		return o
	}
	out, err := s.bg.store.Create()
	if err != nil {
		end.Release()
		s.gate.leave()
		stdin.Close()
		o.kind, o.err = refused, refusal.New(CodeJobs, -1, "", "no room for another job's output (%v); wait for a job to end or stop one with job_kill", err)
		return o
	}
	spec := o.spec
	spec.Timeout = s.opts.Jobs.MaxJobTime
	if c.timeout != nil {
		spec.Timeout = min(*c.timeout, s.opts.Jobs.MaxJobTime)
	}
	// A job's output is read from the store: past the in-memory cap it is
	// drained (and retained up to its own cap), not a reason to kill it.
	spec.DrainPastLimit = true
	spec.Progress = &runner.Progress{}
	out.Persist() // a job's output is in files from its first byte
	spec.StdoutTee, spec.StderrTee = out.Stdout(), out.Stderr()
	if c.job.Detached {
		spec.StdoutTee, spec.StderrTee = nil, nil
		spec.DiscardStdout, spec.DiscardStderr = true, true
	}
	o.outputID = out.ID
	j := &jobs.Job{ID: out.ID, Tool: c.tool, Argv: c.argv, Dir: o.dir, Timeout: spec.Timeout, SessionID: c.label, Detached: c.job.Detached, Progress: spec.Progress, Stdin: stdin}
	ctx, cancel := context.WithCancel(s.base)
	run := func(ctx context.Context) (runner.Result, error) { return runner.Run(ctx, *spec) }
	s.sessions.jobStarted(c.session) // before Submit: its end hook may run at once
	if err := s.bg.table.Submit(ctx, cancel, j, run, s.jobEnded(c, o, out, end)); err != nil {
		s.sessions.jobEnded(c.session)
		end.Release()
		cancel()
		out.Drop()
		s.gate.leave()
		stdin.Close()
		running, queued := s.bg.table.Counts()
		o.outputID = ""
		o.kind, o.err = refused, refusal.New(CodeJobs, -1, "", "too many jobs: %d running and %d waiting, the most that may wait; wait for one to end (job_list) or stop one with job_kill", running, queued)
		return o
	}
	o.kind, o.job = startedJob, &jobNote{id: j.ID, argv: c.argv, state: string(j.Status().State)}
	return o
}

// jobEnded is the hook that closes what a job held and writes its end
// record (from the same outcome its start record came from) with the
// room reserved when it started (kept and written again if the log
// fails meanwhile), then lets Shutdown go on.
func (s *Server) jobEnded(c call, o outcome, out *outputs.Output, end *audit.Ticket) func(*jobs.Job) {
	return func(j *jobs.Job) {
		st := j.Status()
		out.FinishCounted(teeTotals(o.spec, st.StdoutBytes, st.StderrBytes))
		o.plan.Close()
		o.spec.StdinFrom.Close()
		rec := o
		rec.outputID = j.ID
		rec.job = &jobNote{id: j.ID, end: true, adaptive: j.Adaptive, killedBy: st.KilledBy}
		switch {
		case st.StartedAt.IsZero():
			rec = rec.withNotStarted(fmt.Sprintf("killed before it started (%s)", st.KilledBy))
			rec.start = st.QueuedAt
		case st.Err != nil:
			rec.kind, rec.err, rec.run = launchFailed, st.Err, st.Result
		default:
			rec.kind, rec.err, rec.run = ran, nil, st.Result
		}
		if !st.StartedAt.IsZero() {
			rec.start = st.EndedAt.Add(-st.Result.Duration) // when the run began
		}
		rec.elapsed = st.EndedAt.Sub(rec.start)
		rec.lifetime = s.opts.Lifetime.Mechanism()
		rec.readDirs = s.readDirs()
		rec.denied = denialsIn(rec, stderrHead(out))
		j.SetNote(sandbox.Hint(rec.denied, rec.readDirs))
		end.LogDurable(context.Background(), auditRecord(c, rec), "job_end of job "+j.ID)
		s.sessions.jobEnded(c.session)
		s.gate.leave()
	}
}

// runForeground runs a foreground call, retaining its output; with the
// adaptive delay it may hand the run to a job instead of waiting.
func (s *Server) runForeground(ctx context.Context, c call, o outcome) outcome {
	out := s.retain(o.spec)
	if out == nil {
		o.run, o.err = runner.Run(ctx, *o.spec)
		return o
	}
	o.outputID = out.ID
	if s.bg.table == nil || s.opts.Jobs.Adaptive <= 0 {
		o.run, o.err = runner.Run(ctx, *o.spec)
		return settle(out, o)
	}
	return s.runAdaptive(ctx, c, o, out)
}

// retain creates the call's output and tees the streams into it; nil when
// retention is off, or the store has no room (the call then runs without
// retained output rather than not at all).
func (s *Server) retain(spec *runner.Spec) *outputs.Output {
	if s.bg.store == nil {
		return nil
	}
	out, err := s.bg.store.Create()
	if err != nil {
		s.opts.Log.Warn("running a call without retained output", "err", err)
		return nil
	}
	spec.StdoutTee, spec.StderrTee = out.Stdout(), out.Stderr()
	return out
}

// settle finishes a foreground call's output; one that printed nothing is
// dropped (there is nothing to page or chain) and the result names none.
func settle(out *outputs.Output, o outcome) outcome {
	out.FinishCounted(teeTotals(o.spec, o.run.StdoutBytes, o.run.StderrBytes))
	info := out.Info()
	if info.Empty() {
		out.Drop()
		o.outputID = ""
	}
	o.retained = &info
	return o
}

// teeTotals are the bytes each teed stream carried, as the runner counted
// them (the retained output's writer stops seeing them once it keeps
// nothing more); -1 for a stdout that went to a ">" file, which no tee
// sees.
func teeTotals(spec *runner.Spec, stdout, stderr int64) [2]int64 {
	if spec == nil || spec.Plan == nil || spec.Plan.StdoutFile != "" {
		stdout = -1
	}
	return [2]int64{stdout, stderr}
}

// runAdaptive runs a foreground call under the server's context, linked to
// the request's until the adaptive delay: a call still running then
// becomes a job once a job slot is free (the request keeps waiting for the
// slot, or for the end), and the request returns. The run keeps its
// timeout: the hand-off changes who waits, not how long it may run. As it
// may become a job, that timeout is at most the job maximum.
func (s *Server) runAdaptive(ctx context.Context, c call, o outcome, out *outputs.Output) outcome {
	o.spec.Timeout = min(o.spec.Timeout, s.opts.Jobs.MaxJobTime)
	runCtx, cancelRun := context.WithCancel(s.base)
	unlink := context.AfterFunc(ctx, cancelRun) // until the hand-off, the request's cancellation kills the run
	ran := make(chan struct{})
	var res runner.Result
	var err error
	spec := *o.spec
	go func() {
		defer close(ran)
		res, err = runner.Run(runCtx, spec)
	}()
	t := time.NewTimer(s.opts.Jobs.Adaptive)
	defer t.Stop()
	select {
	case <-ran:
	case <-t.C:
		if s.handOff(ctx, c, o, out, cancelRun, ran, func() (runner.Result, error) { return res, err }) {
			unlink()
			o.kind = startedJob
			o.job = &jobNote{id: out.ID, adaptive: true, argv: c.argv, state: string(jobs.Running)}
			return o
		}
		<-ran
	}
	unlink()
	cancelRun()
	o.run, o.err = res, err
	return settle(out, o)
}

// handOff makes the running call a job; false when the run ended, the
// request ended or the server is shutting down before a slot was free.
func (s *Server) handOff(ctx context.Context, c call, o outcome, out *outputs.Output, cancel context.CancelFunc, ran <-chan struct{}, result func() (runner.Result, error)) bool {
	if !s.gate.enter() {
		return false
	}
	end, err := s.opts.Audit.Admit() // the job's end record, as in startJob
	if err != nil {
		s.gate.leave()
		return false // the call stays in the foreground and is recorded as one
	}
	o.outputID = out.ID
	// From here the output is a job's: what it holds in memory goes to
	// its files, and so does every later byte (also if the run ends
	// before a slot is free: the call's answer then reads the same).
	out.Persist()
	j := &jobs.Job{ID: out.ID, Tool: c.tool, Argv: c.argv, Dir: o.dir, Timeout: o.spec.Timeout, Adaptive: true, SessionID: c.label, Progress: o.spec.Progress}
	s.sessions.jobStarted(c.session) // before Adopt: its end hook may run at once
	if !s.bg.table.Adopt(ctx, cancel, j, ran, result, s.jobEnded(c, o, out, end)) {
		s.sessions.jobEnded(c.session)
		end.Release()
		s.gate.leave()
		return false
	}
	return true
}
