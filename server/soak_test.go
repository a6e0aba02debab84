package server

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// soakCalls is the soak's length under testenv.Heavy; without it the
// soak makes testenv.Scaled(soakCalls) calls, and -short a tenth of that.
const soakCalls = 10000

// TestSoakJobsAndForeground makes soakCalls tool calls on eight
// concurrent sessions: one step in five starts a background job that is
// waited for and read (three calls), one in five chains a retained output
// into sort, the rest are foreground calls whose output is retained under
// a quota small enough to evict all the time. Before and after, it counts goroutines, open
// descriptors and child processes, and every 250 calls the bytes in the
// store's directory, which must never pass the quota.
func TestSoakJobsAndForeground(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("counts descriptors and children through /proc")
	}
	n := testenv.Scaled(soakCalls)
	if testing.Short() {
		n /= 10
	}
	o := jobOptions(t, "head", "sort")
	const quota = 64 << 10
	o.Jobs.Retain.Quota, o.Jobs.Retain.PerStream, o.Jobs.MaxJobs = quota, 8<<10, 8
	o.MaxConcurrent = 8
	os.WriteFile(filepath.Join(o.Policy.AllowedDirs()[0], "data"), bytes.Repeat([]byte("soak line\n"), 1000), 0o644)
	s, _ := newServer(t, o)
	defer s.Shutdown(context.Background())
	sessions := make([]*mcp.ClientSession, 8)
	for i := range sessions {
		sessions[i] = connect(t, s)
	}

	var done, jobsRun, chained, toolCalls, peakDisk atomic.Int64
	var failed atomic.Value
	fail := func(err error) { failed.CompareAndSwap(nil, err) }
	run := func(calls int) {
		var wg sync.WaitGroup
		for w, cs := range sessions {
			wg.Go(func() {
				var last string
				for i := w; toolCalls.Load() < int64(calls); i += len(sessions) {
					if failed.Load() != nil {
						return
					}
					if err := soakCall(cs, i, &last, &jobsRun, &chained, &toolCalls); err != nil {
						fail(fmt.Errorf("call %d: %w", i, err))
						return
					}
					if d := done.Add(1); d%250 == 0 {
						used := dirBytes(s.bg.store.Dir())
						for p := peakDisk.Load(); used > p && !peakDisk.CompareAndSwap(p, used); p = peakDisk.Load() {
						}
					}
				}
			})
		}
		wg.Wait()
	}
	run(200) // warm-up: sessions, pools, the first jobs
	toolCalls.Store(0)
	before := sample(t)
	begin := time.Now()
	done.Store(0)
	jobsRun.Store(0)
	chained.Store(0)
	run(n)
	took := time.Since(begin)
	if err, _ := failed.Load().(error); err != nil {
		t.Fatal(err)
	}
	after := settleSample(t, before)
	t.Logf("%d tool calls in %.1fs (%.0f/s): %d background jobs started, waited for and read, %d chained calls, the rest foreground; goroutines %d -> %d, fds %d -> %d, children %d -> %d; store peak %d bytes on disk (quota %d), %d outputs and %d jobs at the end",
		toolCalls.Load(), took.Seconds(), float64(toolCalls.Load())/took.Seconds(), jobsRun.Load(), chained.Load(),
		before.goroutines, after.goroutines, before.fds, after.fds, before.children, after.children, peakDisk.Load(), quota, s.bg.store.Len(), len(s.bg.table.List()))
	if after.goroutines > before.goroutines+2 || after.fds > before.fds || after.children != 0 {
		t.Errorf("growth: goroutines %+d, fds %+d, children %d", after.goroutines-before.goroutines, after.fds-before.fds, after.children)
	}
	if peakDisk.Load() > quota || s.bg.store.Used() > quota {
		t.Errorf("store at %d bytes (peak %d), quota %d", s.bg.store.Used(), peakDisk.Load(), quota)
	}
	if jobs, outputs := len(s.bg.table.List()), s.bg.store.Len(); jobs > outputs {
		t.Errorf("%d jobs in the table, %d outputs: evicted jobs were not removed", jobs, outputs)
	}
	if running, queued := s.bg.table.Counts(); running != 0 || queued != 0 {
		t.Errorf("%d jobs running and %d queued after the soak", running, queued)
	}
}

// soakCall is call i of the mix. last is the session's latest output id.
func soakCall(cs *mcp.ClientSession, i int, last *string, jobsRun, chained, toolCalls *atomic.Int64) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	callMap := func(name string, args map[string]any) (*mcp.CallToolResult, map[string]any, error) {
		toolCalls.Add(1)
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			return nil, nil, err
		}
		m, _ := r.StructuredContent.(map[string]any)
		return r, m, nil
	}
	switch i % 5 {
	case 0:
		_, m, err := callMap("shell_execute", map[string]any{"command": []string{"head", "-c", "2000", "data"}, "background": true})
		if err != nil {
			return err
		}
		id, _ := m["job_id"].(string)
		if id == "" {
			return fmt.Errorf("no job: %v", m)
		}
		// Under this small quota other sessions' output may evict the
		// job's output, and the job with it, as soon as it ends.
		r, st, err := callMap("job_status", map[string]any{"id": id, "wait": 30})
		if err != nil || !r.IsError && st["state"] != "exited" || r.IsError && !strings.Contains(resultText(r), "evicted") {
			return fmt.Errorf("job %s: %q %v %v", id, resultText(r), st, err)
		}
		r, rd, err := callMap("read_output", map[string]any{"id": id})
		if err != nil || !r.IsError && rd["bytes"] != 2000.0 || r.IsError && !strings.Contains(resultText(r), "evicted") {
			return fmt.Errorf("read of %s: %q %v", id, resultText(r), err)
		}
		jobsRun.Add(1)
	case 1:
		if *last == "" {
			return nil
		}
		r, m, err := callMap("shell_execute", map[string]any{"command": []string{"sort", "-u"}, "stdin_output_id": *last})
		if err != nil {
			return err
		}
		if !r.IsError {
			if m["stdout"] != "soak line\n" {
				return fmt.Errorf("chained sort: %v", m["stdout"])
			}
			chained.Add(1)
		} else if !strings.Contains(resultText(r), "evicted") {
			return fmt.Errorf("chain: %q", resultText(r))
		}
	default:
		r, m, err := callMap("shell_execute", map[string]any{"command": []string{"head", "-c", "3000", "data"}})
		if err != nil || r.IsError {
			return fmt.Errorf("foreground: %v %v", r, err)
		}
		*last, _ = m["output_id"].(string)
	}
	return nil
}

// resources is what the soak counts of this process.
type resources struct{ goroutines, fds, children int }

func sample(t *testing.T) resources {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return resources{goroutines: runtime.NumGoroutine(), fds: len(fds), children: children(os.Getpid())}
}

// settleSample samples once the goroutines of the last calls have ended
// (a session's reader, a timer's callback): polling the runtime, which has
// no signal for "every goroutine finished", for up to 30 seconds (a
// loaded machine's scheduler is slow to run them; the loop ends as soon
// as the counts are back).
func settleSample(t *testing.T, before resources) resources {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := sample(t)
		if r.goroutines <= before.goroutines && r.fds <= before.fds && r.children == 0 || time.Now().After(deadline) {
			return r
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// children counts the processes whose parent is pid, zombies included.
func children(pid int) int {
	ents, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			n++
		}
	}
	return n
}

// dirBytes is the size of the files in dir.
func dirBytes(dir string) int64 {
	ents, _ := os.ReadDir(dir)
	var n int64
	for _, e := range ents {
		if fi, err := e.Info(); err == nil {
			n += fi.Size()
		}
	}
	return n
}
