//go:build darwin

// macOS stages lead their own session and process group, as on Linux,
// but have no parent-death signal and no cgroup; macOS has no waitid in
// x/sys/unix, so a stage's exit is observed with kqueue (EVFILT_PROC,
// NOTE_EXIT), which does not reap it either.

package runner

import (
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
)

// stageAttr is the SysProcAttr of a stage: its own session (see
// startStage). Without a parent-death signal, a stage outlives a
// SIGKILLed server (lifetime mechanism pgroup).
func stageAttr(*lifetime.Call) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}

// waitExited blocks until pid has exited without reaping it. Registering
// for a process that is already a zombie fails with ESRCH, which also
// means it has exited.
func waitExited(pid int) {
	kq, err := unix.Kqueue()
	if err != nil {
		return // cannot watch: the caller's Wait still reaps it
	}
	defer unix.Close(kq)
	ev := []unix.Kevent_t{{Ident: uint64(pid), Filter: unix.EVFILT_PROC, Flags: unix.EV_ADD | unix.EV_ONESHOT, Fflags: unix.NOTE_EXIT}}
	out := make([]unix.Kevent_t, 1)
	for {
		n, err := unix.Kevent(kq, ev, out, nil)
		if err == unix.EINTR {
			ev = nil // registered already
			continue
		}
		if err != nil || n > 0 {
			return
		}
	}
}
