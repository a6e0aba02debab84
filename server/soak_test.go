package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
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

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/procfs"
	"github.com/seed-b63acb1b/mcp-shell-server/outputs"
)

// soakCalls is the soak's length in the README's test command (10-30 s
// under -race on two cores); MCP_SHELL_SOAK_CALLS sets another, and CI runs
// 50,000 (.ci/run). -short runs a fifth.
const soakCalls = 1000

// soakSamples is how many times the soak samples after its warm-up: the
// growth is judged on the last against the first, the slope printed from
// all of them.
const soakSamples = 6

// The tolerances of the soak, after a warm-up that has filled the store to
// its bounds and grown every pool. They are absolute, not per call: a
// store that keeps something per call fails them by a margin that grows
// with the length (one that keeps each finished output in an index until
// its TTL, even once deleted, adds over two heap objects per call in this
// mix, 3,500 over the default length, measured; 100,000 objects and some
// 13 MiB over CI's).
const (
	// soakHeapObjects: live heap objects after two collections vary with
	// what the SDK's sessions and the runtime hold between calls: by about
	// a hundred (of some 8,000) between samples, measured.
	soakHeapObjects = 600
	// soakHeap: the live heap's bytes vary with the buffers the last calls
	// left in the store's memory (at most Config.Memory, 16 KiB here) and
	// the SDK's per-session state.
	soakHeap = 2 << 20
	// soakRSS: the Go heap is returned to the OS lazily (flat within
	// 3 MiB of 63 MiB over 10,000 calls, measured); under -race add the
	// detector's shadow memory, which grows with every heap page touched
	// until the heap's range is covered (+15 MiB over the first 1,500).
	soakRSS     = 8 << 20
	soakRSSRace = 32 << 20
	// soakThreads: the runtime adds an OS thread when every one is
	// blocked in a system call (a burst of process starts) and keeps it.
	soakThreads = 4
	// soakEntries: files in the store's directory, bounded by the quota
	// (each at least one byte); the count at one moment depends on which
	// calls just ran.
	soakEntries = 64
)

// soakResources is what the soak samples of this process and its server.
type soakResources struct {
	calls       int64
	heapObjects uint64
	heapKiB     int64 // live heap bytes
	rssKiB      int64
	threads     int
	goroutines  int
	fds         int
	children    int
	entries     int // in the store's directory
	store       outputs.Stats
	jobs        int // in the job table
}

// TestSoak makes soakCalls tool calls on eight concurrent sessions: small
// outputs (held in memory), outputs past the text limit (in files, read
// back from the marker's offset), calls that print nothing, refusals,
// background jobs (waited for and read) and chained calls, under a quota
// and an output count small enough to evict all the time. After a
// warm-up it samples live heap objects, RSS, OS threads, goroutines,
// descriptors, children and the store's directory and figures, and fails
// on growth past the tolerances above, on a store figure past its bound,
// and on any bytes on disk past the quota. It does not run in parallel:
// it measures the whole process.
func TestSoak(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts descriptors, threads and children through /proc")
	}
	n := int64(soakCalls)
	if v := os.Getenv("MCP_SHELL_SOAK_CALLS"); v != "" {
		var err error
		if n, err = strconv.ParseInt(v, 10, 64); err != nil || n < 100 {
			t.Fatalf("MCP_SHELL_SOAK_CALLS=%q: want a count of at least 100", v)
		}
	} else if testing.Short() {
		n /= 5
	}
	o := jobOptions(t, "head", "sort", "true", "echo")
	const quota = 64 << 10
	o.Jobs.Retain.Quota, o.Jobs.Retain.PerStream, o.Jobs.MaxJobs = quota, 8<<10, 8
	o.Jobs.Retain.MaxOutputs, o.Jobs.Retain.Memory = 256, 16<<10
	o.MaxConcurrent = 8
	os.WriteFile(filepath.Join(o.Policy.AllowedDirs()[0], "data"), bytes.Repeat([]byte("soak line\n"), 1000), 0o644)
	// The audit records go nowhere: a test's in-memory log would grow
	// with every call, which is the test's memory, not the server's.
	o.Audit = audit.New(io.Discard)
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	sessions := make([]*mcp.ClientSession, 8)
	for i := range sessions {
		sessions[i] = connect(t, s)
	}
	var toolCalls atomic.Int64
	var counts soakCounts
	var failed atomic.Value
	// round makes calls more tool calls, then returns with every session
	// idle.
	round := func(calls int64) {
		goal := toolCalls.Load() + calls
		var wg sync.WaitGroup
		for w, cs := range sessions {
			wg.Go(func() {
				var last string
				for i := w; toolCalls.Load() < goal && failed.Load() == nil; i += len(sessions) {
					if err := soakCall(cs, i, &last, &counts, &toolCalls); err != nil {
						failed.CompareAndSwap(nil, fmt.Errorf("call %d: %w", i, err))
					}
				}
			})
		}
		wg.Wait()
		if err, _ := failed.Load().(error); err != nil {
			t.Fatal(err)
		}
	}
	fillTombstones(t, s)
	warm := max(n/10, 300)
	round(warm)
	begin := time.Now()
	samples := []soakResources{soakSample(t, s, toolCalls.Load(), nil)}
	for range soakSamples - 1 {
		round(n / (soakSamples - 1))
		samples = append(samples, soakSample(t, s, toolCalls.Load(), &samples[0]))
	}
	took := time.Since(begin)
	first, last := samples[0], samples[len(samples)-1]
	calls := last.calls - first.calls
	t.Logf("%d tool calls after %d of warm-up in %.1fs (%.0f/s): %s", calls, first.calls, took.Seconds(), float64(calls)/took.Seconds(), counts.String())
	for _, m := range soakMetrics {
		t.Logf("%-13s %s (slope %+.1f per 1,000 calls, tolerance %+d)", m.name, m.series(samples), slope(samples, m.value)*1000, m.tolerance)
		from := first
		if m.plateau {
			from = samples[len(samples)/2]
		}
		if g := m.value(last) - m.value(from); g > float64(m.tolerance) {
			t.Errorf("%s grew by %+.0f over %d calls (tolerance %+d): %s", m.name, g, calls, m.tolerance, m.series(samples))
		}
	}
	for _, r := range samples {
		checkStoreBounds(t, s, r)
	}
	if last.children != 0 {
		t.Errorf("%d child processes after the soak", last.children)
	}
	if running, queued := s.bg.table.Counts(); running != 0 || queued != 0 {
		t.Errorf("%d jobs running and %d queued after the soak", running, queued)
	}
	if counts.jobs.Load() == 0 || counts.chained.Load() == 0 || counts.cut.Load() == 0 || counts.refused.Load() == 0 || counts.empty.Load() == 0 || counts.small.Load() == 0 {
		t.Errorf("a kind of call never ran: %s", counts.String())
	}
}

// fillTombstones deletes outputs until the store remembers as many
// deleted ids as it may (1024), part of the warm-up: the soak's own calls
// would take thousands to get there, and until then each deletion adds
// one, which the soak would read as growth.
func fillTombstones(t *testing.T, s *Server) {
	t.Helper()
	for s.bg.store.Stats().Tombstones < 1024 {
		o, err := s.bg.store.Create()
		if err != nil {
			t.Fatal(err)
		}
		o.Stdout().Write([]byte("x"))
		o.Finish() // the count bound evicts the oldest, leaving its tombstone
	}
}

func rssTolerance() int {
	if raceEnabled {
		return soakRSSRace
	}
	return soakRSS
}

// soakMetric is one figure the soak judges, in its unit.
type soakMetric struct {
	name      string
	value     func(soakResources) float64
	tolerance int
	// plateau: the figure is judged over the second half of the samples.
	// It settles at a level set by the busiest moment so far (threads
	// kept after a burst of blocking system calls on a loaded machine),
	// so only growth that goes on past the middle is a leak.
	plateau bool
}

var soakMetrics = []soakMetric{
	{"heap objects", func(r soakResources) float64 { return float64(r.heapObjects) }, soakHeapObjects, false},
	{"heap KiB", func(r soakResources) float64 { return float64(r.heapKiB) }, soakHeap >> 10, false},
	{"RSS KiB", func(r soakResources) float64 { return float64(r.rssKiB) }, rssTolerance() >> 10, false},
	{"OS threads", func(r soakResources) float64 { return float64(r.threads) }, soakThreads, true},
	{"goroutines", func(r soakResources) float64 { return float64(r.goroutines) }, 2, false},
	{"descriptors", func(r soakResources) float64 { return float64(r.fds) }, 0, false},
	{"store entries", func(r soakResources) float64 { return float64(r.entries) }, soakEntries, false},
	{"outputs", func(r soakResources) float64 { return float64(r.store.Outputs) }, 256, false},
	{"tombstones", func(r soakResources) float64 { return float64(r.store.Tombstones) }, 0, false},
}

func (m soakMetric) series(rs []soakResources) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, strconv.FormatFloat(m.value(r), 'f', 0, 64))
	}
	return strings.Join(parts, " → ")
}

// slope is the least-squares growth of value per call over the samples.
func slope(rs []soakResources, value func(soakResources) float64) float64 {
	var sx, sy, sxx, sxy float64
	for _, r := range rs {
		x, y := float64(r.calls), value(r)
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	k := float64(len(rs))
	if d := k*sxx - sx*sx; d != 0 {
		return (k*sxy - sx*sy) / d
	}
	return 0
}

// checkStoreBounds asserts that every figure of the store is within its
// setting at sample r, and that the directory holds exactly the files the
// store counts, within the quota.
func checkStoreBounds(t *testing.T, s *Server, r soakResources) {
	t.Helper()
	cfg := s.opts.Jobs.Retain
	st := r.store
	if st.Outputs > cfg.MaxOutputs || st.Finished > st.Outputs || st.Bytes > cfg.Quota || st.Memory > cfg.Memory || st.Files > 2*st.Outputs || st.Tombstones > 1024 {
		t.Errorf("after %d calls the store is past a bound: %+v (MaxOutputs %d, quota %d, memory %d)", r.calls, st, cfg.MaxOutputs, cfg.Quota, cfg.Memory)
	}
	if r.entries != st.Files {
		t.Errorf("after %d calls: %d files in the store's directory, %d counted", r.calls, r.entries, st.Files)
	}
	if r.jobs > st.Outputs {
		t.Errorf("after %d calls: %d jobs in the table, %d outputs: evicted jobs were not removed", r.calls, r.jobs, st.Outputs)
	}
}

// soakSample samples once the goroutines of the last calls have ended (a
// session's reader, a job's end hook): polling the runtime, which has no
// signal for "every goroutine finished", for up to 5 seconds, until
// goroutines and descriptors are back to ref's.
func soakSample(t *testing.T, s *Server, calls int64, ref *soakResources) soakResources {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := soakRead(t, s, calls)
		if ref == nil || r.goroutines <= ref.goroutines && r.fds <= ref.fds && r.children == 0 || time.Now().After(deadline) {
			return r
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func soakRead(t *testing.T, s *Server, calls int64) soakResources {
	t.Helper()
	runtime.GC()
	runtime.GC() // the second frees what the first only unlinked (sync.Pool's victim cache)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(s.bg.store.Dir())
	if err != nil {
		t.Fatal(err)
	}
	return soakResources{
		calls: calls, heapObjects: ms.HeapObjects, heapKiB: int64(ms.HeapAlloc >> 10),
		rssKiB: statusField(status, "VmRSS"), threads: int(statusField(status, "Threads")),
		goroutines: runtime.NumGoroutine(), fds: len(fds), children: children(os.Getpid()),
		entries: len(ents), store: s.bg.store.Stats(), jobs: len(s.bg.table.List()),
	}
}

// statusField is the number of a /proc/self/status line ("VmRSS:  1234 kB").
func statusField(status []byte, key string) int64 {
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			n, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return n
		}
	}
	return -1
}

// soakCounts are the calls of each kind the soak made.
type soakCounts struct{ jobs, chained, cut, refused, empty, small, evicted atomic.Int64 }

func (c *soakCounts) String() string {
	return fmt.Sprintf("%d background jobs started, waited for and read; %d chained calls; %d outputs past the text limit read back; %d refusals; %d calls that printed nothing; %d small outputs; %d reads that found their output evicted",
		c.jobs.Load(), c.chained.Load(), c.cut.Load(), c.refused.Load(), c.empty.Load(), c.small.Load(), c.evicted.Load())
}

// soakCall is step i of the mix (one to three tool calls). last is the
// session's latest output id. Under the soak's small quota other
// sessions' output may evict any finished output at any moment, so a
// read or a chain may find it evicted; anything else is a failure.
func soakCall(cs *mcp.ClientSession, i int, last *string, c *soakCounts, toolCalls *atomic.Int64) error {
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
	evicted := func(r *mcp.CallToolResult) bool {
		if r.IsError && strings.Contains(resultText(r), "evicted") {
			c.evicted.Add(1)
			return true
		}
		return false
	}
	switch i % 10 {
	case 0:
		_, m, err := callMap("shell_execute", map[string]any{"command": []string{"head", "-c", "2000", "data"}, "background": true})
		if err != nil {
			return err
		}
		id, _ := m["job_id"].(string)
		if id == "" {
			return fmt.Errorf("no job: %v", m)
		}
		r, st, err := callMap("job_status", map[string]any{"id": id, "wait": 30})
		if err != nil || !evicted(r) && st["state"] != "exited" {
			return fmt.Errorf("job %s: %q %v %v", id, resultText(r), st, err)
		}
		r, rd, err := callMap("read_output", map[string]any{"id": id})
		if err != nil || !evicted(r) && rd["bytes"] != 2000.0 {
			return fmt.Errorf("read of %s: %q %v", id, resultText(r), err)
		}
		c.jobs.Add(1)
	case 1:
		if *last == "" {
			return nil
		}
		r, m, err := callMap("shell_execute", map[string]any{"command": []string{"sort", "-u"}, "stdin_output_id": *last})
		if err != nil || !evicted(r) && (r.IsError || m["stdout"] != "soak line\n") {
			return fmt.Errorf("chained sort: %q %v %v", resultText(r), m, err)
		}
		c.chained.Add(1)
	case 2:
		argv := []string{"rm", "data"} // not allowed
		if i%20 == 12 {
			argv = []string{"sort", "-o", "/tmp/x", "data"} // an option the rules refuse
		}
		r, _, err := callMap("shell_execute", map[string]any{"command": argv})
		if err != nil || !r.IsError {
			return fmt.Errorf("%v was not refused: %v %v", argv, r, err)
		}
		c.refused.Add(1)
	case 3:
		r, m, err := callMap("shell_execute", map[string]any{"command": []string{"head", "-c", "3000", "data"}})
		if err != nil || r.IsError {
			return fmt.Errorf("past the text limit: %v %v", r, err)
		}
		id, _ := m["output_id"].(string)
		if !strings.Contains(resultText(r), `read_output {"id":"`+id+`"`) {
			return fmt.Errorf("no read_output marker in the cut text: %q", resultText(r))
		}
		r, rd, err := callMap("read_output", map[string]any{"id": id, "offset": 1000, "length": 2000})
		if err != nil || !evicted(r) && rd["data"] != strings.Repeat("soak line\n", 200) {
			return fmt.Errorf("read of the cut output %s: %q %v", id, resultText(r), err)
		}
		*last = id
		c.cut.Add(1)
	case 4, 5:
		r, m, err := callMap("shell_execute", map[string]any{"command": []string{"true"}})
		if err != nil || r.IsError || m["output_id"] != nil {
			return fmt.Errorf("true: %v %v %v", r, m, err)
		}
		c.empty.Add(1)
	default:
		marker := "soak-" + strconv.Itoa(i)
		r, m, err := callMap("shell_execute", map[string]any{"command": []string{"echo", marker}})
		if err != nil || r.IsError || m["stdout"] != marker+"\n" {
			return fmt.Errorf("echo: %v %v %v", r, m, err)
		}
		if i%10 == 9 {
			id, _ := m["output_id"].(string)
			if r, rd, err := callMap("read_output", map[string]any{"id": id}); err != nil || !evicted(r) && rd["data"] != marker+"\n" {
				return fmt.Errorf("read of the small output %s: %q %v", id, resultText(r), err)
			}
		}
		c.small.Add(1)
	}
	return nil
}

// children counts the processes whose parent is pid, zombies included.
func children(pid int) int {
	ents, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range ents {
		id, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := procfs.ReadStat(id); err == nil && st.PPid == pid {
			n++
		}
	}
	return n
}
