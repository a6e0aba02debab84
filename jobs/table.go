package jobs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/runner"
)

// State is where a job is in its life.
type State string

// States. Queued and Running are live; the others are how it ended.
const (
	// Queued: waiting for a free slot.
	Queued State = "queued"
	// Running: its pipeline runs.
	Running State = "running"
	// Exited: the pipeline ended on its own; ExitCode or Signal says how.
	Exited State = "exited"
	// Killed: by Kill, or by the server's shutdown (KilledBy says which).
	Killed State = "killed"
	// TimedOut: its timeout expired and its process group was killed.
	TimedOut State = "timed_out"
	// OutputCapped: a stream passed the output cap and its group was
	// killed (shell_execute handed off by the adaptive delay).
	OutputCapped State = "output_capped"
	// Failed: it could not start (Error says why).
	Failed State = "failed"
)

// Live reports a state of a job that has not ended.
func (s State) Live() bool { return s == Queued || s == Running }

// Why a job was killed.
const (
	ByKill     = "job_kill"
	ByShutdown = "shutdown"
)

// ErrQueueFull is returned by Submit when the queue is at its bound.
var ErrQueueFull = errors.New("jobs: too many jobs are waiting for a slot")

// UnknownError reports an id the table does not hold.
type UnknownError struct{ ID string }

func (e *UnknownError) Error() string { return fmt.Sprintf("unknown job id %q", e.ID) }

// Job is one background run. The caller fills the exported fields before
// Submit or Adopt; they are not changed afterwards.
type Job struct {
	ID       string
	Tool     string
	Argv     []string
	Dir      string
	Timeout  time.Duration
	Adaptive bool
	// SessionID is the client's label for the job ("" for none).
	SessionID string
	// Detached: the job's output is discarded.
	Detached bool
	// Progress is the run's live byte counts.
	Progress *runner.Progress
	// Stdin is the job's open stdin, or nil.
	Stdin *Input

	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	state    State
	queued   time.Time
	started  time.Time
	ended    time.Time
	result   runner.Result
	err      error
	killedBy string
	note     string
}

// Done is closed once the job has ended and its ended hook has returned.
func (j *Job) Done() <-chan struct{} { return j.done }

// Status is a snapshot of a job.
type Status struct {
	ID       string
	Tool     string
	Argv     []string
	Dir      string
	Timeout  time.Duration
	Adaptive bool
	// SessionID is the client's label for the job ("" for none);
	// Detached: its output is discarded.
	SessionID string
	Detached  bool
	State     State
	// QueuedAt is when it was submitted; StartedAt and EndedAt are zero
	// until it starts and ends.
	QueuedAt, StartedAt, EndedAt time.Time
	// ExitCode is nil unless the last stage exited; Signal names the
	// signal that ended it.
	ExitCode                 *int
	Signal                   string
	StdoutBytes, StderrBytes int64
	// Result is the runner's result once ended (zero before).
	Result runner.Result
	// Err is why a failed job could not start (the runner's error).
	Err      error
	KilledBy string
	// StdinOpen: job_stdin may write to it.
	StdinOpen bool
	// Note is what the ended hook had to add about how the job ended
	// (the server's line on what the sandbox denied it), or "".
	Note string
}

// Status returns a snapshot.
func (j *Job) Status() Status {
	j.mu.Lock()
	defer j.mu.Unlock()
	st := Status{
		ID: j.ID, Tool: j.Tool, Argv: j.Argv, Dir: j.Dir, Timeout: j.Timeout, Adaptive: j.Adaptive, SessionID: j.SessionID, Detached: j.Detached,
		State: j.state, QueuedAt: j.queued, StartedAt: j.started, EndedAt: j.ended, KilledBy: j.killedBy,
		StdinOpen: j.Stdin.Open(),
	}
	if j.state.Live() {
		if j.Progress != nil {
			st.StdoutBytes, st.StderrBytes = j.Progress.Bytes()
		}
		return st
	}
	r := j.result
	st.Result, st.ExitCode, st.Signal, st.StdoutBytes, st.StderrBytes = r, r.ExitCode, r.Signal, r.StdoutBytes, r.StderrBytes
	st.Err, st.Note = j.err, j.note
	return st
}

// Table holds the jobs of one server.
type Table struct {
	slots     chan struct{}
	maxQueued int

	mu     sync.Mutex
	byID   map[string]*Job
	order  []*Job // submission order
	queued int
}

// NewTable returns a table that runs at most running jobs at once and
// lets at most queued more wait.
func NewTable(running, queued int) *Table {
	return &Table{slots: make(chan struct{}, running), maxQueued: queued, byID: map[string]*Job{}}
}

// Submit adds j and returns at once: running when a slot is free, queued
// otherwise (see the package doc). cancel cancels ctx, the job's context.
// run gets ctx once j holds a slot; ended runs after the job ended,
// whether or not run was called.
func (t *Table) Submit(ctx context.Context, cancel context.CancelFunc, j *Job, run func(context.Context) (runner.Result, error), ended func(*Job)) error {
	t.mu.Lock()
	// A free slot is taken at once, so the caller can say "running".
	held := false
	select {
	case t.slots <- struct{}{}:
		held = true
	default:
		if t.queued >= t.maxQueued {
			t.mu.Unlock()
			return ErrQueueFull
		}
		t.queued++
	}
	state := Queued
	if held {
		state = Running
	}
	t.addLocked(j, cancel, state)
	t.mu.Unlock()
	go func() {
		if !held {
			select {
			case t.slots <- struct{}{}:
			case <-ctx.Done():
				t.mu.Lock()
				t.queued--
				t.mu.Unlock()
				t.end(j, runner.Result{Outcome: runner.Cancelled}, nil, false, ended)
				return
			}
			t.mu.Lock()
			t.queued--
			t.mu.Unlock()
			j.mu.Lock()
			j.state, j.started = Running, time.Now()
			j.mu.Unlock()
		}
		res, err := run(ctx)
		t.end(j, res, err, true, ended)
	}()
	return nil
}

// Adopt registers j, whose run is already going, as a running job once a
// slot is free, and reports true; ran is closed when the run returns,
// result then gives its result, cancel stops it. It reports false, and
// registers nothing, when ran closes or ctx ends before a slot is free.
func (t *Table) Adopt(ctx context.Context, cancel context.CancelFunc, j *Job, ran <-chan struct{}, result func() (runner.Result, error), ended func(*Job)) bool {
	select {
	case t.slots <- struct{}{}:
	case <-ran:
		return false
	case <-ctx.Done():
		return false
	}
	t.mu.Lock()
	t.addLocked(j, cancel, Running)
	t.mu.Unlock()
	go func() {
		<-ran
		res, err := result()
		t.end(j, res, err, true, ended)
	}()
	return true
}

// addLocked fills in j before it becomes visible; a job added running
// started when it was added.
func (t *Table) addLocked(j *Job, cancel context.CancelFunc, s State) {
	j.cancel, j.done, j.state, j.queued = cancel, make(chan struct{}), s, time.Now()
	if s == Running {
		j.started = j.queued
	}
	t.byID[j.ID] = j
	t.order = append(t.order, j)
}

// SetNote records the job's Note; the ended hook calls it, so the note
// is in every status taken after Done.
func (j *Job) SetNote(note string) {
	j.mu.Lock()
	j.note = note
	j.mu.Unlock()
}

// end records how j ended, frees its slot, runs the hook and closes Done.
func (t *Table) end(j *Job, res runner.Result, err error, held bool, ended func(*Job)) {
	// A job's output is read from its retained store, and its records need
	// only the counts: keeping the captured bytes would hold up to 2 × cap
	// for every ended job still listed (SECURITY.md, "Memory bound").
	res.Stdout, res.Stderr = nil, nil
	j.mu.Lock()
	j.result, j.err, j.ended = res, err, time.Now()
	j.state = stateOf(res, err)
	if j.state == Killed && j.killedBy == "" {
		j.killedBy = ByShutdown
	}
	j.mu.Unlock()
	j.cancel()
	if j.Stdin != nil {
		j.Stdin.Close()
	}
	if held {
		<-t.slots
	}
	if ended != nil {
		ended(j)
	}
	close(j.done)
}

// stateOf maps how a run ended onto a job state.
func stateOf(res runner.Result, err error) State {
	if err != nil {
		return Failed
	}
	switch res.Outcome {
	case runner.TimedOut:
		return TimedOut
	case runner.OutputCapped:
		return OutputCapped
	case runner.Cancelled:
		return Killed
	case runner.ProcessError:
		return Failed
	}
	return Exited
}

// Get returns the job with id, or an *UnknownError.
func (t *Table) Get(id string) (*Job, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if j := t.byID[id]; j != nil {
		return j, nil
	}
	return nil, &UnknownError{ID: id}
}

// Kill kills the job (a queued one never starts) and waits until it has
// ended or ctx ends. Killing an ended job does nothing.
func (t *Table) Kill(ctx context.Context, id string) (*Job, error) {
	j, err := t.Get(id)
	if err != nil {
		return nil, err
	}
	j.mu.Lock()
	if j.state.Live() && j.killedBy == "" {
		j.killedBy = ByKill
	}
	j.mu.Unlock()
	j.cancel()
	select {
	case <-j.done:
	case <-ctx.Done():
		return j, ctx.Err()
	}
	return j, nil
}

// Remove forgets an ended job; a live one stays.
func (t *Table) Remove(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	j := t.byID[id]
	if j == nil {
		return
	}
	j.mu.Lock()
	live := j.state.Live()
	j.mu.Unlock()
	if live {
		return
	}
	delete(t.byID, id)
	if i := slices.Index(t.order, j); i >= 0 {
		t.order = slices.Delete(t.order, i, i+1)
	}
}

// List returns every job's status, newest first.
func (t *Table) List() []Status {
	t.mu.Lock()
	jobs := slices.Clone(t.order)
	t.mu.Unlock()
	out := make([]Status, 0, len(jobs))
	for i := len(jobs) - 1; i >= 0; i-- {
		out = append(out, jobs[i].Status())
	}
	return out
}

// Counts returns how many jobs are running and queued.
func (t *Table) Counts() (running, queued int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.slots), t.queued
}
