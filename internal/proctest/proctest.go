//go:build linux

// Process-tree test helpers built on pidfds and /proc: Linux only, like
// the lifetime mechanisms they check.

// Package proctest builds and drives the helper program of the
// process-lifetime tests (see helper/main.go) and checks what it left
// behind: which reported processes survive, which children are zombies.
package proctest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/procfs"
)

// RequireEnv lists, comma-separated, the mechanisms the lifetime tests
// must exercise on this machine ("cgroup", "subreaper", "pidns", "pty"):
// CI sets it for what it has checked is available, so that a test which
// would skip fails instead (see .ci/run).
const RequireEnv = "MCP_SHELL_TEST_REQUIRE_LIFETIME"

// Unavailable skips t because what is not available here, or fails it when
// RequireEnv lists what.
func Unavailable(t testing.TB, what, format string, args ...any) {
	t.Helper()
	msg := what + " unavailable: " + fmt.Sprintf(format, args...)
	for w := range strings.SplitSeq(os.Getenv(RequireEnv), ",") {
		if strings.TrimSpace(w) == what {
			t.Fatalf("%s (required by %s)", msg, RequireEnv)
		}
	}
	t.Skip(msg)
}

var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Helper returns the path of the helper binary, built once per test
// process into a temporary directory that Cleanup removes (call it from
// TestMain after m.Run). It skips t when the go tool is not available.
func Helper(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		src := filepath.Join(filepath.Dir(file), "helper")
		built.dir, built.err = os.MkdirTemp("", "proctest-")
		if built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "helper")
		goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goTool); err != nil {
			goTool = "go"
		}
		cmd := exec.Command(goTool, "build", "-o", built.path, ".")
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build helper: %v\n%s", err, out)
		}
	})
	if errors.Is(built.err, exec.ErrNotFound) {
		t.Skipf("cannot build the helper: %v", built.err)
	}
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// Cleanup removes the built helper.
func Cleanup() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// Proc is a reported process: its pid, start time (field 22 of
// /proc/<pid>/stat) and the tag it was given ("-" by default).
type Proc struct {
	Pid   int
	Start uint64
	Tag   string
}

func (p Proc) String() string { return strconv.Itoa(p.Pid) }

// ParseReports parses "PID START TAG" lines.
func ParseReports(b []byte) ([]Proc, error) {
	var out []Proc
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var p Proc
		if _, err := fmt.Sscan(line, &p.Pid, &p.Start, &p.Tag); err != nil {
			return nil, fmt.Errorf("report line %q: %w", line, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// ReadReports reads a report file.
func ReadReports(t testing.TB, path string) []Proc {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the reports: %v", err)
	}
	procs, err := ParseReports(b)
	if err != nil {
		t.Fatal(err)
	}
	return procs
}

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

// Tagged returns the processes of procs tagged tag.
func Tagged(procs []Proc, tag string) []Proc {
	var out []Proc
	for _, p := range procs {
		if p.Tag == tag {
			out = append(out, p)
		}
	}
	return out
}

// Zombies returns the children of pid that are zombies.
func Zombies(pid int) ([]int, error) {
	kids, err := procfs.Children(pid)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, k := range kids {
		if st, err := procfs.ReadStat(k); err == nil && st.Zombie() {
			out = append(out, k)
		}
	}
	return out, nil
}

// Collector reads reports from a FIFO as processes write them.
type Collector struct {
	Path  string
	f     *os.File
	lines chan Proc
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

// Wait returns the next n reports, or fails t after timeout.
func (c *Collector) Wait(t testing.TB, n int, timeout time.Duration) []Proc {
	t.Helper()
	tm := time.NewTimer(timeout)
	defer tm.Stop()
	var out []Proc
	for len(out) < n {
		select {
		case p, ok := <-c.lines:
			if !ok {
				t.Fatalf("reports ended after %d of %d", len(out), n)
			}
			out = append(out, p)
		case <-tm.C:
			t.Fatalf("only %d of %d processes reported within %v", len(out), n, timeout)
		}
	}
	return out
}
