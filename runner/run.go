package runner

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// DefaultOutputLimit is the per-stream cap in bytes used when
// Spec.OutputLimit is zero or negative (MCP_SHELL_OUTPUT_LIMIT_BYTES
// default, 1 MiB).
const DefaultOutputLimit = 1 << 20

// eofWait bounds how long Run keeps reading the output pipes after the
// final SIGKILL of the group. Killed processes release their pipes within
// microseconds; only a descendant that escaped the group can hold them.
const eofWait = 100 * time.Millisecond

// Run starts the pipeline described by s, feeds its stdin, captures its
// output within the limits, and returns once every stage has been reaped
// and the process group killed (see the package doc for the full
// contract).
//
// The error is non-nil only when the pipeline could not be started: a
// *LaunchError (program not found in the child PATH, invalid Spec, pipe or
// fork/exec failure; stages already started are killed and reaped) or a
// *refusal.Rejection from opening the "<" or ">" file. Result.Outcome is then
// ProcessError. A ctx already done before anything starts gives Outcome
// Cancelled, no error, and no process. Timeout zero means no timeout
// besides ctx.
func Run(ctx context.Context, s Spec) (Result, error) {
	start := time.Now()
	res, err := run(ctx, s)
	res.Duration = time.Since(start)
	return res, err
}

func run(ctx context.Context, s Spec) (Result, error) {
	if s.Plan == nil || len(s.Plan.Stages) == 0 {
		return Result{Outcome: ProcessError}, &LaunchError{Err: fmt.Errorf("%w: no stages", ErrInvalidSpec)}
	}
	stages := s.Plan.Stages
	res := Result{Stages: make([]StageStatus, len(stages))}
	for i, st := range stages {
		if len(st.Argv) == 0 {
			res.Outcome = ProcessError
			return res, &LaunchError{Err: fmt.Errorf("%w: stage %d has an empty argv", ErrInvalidSpec, i)}
		}
		res.Stages[i].Argv0 = st.Argv[0]
	}
	if ctx.Err() != nil {
		res.Outcome = Cancelled
		return res, nil
	}
	lt := s.Lifetime
	if lt == nil {
		lt = lifetime.Default()
	}
	call, err := lt.NewCall()
	if err != nil {
		res.Outcome = ProcessError
		return res, &LaunchError{Argv0: stages[0].Argv[0], Err: err}
	}
	defer call.End()
	pl, err := plumb(s)
	if err != nil {
		res.Outcome = ProcessError
		return res, err
	}
	defer pl.closeParentEnds()
	// The timeout bounds the starts too: a start the sandbox cannot
	// finish (a stage stopped before its confinement) ends at the
	// deadline, and the call still answers.
	var deadlineAt time.Time
	startCtx := ctx
	if s.Timeout > 0 {
		deadlineAt = time.Now().Add(s.Timeout)
		var cancel context.CancelFunc
		startCtx, cancel = context.WithDeadline(ctx, deadlineAt)
		defer cancel()
	}
	g, err := start(startCtx, s, pl, call)
	pl.closeChildEnds() // EOF must propagate once the children close theirs
	var cut Outcome
	switch {
	case err != nil && startCtx.Err() == nil:
		g.fill(&res)
		res.Outcome = ProcessError
		return res, err
	case err != nil:
		// Cut short: what the stages already started wrote is the
		// answer, as for a timeout or a cancel while they run.
		res.StartCut, cut = err, TimedOut
		if ctx.Err() != nil {
			cut = Cancelled
		}
	}
	supervise(ctx, s, g, pl, &res, deadlineAt, cut)
	return res, nil
}

// plumbing holds the descriptors of one run. Child ends are given to the
// stages and closed in the parent right after start; parent ends are read
// or written by the runner.
type plumbing struct {
	files   [][3]*os.File // per stage: fds 0, 1, 2 (child ends)
	stdinW  *os.File      // feeds Spec.Stdin; nil when stdin is a file or /dev/null
	stdoutR *os.File
	stderrR *os.File
	sink    *os.File // the ">" or ">>" file
}

// plumb opens the "<" file, creates the pipes, and opens the ">" file last
// so that nothing is truncated when an earlier step fails.
func plumb(s Spec) (pl *plumbing, err error) {
	n := len(s.Plan.Stages)
	pl = &plumbing{files: make([][3]*os.File, n)}
	defer func() {
		if err != nil {
			pl.closeChildEnds()
			pl.closeParentEnds()
		}
	}()
	if pl.files[0][0], err = pl.stdin(s); err != nil {
		return pl, err
	}
	for i := range n - 1 {
		if pl.files[i+1][0], pl.files[i][1], err = pl.pipe(s); err != nil {
			return pl, err
		}
	}
	if s.DiscardStdout && s.Plan.StdoutFile == "" {
		if pl.files[n-1][1], err = pl.devNull(s); err != nil {
			return pl, err
		}
	} else if pl.stdoutR, pl.files[n-1][1], err = pl.pipe(s); err != nil {
		return pl, err
	}
	var stderrW *os.File
	if s.DiscardStderr {
		if stderrW, err = pl.devNull(s); err != nil {
			return pl, err
		}
	} else if pl.stderrR, stderrW, err = pl.pipe(s); err != nil {
		return pl, err
	}
	for i := range pl.files {
		pl.files[i][2] = stderrW
	}
	if c := s.Plan; c.StdoutFile != "" {
		if pl.sink, err = redirect.OpenOutput(c.Dir, c.StdoutFile, c.StdoutAppend); err != nil {
			return pl, err
		}
	}
	return pl, nil
}

func (pl *plumbing) stdin(s Spec) (*os.File, error) {
	var f *os.File
	var err error
	switch {
	case s.StdinFrom != nil:
		return s.StdinFrom, nil // closed with the other child ends after start
	case s.Plan.StdinFile != "":
		if f, err = redirect.OpenInput(s.Plan.Dir, s.Plan.StdinFile); err != nil {
			return nil, err
		}
	case len(s.Stdin) > 0:
		f, pl.stdinW, err = os.Pipe()
	default:
		f, err = os.Open(os.DevNull)
	}
	if err != nil {
		return nil, &LaunchError{Argv0: s.Plan.Stages[0].Argv[0], Err: err}
	}
	return f, nil
}

// devNull opens /dev/null for a discarded stream, or returns a
// *LaunchError.
func (pl *plumbing) devNull(s Spec) (*os.File, error) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return nil, &LaunchError{Argv0: s.Plan.Stages[0].Argv[0], Err: err}
	}
	return f, nil
}

// pipe returns a new pipe, or a *LaunchError (for example EMFILE).
func (pl *plumbing) pipe(s Spec) (r, w *os.File, err error) {
	r, w, err = os.Pipe()
	if err != nil {
		return nil, nil, &LaunchError{Argv0: s.Plan.Stages[0].Argv[0], Err: err}
	}
	return r, w, nil
}

// closeChildEnds closes the parent's copies of every descriptor handed to
// a stage.
func (pl *plumbing) closeChildEnds() {
	seen := map[*os.File]bool{}
	for _, fds := range pl.files {
		for _, f := range fds {
			if f != nil && !seen[f] {
				seen[f] = true
				f.Close()
			}
		}
	}
	pl.files = nil
}

func (pl *plumbing) closeParentEnds() {
	for _, f := range []*os.File{pl.stdinW, pl.stdoutR, pl.stderrR, pl.sink} {
		if f != nil {
			f.Close()
		}
	}
	pl.stdinW, pl.stdoutR, pl.stderrR, pl.sink = nil, nil, nil, nil
}

// start launches every stage (see startStage) as part of call, each with
// its own environment, after checking that its program is still the file
// the policy resolved. On failure the stages already started are killed
// and reaped before it returns, unless ctx ended the starts: the group of
// the stages started so far is then returned, watched, with the error, for
// supervise to end and capture.
func start(ctx context.Context, s Spec, pl *plumbing, call *lifetime.Call) (*group, error) {
	g := &group{call: call}
	for i := range s.Plan.Stages {
		st := &s.Plan.Stages[i]
		if err := launchable(st); err != nil {
			g.abort()
			return g, &LaunchError{Argv0: st.Argv[0], Err: err}
		}
		env := st.Env
		if env == nil {
			env = []string{} // nil would make os.StartProcess inherit the server's environment
		}
		attr := &os.ProcAttr{Dir: s.Plan.Dir.Path(), Env: env, Files: pl.files[i][:]}
		err := context.Cause(ctx)
		if err == nil {
			var p *os.Process
			if p, err = startStage(ctx, call, st, attr, s.Sandbox); err == nil {
				g.add(p)
				continue
			}
		}
		err = &LaunchError{Argv0: st.Argv[0], Err: err}
		if ctx.Err() != nil {
			g.watch()
			return g, err
		}
		g.abort()
		return g, err
	}
	g.watch()
	return g, nil
}

// launchable reports why a stage's program cannot start: it was not
// found when the policy resolved it, or the file at its path is no longer
// the one resolved.
func launchable(st *plan.Stage) error {
	if st.Program.Err != nil {
		return st.Program.Err
	}
	for w := st.Wrapped; w != nil; w = w.Wrapped {
		if err := w.Program.Verify(); err != nil { // the program a wrapper executes
			return err
		}
	}
	return st.Program.Verify()
}
