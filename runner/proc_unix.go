//go:build darwin || linux

// Linux and macOS signal each stage's process group (Windows:
// proc_windows.go).

package runner

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// canTerminate: SIGTERM exists, so terminate gives the stages grace.
const canTerminate = true

// signalGroups sends sig to every stage's process group. The pid > 0
// guard matters: kill(0, sig) would signal the server's own group.
func (g *group) signalGroups(sig syscall.Signal) {
	for _, p := range g.procs {
		if p.Pid > 0 {
			_ = unix.Kill(-p.Pid, sig) // ESRCH: the group is already empty
		}
	}
}

// signalName is the name of sig as the result reports it ("SIGKILL").
func signalName(sig syscall.Signal) string { return unix.SignalName(sig) }
