//go:build linux

// The reaper of orphans (PID 1 or child subreaper): Linux only (mech_other.go has the stand-ins elsewhere).

package lifetime

import (
	"os"
	"os/signal"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/procfs"
)

// reapLoop collects, on every SIGCHLD, each child of the server that no
// one waits for: when the server is PID 1 or a child subreaper, orphaned
// descendants are handed to it and would otherwise stay zombies. Children
// started through the Manager (stages, the watchdog) are left to their
// owners, who reap them with os.Process.Wait.
func (m *Manager) reapLoop() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, unix.SIGCHLD)
	m.reap()
	for range ch {
		m.reap()
		if m.tr != nil {
			m.tr.scan() // orphans have just been handed over: attribute them now
		}
	}
}

// reap collects every exited child that is not owned, and nothing else
// (hasExited). forkMu keeps a child that was just forked, but not yet
// registered, from being taken for an orphan.
func (m *Manager) reap() {
	if !m.reaping {
		return
	}
	m.forkMu.Lock()
	defer m.forkMu.Unlock()
	kids, err := procfs.Children(os.Getpid())
	if err != nil {
		m.reapBlind()
		return
	}
	for _, pid := range kids {
		if m.isOwned(pid) || !hasExited(pid) {
			continue
		}
		var info unix.Siginfo
		for unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG, nil) == unix.EINTR {
		}
	}
}

// hasExited reports whether child pid has exited, without collecting
// anything. The reaper must look before it waits: wait(2) reports a
// traced child's stop whatever the options say (kernel/exit.c
// wait_task_stopped: "we see ptrace'd stopped tasks regardless of
// options"), and a wait without WNOWAIT consumes it, so a tracer in the
// server that waits for that stop (the sandbox's, after a stage's execve)
// would wait forever.
func hasExited(pid int) bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return err == nil && siginfoPid(&info) == pid && isExit(info.Code)
		}
	}
}

// isExit reports whether a waitid(2) si_code is an exit (CLD_EXITED,
// CLD_KILLED, CLD_DUMPED: include/uapi/asm-generic/siginfo.h) rather
// than a stop or a continue.
func isExit(code int32) bool { return code >= cldExited && code <= cldDumped }

// The si_code values of an exited child.
const (
	cldExited = 1
	cldDumped = 3
)

// reapBlind is reap without /proc/<pid>/task/<tid>/children: it peeks at
// exited children one at a time (WNOWAIT) and reaps those not owned. It
// stops at the first owned zombie or traced child's stop, which hides the
// ones behind it until its owner has reaped it (or its tracer resumed
// it); the next SIGCHLD comes back for them.
func (m *Manager) reapBlind() {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		if err == unix.EINTR {
			continue
		}
		pid := siginfoPid(&info)
		if err != nil || pid == 0 || m.isOwned(pid) || !isExit(info.Code) {
			return // a traced child's stop (see hasExited) is its tracer's
		}
		var ws unix.WaitStatus
		_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil)
	}
}

// siginfoPid returns si_pid of a waitid(2) result. x/sys/unix leaves the
// union opaque; si_pid is its first member, which starts after three
// int32 fields, aligned to a pointer.
func siginfoPid(info *unix.Siginfo) int {
	off := uintptr(12)
	if unsafe.Sizeof(uintptr(0)) == 8 {
		off = 16
	}
	return int(*(*int32)(unsafe.Add(unsafe.Pointer(info), off)))
}
