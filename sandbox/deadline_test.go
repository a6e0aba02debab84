//go:build linux

package sandbox

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// startCut is the context the deadline tests give a start that cannot
// end; stuckStart is when such a start counts as hung (a guard against a
// hanging test binary, not a measurement).
const (
	startCut   = 300 * time.Millisecond
	stuckStart = time.Minute
)

// TestStartContextEndsAStuckStart: whatever holds a stage's start up, it
// ends with its context, as a *StartError with Step "deadline" wrapping
// the context's cause, and leaves no process behind. Faults: another
// waiter took the stop after the execve the thread waits for (the reaper
// of a subreaper server once did), the re-executed launcher stopped
// before it reported, and the start-up check of ptrace never ending.
func TestStartContextEndsAStuckStart(t *testing.T) {
	sleep := lookPath(t, "sleep")
	faults := []struct {
		name   string
		reexec bool
		hook   func(pid int)
	}{
		{"thread: the stop after execve taken by another waiter", false, func(pid int) {
			var info unix.Siginfo
			unix.Waitid(unix.P_PID, pid, &info, unix.WSTOPPED, nil) // without WNOWAIT: consumed
		}},
		{"reexec: the launcher stopped before its report", true, func(pid int) { unix.Kill(pid, unix.SIGSTOP) }},
	}
	for _, fc := range faults {
		t.Run(fc.name, func(t *testing.T) {
			l := newLauncherMethod(t, Config{Mode: ModeLimits, Limits: DefaultLimits()}, fc.reexec)
			var mu sync.Mutex
			var pids []int
			testHookStarted = func(pid int) {
				mu.Lock()
				pids = append(pids, pid)
				mu.Unlock()
				fc.hook(pid)
			}
			defer func() { testHookStarted = nil }()
			err := startWithin(t, l, sleep)
			checkCut(t, err)
			mu.Lock()
			defer mu.Unlock()
			if len(pids) != 1 {
				t.Fatalf("the hook saw %d starts, want 1", len(pids))
			}
			if err := unix.Kill(pids[0], 0); !errors.Is(err, unix.ESRCH) {
				t.Errorf("the stage %d is still there (kill 0: %v)", pids[0], err)
			}
		})
	}
	t.Run("the start-up check of ptrace never ends", func(t *testing.T) {
		l := newLauncher(t, Config{Mode: ModeLimits, Limits: DefaultLimits()})
		<-l.decideMethod()
		l.methodOnce = sync.Once{}
		l.methodOnce.Do(func() { l.methodSet = make(chan struct{}) }) // never closed
		err := startWithin(t, l, sleep)
		checkCut(t, err)
		if !strings.Contains(err.Error(), "ptrace") {
			t.Errorf("%v does not say what the start waited for", err)
		}
	})
}

// startWithin starts sleep through l under a context of startCut and
// fails the test when the start outlives it by far.
func startWithin(t *testing.T, l *Launcher, sleep string) error {
	t.Helper()
	st := stageOf(t, l.Rules, "/", []string{testPath}, nil, sleep, "100")
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	ctx, cancel := context.WithTimeout(context.Background(), startCut)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		p, err := l.StartContext(ctx, st, &os.ProcAttr{Dir: "/", Env: st.Env, Files: []*os.File{null, null, null}, Sys: &syscall.SysProcAttr{Setpgid: true}})
		if p != nil {
			p.Kill()
			p.Wait()
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(stuckStart):
		t.Fatalf("the start has not ended %v after its context", stuckStart)
		return nil
	}
}

func checkCut(t *testing.T, err error) {
	t.Helper()
	var se *StartError
	if !errors.As(err, &se) || se.Step != "deadline" || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v (%T), want a *StartError with Step deadline wrapping context.DeadlineExceeded", err, err)
	}
}
