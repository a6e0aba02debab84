//go:build linux

package lifetime

import (
	"os"
	"runtime"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReapLeavesTracedStops: a child the reaper does not own, stopped by
// its tracer after its execve (the sandbox's start-up probe and every
// traced stage start that way), keeps its stop for the tracer, with /proc
// children and without; an exited one is still collected.
func TestReapLeavesTracedStops(t *testing.T) {
	sleep := requireSleep(t)
	for _, tc := range []struct {
		name string
		reap func(*Manager)
	}{
		{"children list", (*Manager).reap},
		{"blind", (*Manager).reapBlind},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime.LockOSThread() // the tracer is this thread
			defer runtime.UnlockOSThread()
			m := newManager(Subreaper, nil)
			m.reaping = true
			p, err := os.StartProcess(sleep, []string{"sleep", "100"}, &os.ProcAttr{Files: []*os.File{nil, nil, os.Stderr}, Sys: &syscall.SysProcAttr{Ptrace: true}})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { p.Kill(); p.Wait() }()
			var info unix.Siginfo
			if err := unix.Waitid(unix.P_PID, p.Pid, &info, unix.WSTOPPED|unix.WNOWAIT, nil); err != nil || info.Code == cldExited {
				t.Fatalf("no stop after execve: %v, code %d", err, info.Code)
			}
			tc.reap(m)
			info = unix.Siginfo{}
			if err := unix.Waitid(unix.P_PID, p.Pid, &info, unix.WSTOPPED|unix.WNOHANG|unix.WNOWAIT, nil); err != nil || siginfoPid(&info) != p.Pid {
				t.Fatalf("the reaper took the traced child's stop: %v, pid %d", err, siginfoPid(&info))
			}
			if err := unix.PtraceDetach(p.Pid); err != nil {
				t.Fatal(err)
			}
			p.Kill()
			if err := unix.Waitid(unix.P_PID, p.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
				t.Fatal(err)
			}
			tc.reap(m)
			if _, err := p.Wait(); err == nil {
				t.Error("the reaper left the exited child")
			}
		})
	}
}
