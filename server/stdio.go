package server

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/runner"
	"github.com/seed-b63acb1b/mcp-shell-server/server/framing"
)

// stopBudget is how long stopping may take beyond the kill grace: the
// calls' process groups get SIGTERM at once and SIGKILL after the grace;
// reaping them, writing their records and their cancelled results takes
// milliseconds, so a second leaves room for a loaded machine while an
// operator's SIGTERM still ends the server promptly (issue 16: exit within
// 1 s plus the kill grace).
const stopBudget = time.Second

// StopDeadline is how long a stop may take from its start to the exit:
// the kill grace of the calls' process groups plus stopBudget.
const StopDeadline = runner.DefaultKillGrace + stopBudget

// FlushReserve is what StopDeadline leaves, after ServeStdio or ServeHTTP
// return, for each of the caller's two flushes (the audit log, then
// stderr): records are written as their calls end, so a flush has little
// left to do unless the destination is blocked, and then waiting longer
// would not help.
const FlushReserve = 100 * time.Millisecond

// serveDeadline is what ServeStdio and ServeHTTP take of StopDeadline.
const serveDeadline = StopDeadline - 2*FlushReserve

// ServeStdio serves one MCP session over in and out (newline-delimited
// JSON through the framing layer) until ctx is done (SIGTERM, SIGINT), the
// input ends (the client closed stdin) or the session breaks (stdout
// closed). Then it stops at once: every running call's process group is
// terminated, each call is answered with its cancelled result while out
// still takes writes, and their records are written; it returns within
// StopDeadline less two FlushReserves. The audit log itself is the
// caller's to close.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	t := framing.New(in, out, framing.Options{OnRefused: s.auditRefused, Log: s.opts.Log})
	// Handlers find t in their contexts and defer large results to it.
	ss, err := s.mcp.Connect(framing.NewContext(context.Background(), t), t, nil)
	if err != nil {
		return fmt.Errorf("server: connecting stdio: %w", err)
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	var why string
	select {
	case <-ctx.Done():
		why = "signal"
	case <-t.InputEnded():
		why = "stdin closed"
	case err := <-ended:
		// The session broke (a write failed): stop what it started.
		s.stop(context.Background(), serveDeadline)
		return err
	}
	start := time.Now()
	deadline, cancel := context.WithTimeout(context.Background(), serveDeadline)
	defer cancel()
	if err := s.Shutdown(deadline); err != nil {
		s.opts.Log.Warn("calls still running at exit", "err", err)
	}
	// The calls have been answered by now, unless stdout is not taking
	// writes; then the deadline ends the wait.
	if err := t.Drain(deadline); err != nil {
		s.opts.Log.Warn("responses not written at exit", "err", err)
	}
	t.EndInput()
	go ss.Close() // returns once the SDK is idle; the deadline bounds the wait
	select {
	case <-ended:
	case <-deadline.Done():
	}
	s.opts.Log.Info("stopped", "why", why, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// stop is Shutdown bounded by d.
func (s *Server) stop(ctx context.Context, d time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		s.opts.Log.Warn("calls still running at exit", "err", err)
	}
}

// auditRefused records a message the framing layer answered itself (the
// SDK never saw it).
func (s *Server) auditRefused(r framing.Refusal) { s.auditProtocol(r) }
