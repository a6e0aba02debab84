//go:build linux

// Linux stages: own session, parent-death signal and the call's cgroup
// (see startStage); their exit is observed with waitid(WNOWAIT).

package runner

import (
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
)

// stageAttr is the SysProcAttr of a stage of c (see startStage).
func stageAttr(c *lifetime.Call) *syscall.SysProcAttr {
	fd := c.CgroupFD()
	return &syscall.SysProcAttr{
		Setsid:      true,
		Pdeathsig:   syscall.SIGKILL,
		UseCgroupFD: fd >= 0,
		CgroupFD:    fd,
	}
}

// waitExited blocks until pid has exited without reaping it.
func waitExited(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return // nil, or ECHILD if it is gone already
		}
	}
}
