package jobs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/runner"
)

// fakeRun is a run that blocks until released or cancelled, counting how
// many run at once.
type fakeRun struct {
	running, peak atomic.Int32
	started       chan string
	release       chan struct{}
}

func newFake() *fakeRun {
	return &fakeRun{started: make(chan string, 100), release: make(chan struct{})}
}

func (f *fakeRun) run(id string) func(context.Context) (runner.Result, error) {
	return func(ctx context.Context) (runner.Result, error) {
		n := f.running.Add(1)
		for p := f.peak.Load(); n > p && !f.peak.CompareAndSwap(p, n); p = f.peak.Load() {
		}
		defer f.running.Add(-1)
		f.started <- id
		select {
		case <-f.release:
			code := 0
			return runner.Result{Outcome: runner.Success, ExitCode: &code, StdoutBytes: 3}, nil
		case <-ctx.Done():
			return runner.Result{Outcome: runner.Cancelled, Signal: "SIGKILL"}, nil
		}
	}
}

func submit(t *testing.T, tb *Table, f *fakeRun, id string, ended func(*Job)) *Job {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	j := &Job{ID: id, Argv: []string{"x"}}
	if err := tb.Submit(ctx, cancel, j, f.run(id), ended); err != nil {
		t.Fatal(err)
	}
	return j
}

// TestBoundOfEight: 20 jobs against a bound of 8 never run more than 8 at
// once; the rest wait queued and all finish.
func TestBoundOfEight(t *testing.T) {
	t.Parallel()
	tb := NewTable(8, 64)
	f := newFake()
	var endedN atomic.Int32
	var all []*Job
	for i := range 20 {
		all = append(all, submit(t, tb, f, fmt.Sprint(i), func(*Job) { endedN.Add(1) }))
	}
	for range 8 {
		<-f.started
	}
	if running, queued := tb.Counts(); running != 8 || queued != 12 {
		t.Fatalf("running %d queued %d, want 8 and 12", running, queued)
	}
	queuedStates := 0
	for _, st := range tb.List() {
		if st.State == Queued {
			queuedStates++
		}
	}
	if queuedStates != 12 {
		t.Errorf("%d jobs report queued", queuedStates)
	}
	close(f.release)
	for _, j := range all {
		<-j.Done()
		if st := j.Status(); st.State != Exited || *st.ExitCode != 0 || st.StdoutBytes != 3 || st.StartedAt.IsZero() || st.EndedAt.IsZero() {
			t.Errorf("job %s: %+v", j.ID, st)
		}
	}
	if p := f.peak.Load(); p != 8 {
		t.Errorf("peak %d running at once, want 8", p)
	}
	if endedN.Load() != 20 {
		t.Errorf("ended hook ran %d times", endedN.Load())
	}
	if running, queued := tb.Counts(); running != 0 || queued != 0 {
		t.Errorf("after: running %d queued %d", running, queued)
	}
}

func TestQueueBound(t *testing.T) {
	t.Parallel()
	tb := NewTable(1, 1)
	f := newFake()
	defer close(f.release)
	submit(t, tb, f, "a", nil)
	<-f.started
	submit(t, tb, f, "b", nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := tb.Submit(ctx, cancel, &Job{ID: "c"}, f.run("c"), nil); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("third job: %v", err)
	}
	if _, err := tb.Get("c"); err == nil {
		t.Error("a refused job is in the table")
	}
}

func TestKill(t *testing.T) {
	t.Parallel()
	tb := NewTable(1, 8)
	f := newFake()
	defer close(f.release)
	var hooked []string
	var mu sync.Mutex
	hook := func(j *Job) { mu.Lock(); hooked = append(hooked, j.ID); mu.Unlock() }
	running := submit(t, tb, f, "run", hook)
	<-f.started
	queued := submit(t, tb, f, "queued", hook)

	j, err := tb.Kill(context.Background(), "queued")
	if err != nil || j != queued {
		t.Fatal(err)
	}
	if st := queued.Status(); st.State != Killed || st.KilledBy != ByKill || !st.StartedAt.IsZero() {
		t.Errorf("killed while queued: %+v", st)
	}
	if _, err := tb.Kill(context.Background(), "run"); err != nil {
		t.Fatal(err)
	}
	if st := running.Status(); st.State != Killed || st.KilledBy != ByKill || st.Signal != "SIGKILL" {
		t.Errorf("killed while running: %+v", st)
	}
	if _, err := tb.Kill(context.Background(), "run"); err != nil {
		t.Errorf("killing an ended job: %v", err)
	}
	var unknown *UnknownError
	if _, err := tb.Kill(context.Background(), "nope"); !errors.As(err, &unknown) {
		t.Errorf("unknown id: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(hooked) != 2 {
		t.Errorf("ended hook ran for %v", hooked)
	}
	select {
	case id := <-f.started:
		t.Errorf("%s started after it was killed while queued", id)
	default:
	}
}

// TestShutdownKills: a job whose context is cancelled from outside (the
// server's shutdown) ends killed by shutdown.
func TestShutdownKills(t *testing.T) {
	t.Parallel()
	tb := NewTable(2, 8)
	f := newFake()
	base, stop := context.WithCancel(context.Background())
	ctx, cancel := context.WithCancel(base)
	j := &Job{ID: "a"}
	tb.Submit(ctx, cancel, j, f.run("a"), nil)
	<-f.started
	stop()
	<-j.Done()
	if st := j.Status(); st.State != Killed || st.KilledBy != ByShutdown {
		t.Errorf("%+v", st)
	}
}

func TestAdopt(t *testing.T) {
	t.Parallel()
	tb := NewTable(1, 8)
	f := newFake()
	blocker := submit(t, tb, f, "blocker", nil)
	<-f.started

	// No slot: the run ends first and nothing is registered.
	ran := make(chan struct{})
	close(ran)
	if tb.Adopt(context.Background(), func() {}, &Job{ID: "fg1"}, ran, nil, nil) {
		t.Fatal("adopted a run that had ended")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if tb.Adopt(ctx, func() {}, &Job{ID: "fg2"}, make(chan struct{}), nil, nil) {
		t.Fatal("adopted after the waiter gave up")
	}
	if _, err := tb.Get("fg1"); err == nil {
		t.Error("fg1 registered")
	}

	close(f.release) // frees the slot
	<-blocker.Done()
	ran = make(chan struct{})
	code := 2
	j := &Job{ID: "fg3", Adaptive: true}
	runCtx, runCancel := context.WithCancel(context.Background())
	if !tb.Adopt(context.Background(), runCancel, j, ran, func() (runner.Result, error) {
		return runner.Result{Outcome: runner.Success, ExitCode: &code}, nil
	}, nil) {
		t.Fatal("not adopted with a free slot")
	}
	if st := j.Status(); st.State != Running || !st.Adaptive {
		t.Errorf("adopted: %+v", st)
	}
	close(ran)
	<-j.Done()
	if st := j.Status(); st.State != Exited || *st.ExitCode != 2 {
		t.Errorf("ended: %+v", st)
	}
	if runCtx.Err() == nil {
		t.Error("the run's context was not released at the end")
	}
}

func TestStatesAndRemove(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		res  runner.Result
		err  error
		want State
	}{
		{runner.Result{Outcome: runner.Success}, nil, Exited},
		{runner.Result{Outcome: runner.TimedOut}, nil, TimedOut},
		{runner.Result{Outcome: runner.OutputCapped}, nil, OutputCapped},
		{runner.Result{Outcome: runner.Cancelled}, nil, Killed},
		{runner.Result{Outcome: runner.ProcessError}, errors.New("not found"), Failed},
	} {
		if got := stateOf(tt.res, tt.err); got != tt.want {
			t.Errorf("stateOf(%v, %v) = %s, want %s", tt.res.Outcome, tt.err, got, tt.want)
		}
	}
	tb := NewTable(1, 8)
	f := newFake()
	a := submit(t, tb, f, "a", nil)
	<-f.started
	tb.Remove("a")
	if _, err := tb.Get("a"); err != nil {
		t.Fatal("a live job was removed")
	}
	close(f.release)
	<-a.Done()
	b := submit(t, tb, f, "b", nil)
	<-b.Done()
	if l := tb.List(); len(l) != 2 || l[0].ID != "b" || l[1].ID != "a" {
		t.Errorf("list not newest first: %+v", l)
	}
	tb.Remove("a")
	if _, err := tb.Get("a"); err == nil {
		t.Error("an ended job was not removed")
	}
}

func TestInput(t *testing.T) {
	t.Parallel()
	t.Run("write and close", func(t *testing.T) {
		r, w, _ := os.Pipe()
		defer r.Close()
		in := NewInput(w)
		if n, err := in.Write([]byte("hi\n"), time.Second); n != 3 || err != nil {
			t.Fatal(n, err)
		}
		in.Close()
		in.Close()
		if _, err := in.Write([]byte("x"), time.Second); !errors.Is(err, ErrStdinClosed) || in.Open() {
			t.Errorf("after close: %v", err)
		}
		b := make([]byte, 10)
		n, _ := r.Read(b)
		if string(b[:n]) != "hi\n" {
			t.Errorf("read %q", b[:n])
		}
	})
	t.Run("reader gone", func(t *testing.T) {
		r, w, _ := os.Pipe()
		r.Close()
		in := NewInput(w)
		defer in.Close()
		if _, err := in.Write([]byte("x"), time.Second); !errors.Is(err, ErrStdinGone) {
			t.Errorf("%v", err)
		}
	})
	t.Run("reader slow", func(t *testing.T) {
		r, w, _ := os.Pipe()
		defer r.Close()
		in := NewInput(w)
		defer in.Close()
		big := make([]byte, 1<<20) // more than a pipe holds
		n, err := in.Write(big, 50*time.Millisecond)
		if !errors.Is(err, ErrStdinSlow) || n == 0 || n == len(big) {
			t.Errorf("n %d err %v", n, err)
		}
	})
	t.Run("close cuts a blocked write short", func(t *testing.T) {
		r, w, _ := os.Pipe()
		defer r.Close()
		in := NewInput(w)
		errc := make(chan error, 1)
		go func() { _, err := in.Write(make([]byte, 1<<20), time.Hour); errc <- err }()
		// Whether Close comes before the write or while it blocks holding
		// the lock, the write ends at once as closed, not after an hour.
		// Write holds the lock while it blocks; Close must not wait an hour.
		in.Close()
		if err := <-errc; !errors.Is(err, ErrStdinClosed) {
			t.Errorf("blocked write ended with %v", err)
		}
	})
	var nilIn *Input
	if nilIn.Open() || nilIn.Close() != nil {
		t.Error("nil Input")
	}
}

// TestEndedJobDropsCapture: an ended job keeps the counts of what it
// wrote, not the bytes, which its retained output holds.
func TestEndedJobDropsCapture(t *testing.T) {
	t.Parallel()
	tb := NewTable(1, 1)
	j := &Job{ID: "j1"}
	ctx, cancel := context.WithCancel(context.Background())
	big := make([]byte, 1<<20)
	run := func(context.Context) (runner.Result, error) {
		return runner.Result{Outcome: runner.Success, Stdout: big, Stderr: big, StdoutBytes: 1 << 20, StderrBytes: 1 << 20}, nil
	}
	if err := tb.Submit(ctx, cancel, j, run, nil); err != nil {
		t.Fatal(err)
	}
	<-j.Done()
	st := j.Status()
	if st.Result.Stdout != nil || st.Result.Stderr != nil {
		t.Errorf("ended job holds %d+%d captured bytes", len(st.Result.Stdout), len(st.Result.Stderr))
	}
	if st.StdoutBytes != 1<<20 || st.StderrBytes != 1<<20 {
		t.Errorf("counts %d/%d, want the run's", st.StdoutBytes, st.StderrBytes)
	}
}
