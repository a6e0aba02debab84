//go:build linux

package lifetime

import (
	"log/slog"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestScanLeavesServerSession: a child of the server in the server's own
// session (the sandbox's start-up check of ptrace, started outside the
// Manager) is never a call's, so a walk during a call leaves it running;
// an unowned child in a session of its own, which only a stage's orphan
// can be, that started before every running call is killed.
func TestScanLeavesServerSession(t *testing.T) {
	sleep := requireSleep(t)
	for _, tc := range []struct {
		name   string
		setsid bool
		killed bool
	}{
		{"server's session", false, false},
		{"session of its own", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := os.StartProcess(sleep, []string{"sleep", "100"}, &os.ProcAttr{Files: []*os.File{nil, nil, os.Stderr}, Sys: &syscall.SysProcAttr{Setsid: tc.setsid}})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Kill()
			tr := newTracker(&sync.Mutex{}, func(int) bool { return false }, slog.New(slog.DiscardHandler))
			c := &Call{}
			tr.begin(c)
			defer tr.end(c)
			// The call began after the child started, so start time does
			// not attribute the child to it.
			c.startTicks = ^uint64(0)
			tr.scan()
			// Our SIGTERM after the walk: a child the walk killed has
			// SIGKILL first, so its status tells which came first.
			if err := p.Signal(syscall.SIGTERM); err != nil && !tc.killed {
				t.Fatalf("the child in the server's session is gone: %v", err)
			}
			done := make(chan *os.ProcessState, 1)
			go func() { st, _ := p.Wait(); done <- st }()
			want := map[bool]syscall.Signal{true: syscall.SIGKILL, false: syscall.SIGTERM}[tc.killed]
			select {
			case st := <-done:
				if ws, ok := st.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != want {
					t.Fatalf("the child ended with %v, want %v", st, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the child did not end")
			}
		})
	}
}
