// Package proctest builds and drives the helper program of the
// process-lifetime tests (see helper/main.go) and checks what it left
// behind: which reported processes survive, which children are zombies.
package proctest

import (
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

	"github.com/seed-b63acb1b/mcp-shell-server/internal/procfs"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
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
// TestMain after m.Run). It skips t when no go tool is on PATH (see
// testenv.Missing).
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
		goTool, err := exec.LookPath("go")
		if err != nil {
			built.err = fmt.Errorf("building the helper: %w", err)
			return
		}
		cmd := exec.Command(goTool, "build", "-o", built.path, ".")
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build helper: %v\n%s", err, out)
		}
	})
	if errors.Is(built.err, exec.ErrNotFound) {
		testenv.Missing(t, fmt.Sprintf("cannot build the helper: %v", built.err))
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
