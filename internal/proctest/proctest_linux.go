//go:build linux

// What pidfds, /proc start times and FIFOs of the lifetime tests need:
// Linux only, like the mechanisms they check.

package proctest

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/procfs"
	"golang.org/x/sys/unix"
)

// Survivors returns the processes of procs still running once within has
// passed (a zombie has exited and does not count). It waits on pidfds,
// which become readable when their process exits, so it returns as soon
// as every process is gone.
func Survivors(procs []Proc, within time.Duration) []Proc {
	deadline := time.Now().Add(within)
	var out []Proc
	for _, p := range procs {
		fd, err := unix.PidfdOpen(p.Pid, 0)
		if err != nil {
			continue // ESRCH: gone and reaped
		}
		if st, ok := startOf(p.Pid); !ok || st != p.Start {
			unix.Close(fd) // the pid was reused: the reported process is gone
			continue
		}
		if !exitedBy(fd, deadline) {
			out = append(out, p)
		}
		unix.Close(fd)
	}
	return out
}

// WaitExit waits up to timeout for the process behind pidfd fd to exit and
// reports whether it did.
func WaitExit(fd int, timeout time.Duration) bool { return exitedBy(fd, time.Now().Add(timeout)) }

// exitedBy waits until the process behind pidfd fd exits or deadline
// passes, and reports whether it exited. poll is restarted after EINTR (the
// Go runtime's preemption signal interrupts it).
func exitedBy(fd int, deadline time.Time) bool {
	for {
		left := max(0, time.Until(deadline))
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, int(left.Milliseconds()))
		if err == unix.EINTR {
			continue
		}
		return err == nil && n > 0
	}
}

// Kill SIGKILLs procs (the survivors of a test that expected them, so that
// they do not outlive it), checking the start time first.
func Kill(procs []Proc) {
	for _, p := range procs {
		fd, err := unix.PidfdOpen(p.Pid, 0)
		if err != nil {
			continue
		}
		if st, ok := startOf(p.Pid); ok && st == p.Start {
			_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		}
		unix.Close(fd)
	}
}

func startOf(pid int) (uint64, bool) {
	st, err := procfs.ReadStat(pid)
	return st.Start, err == nil
}

// NewCollector creates a FIFO in dir and starts reading it. It is opened
// read-write so that it never reaches EOF between writers.
func NewCollector(t testing.TB, dir string) *Collector {
	t.Helper()
	path := filepath.Join(dir, "reports.fifo")
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := &Collector{Path: path, f: f, lines: make(chan Proc, 1024)}
	go func() {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if ps, err := ParseReports(sc.Bytes()); err == nil {
				for _, p := range ps {
					c.lines <- p
				}
			}
		}
		close(c.lines)
	}()
	t.Cleanup(func() { f.Close() })
	return c
}
