//go:build linux

// Whether a process is gone, seen through pidfds, waitid and /proc:
// Linux (run_darwin_test.go has the macOS equivalents).

package runner

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/procfs"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/proctest"
	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
	"golang.org/x/sys/unix"
)

// assertGone reads a pid from file and checks that the process has
// exited: it is gone, or a zombie awaiting reaping by someone else
// (init or a subreaper), never a child of the test.
func assertGone(t *testing.T, pidFile string) {
	t.Helper()
	pid := readPID(t, pidFile)
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return
	}
	if err != nil {
		t.Fatalf("pidfd_open(%d): %v", pid, err)
	}
	defer unix.Close(fd)
	// A pidfd becomes readable when the process exits; SIGKILL was sent
	// before Run returned, so this is a bounded wait, not a sleep.
	if !proctest.WaitExit(fd, exitWithin) {
		t.Errorf("grandchild %d still running after Run returned", pid)
		return
	}
	if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) {
			t.Errorf("grandchild %d is an unreaped child of the test: %s", pid, stat)
		}
	}
}

// assertNoChildren checks that the test process has no child at all,
// running or zombie, other than the lifetime watchdog (under a lifetime
// mechanism, see TestLifetimeMechanisms).
func assertNoChildren(t *testing.T) {
	t.Helper()
	var info unix.Siginfo
	err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	if errors.Is(err, unix.ECHILD) {
		return
	}
	kids, err := procfs.Children(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	for _, pid := range kids {
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if !bytes.Contains(cmdline, []byte(lifetime.WatchdogArg)) {
			t.Errorf("the test still has child process %d (%q)", pid, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
		}
	}
}
