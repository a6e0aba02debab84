//go:build darwin

// Whether a process is gone, on macOS: kqueue's NOTE_EXIT instead of a
// pidfd, wait4(WNOHANG) instead of waitid(WNOWAIT) and /proc (Linux:
// run_linux_test.go).

package runner

import (
	"errors"
	"testing"

	"golang.org/x/sys/unix"
)

// assertGone reads a pid from file and checks that the process has
// exited within exitWithin, and is no unreaped child of the test.
func assertGone(t *testing.T, pidFile string) {
	t.Helper()
	pid := readPID(t, pidFile)
	if !exitsWithin(t, pid) {
		t.Errorf("grandchild %d still running after Run returned", pid)
		return
	}
	if got, _ := unix.Wait4(pid, nil, unix.WNOHANG, nil); got == pid {
		t.Errorf("grandchild %d was an unreaped child of the test", pid)
	}
}

// exitsWithin waits up to exitWithin for pid's NOTE_EXIT; ESRCH at
// registration means it has exited already (or is a zombie).
func exitsWithin(t *testing.T, pid int) bool {
	kq, err := unix.Kqueue()
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(kq)
	ev := []unix.Kevent_t{{Ident: uint64(pid), Filter: unix.EVFILT_PROC, Flags: unix.EV_ADD | unix.EV_ONESHOT, Fflags: unix.NOTE_EXIT}}
	ts := unix.NsecToTimespec(exitWithin.Nanoseconds())
	out := make([]unix.Kevent_t, 1)
	n, err := unix.Kevent(kq, ev, out, &ts)
	if errors.Is(err, unix.ESRCH) {
		return true
	}
	if err != nil {
		t.Fatalf("kevent(%d): %v", pid, err)
	}
	return n > 0
}

// assertNoChildren checks that the test process has no child at all,
// running or zombie (macOS has no lifetime watchdog to except).
func assertNoChildren(t *testing.T) {
	t.Helper()
	pid, err := unix.Wait4(-1, nil, unix.WNOHANG, nil)
	switch {
	case errors.Is(err, unix.ECHILD):
	case err != nil:
		t.Fatal(err)
	case pid > 0:
		t.Errorf("the test had an unreaped child process %d", pid)
	default:
		t.Error("the test still has a running child process")
	}
}
