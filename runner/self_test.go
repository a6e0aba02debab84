package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// These tests run the test binary itself as the program (selfArg), so
// that they need no sh or coreutils and run on every platform, Windows
// (where the call's Job Object does the killing) included.

// selfArg is os.Args[1] of the test binary acting as a stage.
const selfArg = "__runner-test-self"

// runSelf is the selfArg mode: "echo WORD..." prints the words and exits
// 3; "tree FILE" starts a copy of itself in mode "block", writes that
// grandchild's pid to FILE, prints "started" and blocks; "block" blocks
// until it is killed.
func runSelf(args []string) int {
	switch args[0] {
	case "echo":
		fmt.Println(strings.Join(args[1:], " "))
		return 3
	case "tree":
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		gc := exec.Command(exe, selfArg, "block")
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := os.WriteFile(args[1], []byte(strconv.Itoa(gc.Process.Pid)), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println("started")
	}
	time.Sleep(time.Hour) // until killed: there is nothing to wait for
	return 0
}

// selfSpec is a spec whose one stage is the test binary in selfArg mode.
func selfSpec(t *testing.T, args ...string) tspec {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := []string{}
	if runtime.GOOS == "windows" {
		env = append(env, "SYSTEMROOT="+os.Getenv("SYSTEMROOT")) // without it Go programs cannot start on Windows
	}
	return tspec{
		Stages: [][]string{append([]string{exe, selfArg}, args...)},
		Dir:    pinned(t, t.TempDir()),
		Env:    env,
		Spec:   Spec{Timeout: 20 * time.Second, OutputLimit: 1 << 20, KillGrace: grace},
	}
}

func TestSelfExitAndOutput(t *testing.T) {
	r, err := Run(context.Background(), selfSpec(t, "echo", "hello", "world").build(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != Success || r.ExitCode == nil || *r.ExitCode != 3 || string(r.Stdout) != "hello world\n" {
		t.Errorf("got outcome %v exit %v stdout %q stderr %q; want success, exit 3, \"hello world\\n\"", r.Outcome, r.ExitCode, r.Stdout, r.Stderr)
	}
}

// TestSelfTimeoutKillsTree: the timeout ends the stage and the grandchild
// it started (its process group; on Windows the call's Job Object).
func TestSelfTimeoutKillsTree(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "gc.pid")
	s := selfSpec(t, "tree", pidFile)
	s.Timeout = time.Second
	r, err := Run(context.Background(), s.build(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != TimedOut || !strings.Contains(string(r.Stdout), "started") {
		t.Fatalf("got outcome %v stdout %q stderr %q; want a timeout after \"started\"", r.Outcome, r.Stdout, r.Stderr)
	}
	if limit := s.Timeout + grace + eofWait + slack; r.Duration > limit {
		t.Errorf("Run took %v, want under %v", r.Duration, limit)
	}
	assertGone(t, pidFile)
}
