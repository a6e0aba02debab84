package runner

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// These tests run helper stages only (helper_test.go), so they need no sh
// or coreutils and run on every platform, Windows (where the call's Job
// Object does the killing) included.

// helperSpec is a spec whose one stage is helper name.
func helperSpec(t *testing.T, name string, args ...string) tspec {
	env := []string{}
	if runtime.GOOS == "windows" {
		env = append(env, "SYSTEMROOT="+os.Getenv("SYSTEMROOT")) // without it Go programs cannot start on Windows
	}
	return tspec{
		Stages: [][]string{helper(t, name, args...)},
		Dir:    pinned(t, t.TempDir()),
		Env:    env,
		Spec:   Spec{Timeout: 20 * time.Second, OutputLimit: 1 << 20, KillGrace: grace},
	}
}

func TestHelperExitAndOutput(t *testing.T) {
	r, err := Run(context.Background(), helperSpec(t, "echo", "hello", "world").build(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != Success || r.ExitCode == nil || *r.ExitCode != 0 || string(r.Stdout) != "hello world\n" {
		t.Errorf("got outcome %v exit %v stdout %q stderr %q; want success, exit 0, \"hello world\\n\"", r.Outcome, r.ExitCode, r.Stdout, r.Stderr)
	}
	r, err = Run(context.Background(), helperSpec(t, "exit", "3").build(t))
	if err != nil || r.Outcome != Success || r.ExitCode == nil || *r.ExitCode != 3 {
		t.Errorf("exit 3: got outcome %v exit %v stderr %q, %v", r.Outcome, r.ExitCode, r.Stderr, err)
	}
}

// TestHelperTimeoutKillsTree: the timeout ends the stage and the
// grandchild it started (its process group; on Windows the call's Job
// Object), without waiting for the grandchild to end on its own.
func TestHelperTimeoutKillsTree(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "gc.pid")
	s := helperSpec(t, "tree", pidFile)
	s.Timeout = time.Second
	r, err := Run(context.Background(), s.build(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != TimedOut || !strings.Contains(string(r.Stdout), "started") {
		t.Fatalf("got outcome %v stdout %q stderr %q; want a timeout after \"started\"", r.Outcome, r.Stdout, r.Stderr)
	}
	notWaitedFor(t, r)
	assertGone(t, pidFile)
}

// notWaitedFor fails t when the call lasted long enough to have waited
// for a sleeper (beforeSleeper); the duration itself is only logged, since
// a loaded machine stretches it.
func notWaitedFor(t *testing.T, r Result) {
	t.Helper()
	t.Logf("figures: the call took %v", r.Duration.Round(time.Millisecond))
	if r.Duration > beforeSleeper {
		t.Errorf("the call took %v: it waited for a process that sleeps %v", r.Duration, sleeperLife)
	}
}
