package runner

import (
	"context"
	"os"
	"sync"
	"time"
)

// events are the reasons to stop a run early.
type events struct {
	ctx      context.Context
	deadline <-chan time.Time
	overflow <-chan string
}

// wait returns Success when done or extra fires first, otherwise the
// outcome of the first event (and the stream name for OutputCapped).
func (ev *events) wait(done <-chan struct{}, extra <-chan time.Time) (Outcome, string) {
	select {
	case <-done:
	case <-extra:
	case <-ev.deadline:
		return TimedOut, ""
	case <-ev.ctx.Done():
		return Cancelled, ""
	case name := <-ev.overflow:
		return OutputCapped, name
	}
	return Success, ""
}

// supervise runs the started group to its end and fills res. deadlineAt
// is when the timeout expires (zero: none); cut, when not empty, is the
// outcome of starts that ctx or the deadline ended: the stages started
// are then terminated at once, their output captured.
func supervise(ctx context.Context, s Spec, g *group, pl *plumbing, res *Result, deadlineAt time.Time, cut Outcome) {
	grace := s.KillGrace
	if grace <= 0 {
		grace = DefaultKillGrace
	}
	limit := s.OutputLimit
	if limit <= 0 {
		limit = DefaultOutputLimit
	}
	overflow := make(chan string, 2)
	stdout := &capture{name: "stdout", limit: limit, drain: s.DrainPastLimit, sink: pl.sink, overflow: overflow, live: s.Progress.counter("stdout"), tee: s.StdoutTee}
	if pl.sink != nil {
		stdout.name, stdout.drain = "file", false
		if s.FileLimit > 0 {
			stdout.limit = s.FileLimit
		}
	}
	stderr := &capture{name: "stderr", limit: limit, drain: s.DrainPastLimit, overflow: overflow, live: s.Progress.counter("stderr"), tee: s.StderrTee}
	var readers sync.WaitGroup
	if pl.stdoutR != nil { // nil: DiscardStdout
		readers.Go(func() { stdout.run(pl.stdoutR) })
	}
	if pl.stderrR != nil { // nil: DiscardStderr
		readers.Go(func() { stderr.run(pl.stderrR) })
	}
	ioDone := make(chan struct{})
	go func() {
		readers.Wait()
		close(ioDone)
	}()
	stdinW, stdinDone := feed(pl, s.Stdin)

	ev := &events{ctx: ctx, overflow: overflow}
	if !deadlineAt.IsZero() {
		t := time.NewTimer(time.Until(deadlineAt))
		defer t.Stop()
		ev.deadline = t.C
	}

	outcome, stream := cut, ""
	if cut == "" {
		outcome, stream = ev.wait(g.exited, nil)
	}
	if outcome == Success {
		outcome, stream = settle(ev, ioDone, grace, deadlineAt)
	} else {
		g.terminate(grace)
	}
	g.killAll() // a call's processes never outlive the call
	<-g.exited
	stopIO(ioDone, pl, stdinW, stdinDone)
	g.reap()

	if outcome == Success {
		select {
		case name := <-overflow: // the cap was passed although the stages exited on their own
			outcome, stream = OutputCapped, name
		default:
		}
	}
	res.Outcome = outcome
	if outcome == OutputCapped {
		res.LimitStream = stream
		res.LimitBytes = stderr.limit
		if stream == stdout.name {
			res.LimitBytes = stdout.limit
		}
	}
	res.Stdout, res.StdoutBytes, res.StdoutTruncated = stdout.buf, stdout.total, stdout.truncated
	res.Stderr, res.StderrBytes, res.StderrTruncated = stderr.buf, stderr.total, stderr.truncated
	res.StdoutFileError = stdout.sinkErr
	g.fill(res)
}

// settle waits, after every stage has exited, for the output pipes to
// reach EOF: descendants still holding them get at most grace, bounded by
// the remaining timeout.
func settle(ev *events, ioDone <-chan struct{}, grace time.Duration, deadlineAt time.Time) (Outcome, string) {
	wait := grace
	if !deadlineAt.IsZero() {
		wait = max(0, min(wait, time.Until(deadlineAt)))
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	return ev.wait(ioDone, t.C)
}

// feed writes stdin concurrently with the readers and closes the pipe when
// done. A stage that exits without reading makes the write fail with EPIPE;
// that is not an error.
func feed(pl *plumbing, data []byte) (*os.File, <-chan struct{}) {
	w := pl.stdinW
	if w == nil {
		return nil, nil
	}
	pl.stdinW = nil // owned by the writer from now on
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = w.Write(data)
		_ = w.Close()
	}()
	return w, done
}

// stopIO gives the readers eofWait to see EOF after the final SIGKILL, then
// abandons the pipes (a descendant outside the group may hold them), and
// unblocks a stdin writer whose reader escaped the same way.
func stopIO(ioDone <-chan struct{}, pl *plumbing, stdinW *os.File, stdinDone <-chan struct{}) {
	t := time.NewTimer(eofWait)
	defer t.Stop()
	select {
	case <-ioDone:
	case <-t.C:
		now := time.Now()
		if pl.stdoutR != nil {
			_ = pl.stdoutR.SetReadDeadline(now)
		}
		if pl.stderrR != nil {
			_ = pl.stderrR.SetReadDeadline(now)
		}
		<-ioDone
	}
	if stdinW != nil {
		_ = stdinW.SetWriteDeadline(time.Now())
		<-stdinDone
	}
}
