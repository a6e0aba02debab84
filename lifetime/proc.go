//go:build linux

// Boot-time clock and pidfds: Linux only (mech_other.go has the stand-ins elsewhere).

package lifetime

import (
	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/procfs"
)

// bootTicks is the current time in the unit of procfs.Stat.Start: clock
// ticks (USER_HZ, 100 on every Linux architecture) since boot.
func bootTicks() uint64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts) != nil {
		return 0
	}
	return uint64(ts.Nano()) / 1e7
}

// pidfdOf opens a pidfd for pid and checks, after opening, that it is still
// the process that started at start: from then on the pidfd cannot reach a
// process that reused the pid. It returns -1 when the process is gone or
// is another one.
func pidfdOf(pid int, start uint64) int {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return -1
	}
	if st, err := procfs.ReadStat(pid); err != nil || st.Start != start {
		unix.Close(fd)
		return -1
	}
	return fd
}

// signalPidfd sends sig through fd; errors (the process has exited) are
// ignored.
func signalPidfd(fd int, sig unix.Signal) {
	_ = unix.PidfdSendSignal(fd, sig, nil, 0)
}
