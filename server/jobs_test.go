package server

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/mcptest"
	"github.com/seed-b63acb1b/mcp-shell-server/outputs"
)

// jobOptions are testOptions with jobs and retention on, the store in a
// test directory.
func jobOptions(t testing.TB, commands ...string) Options {
	t.Helper()
	return jobOptionsFrom(t, testOptions(t, commands...))
}

// jobOptionsFrom is o with jobs and retention on, as jobOptions.
func jobOptionsFrom(t testing.TB, o Options) Options {
	t.Helper()
	o.Limits.TextLimit = 1024
	o.Jobs = JobOptions{
		Retain:  outputs.Config{Parent: t.TempDir(), PerStream: 1 << 20, Quota: 8 << 20, TTL: time.Hour},
		MaxJobs: 4, MaxJobTime: time.Minute,
	}
	return o
}

// newJobServer is a server with jobs on, shut down with the test.
func newJobServer(t testing.TB, o Options) (*Server, *mcp.ClientSession, *syncBuffer) {
	t.Helper()
	buf := &syncBuffer{}
	buf.l = audit.New(buf)
	o.Audit = buf.l
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Shutdown(context.Background()) })
	return s, connect(t, s), buf
}

// syncBuffer collects audit records written from job goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	l   *audit.Logger
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.l.Flush(context.Background()) // records are written by the log's own goroutine
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *syncBuffer) records(t *testing.T) []map[string]any {
	t.Helper()
	return records(t, b)
}

func TestTextViewHeadAndTail(t *testing.T) {
	t.Parallel()
	lines := strings.Repeat("0123456789\n", 100) // 1100 bytes
	v := textView{limit: 200, outputID: "abcdefghij"}
	got := v.stream("stdout", []byte(lines), lines)
	head, rest, ok := strings.Cut(got, "[... ")
	if !ok || !strings.HasSuffix(head, "\n") || len(head) > 100 || len(head)%11 != 0 {
		t.Fatalf("head %q", head)
	}
	marker, tail, _ := strings.Cut(rest, "\n")
	if !strings.Contains(marker, `read_output {"id":"abcdefghij","stream":"stdout","offset":99}`) || !strings.Contains(marker, "bytes 99 to 1001 of 1100") {
		t.Errorf("marker %q", marker)
	}
	if tail != lines[1001:] || len(tail) > 100 {
		t.Errorf("tail %q", tail)
	}
	if v.stream("stdout", []byte("short"), "short") != "short" {
		t.Error("a stream that fits changed")
	}
	if (textView{}).stream("stdout", []byte(lines), lines) != lines {
		t.Error("limit 0 changed the text")
	}
	// No line ends: cuts fall on character boundaries, never inside one.
	wide := strings.Repeat("é", 300)
	got = textView{limit: 101}.stream("stderr", []byte(wide), wide)
	if strings.ContainsRune(got, '\uFFFD') || !strings.Contains(got, "structuredContent.stderr has them") {
		t.Errorf("cut inside a character or no pointer: %q", got)
	}
}

func TestBackgroundJobLifecycle(t *testing.T) {
	t.Parallel()
	s, cs, buf := newJobServer(t, jobOptions(t, "echo", "sort"))
	r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"echo", "b\na"}, "background": true})
	id, _ := m["job_id"].(string)
	if r.IsError || !outputs.ValidID(id) || m["output_id"] != id || !strings.Contains(resultText(r), "Started background job "+id) {
		t.Fatalf("start: %v %v", resultText(r), m)
	}
	if len(r.Content) != 3 {
		t.Errorf("want text and two resource links, got %d items", len(r.Content))
	}
	_, st := mcptest.CallTool(t, cs, "job_status", map[string]any{"id": id, "wait": 30})
	if st["state"] != "exited" || st["exit_code"] != 0.0 || st["stdout_bytes"] != 4.0 || st["ended_at"] == nil {
		t.Fatalf("status %v", st)
	}
	r, rd := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": id})
	if rd["data"] != "b\na\n" || rd["eof"] != true || rd["done"] != true || !strings.HasSuffix(resultText(r), "]\nb\na\n") {
		t.Fatalf("read %q %v", resultText(r), rd)
	}
	// Chaining: the job's stdout is sort's stdin.
	r, so := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"sort"}, "stdin_output_id": id})
	if r.IsError || so["stdout"] != "a\nb\n" {
		t.Fatalf("chained: %q %v", resultText(r), so)
	}
	_, l := mcptest.CallTool(t, cs, "job_list", map[string]any{})
	if jobsList, _ := l["jobs"].([]any); len(jobsList) != 1 || l["max_running"] != 4.0 {
		t.Errorf("list %v", l)
	}
	s.Shutdown(context.Background())
	var start, end, read map[string]any
	for _, rec := range buf.records(t) {
		switch rec["event"] {
		case "job_start":
			start = rec
		case "job_end":
			end = rec
		case "output_read":
			read = rec
		}
	}
	if start["result_type"] != "started" || start["job_id"] != id || start["argv"] == nil {
		t.Errorf("start record %v", start)
	}
	if end["result_type"] != "success" || end["job_id"] != id || end["stdout_bytes"] != 4.0 || end["return_code"] != 0.0 {
		t.Errorf("end record %v", end)
	}
	if read["output_id"] != id || read["read_bytes"] != 4.0 || read["data"] != nil || read["stdout"] != nil {
		t.Errorf("read record %v (content must never be logged)", read)
	}
}

// TestShutdownKillsJobsAndDeletesOutput: Shutdown kills a running job,
// writes its end record before returning, and removes the store.
func TestShutdownKillsJobsAndDeletesOutput(t *testing.T) {
	t.Parallel()
	o := jobOptions(t, "sleep")
	s, cs, buf := newJobServer(t, o)
	_, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"sleep", "300"}, "background": true})
	id := m["job_id"].(string)
	dir := s.bg.store.Dir()
	begin := time.Now()
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The job sleeps 300 s: Shutdown must kill it, not wait for it. Half
	// of that is a bound no loaded machine reaches.
	took := time.Since(begin)
	t.Logf("figures: Shutdown took %v", took.Round(time.Millisecond))
	if took > 150*time.Second {
		t.Errorf("Shutdown took %v: it waited for the job", took)
	}
	var end map[string]any
	for _, rec := range buf.records(t) {
		if rec["event"] == "job_end" {
			end = rec
		}
	}
	if end["job_id"] != id || end["result_type"] != "cancelled" || end["killed_by"] != "shutdown" {
		t.Errorf("end record at shutdown: %v", end)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("store left after Shutdown: %v", err)
	}
}

func TestJobRefusals(t *testing.T) {
	t.Parallel()
	_, cs, _ := newJobServer(t, jobOptions(t, "echo", "cat"))
	r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"echo", "x"}})
	fg := m["output_id"].(string)
	for _, tt := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"shell_execute", map[string]any{"command": []string{"cat"}, "stdin_open": true}, "stdin_open needs background: true"},
		{"shell_execute", map[string]any{"command": []string{"cat"}, "stdin_open": true, "background": true, "stdin": "x"}, "cannot be combined"},
		{"shell_execute", map[string]any{"command": []string{"cat"}, "stdin_output_id": fg, "stdin": "x"}, "cannot be combined"},
		{"shell_execute", map[string]any{"command": []string{"cat"}, "stdin_output_id": "zzzzzzzzzz"}, `unknown output id "zzzzzzzzzz"`},
		{"execute_command", map[string]any{"program": "cat", "stdin_output_id": "../../etc/x"}, "unknown output id"},
		{"read_output", map[string]any{"id": "zzzzzzzzzz"}, `unknown output id "zzzzzzzzzz"`},
		{"read_output", map[string]any{"id": "bad/id"}, "unknown output id"},
		{"job_status", map[string]any{"id": "zzzzzzzzzz"}, `unknown job id "zzzzzzzzzz"`},
		{"job_status", map[string]any{"id": fg}, "did not run as a job"},
		{"job_kill", map[string]any{"id": "nope"}, "unknown job id"},
		{"job_stdin", map[string]any{"id": "zzzzzzzzzz", "data": "x"}, "unknown job id"},
		{"read_output", map[string]any{"id": fg, "offset": -1}, "Input validation error"},
		{"job_status", map[string]any{"id": fg, "wait": 31}, "Input validation error"},
	} {
		ctx := context.Background()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
		if tt.tool == "execute_command" && err != nil {
			continue // execute_command is not exposed here
		}
		if err != nil || !res.IsError || !strings.Contains(resultText(res), tt.want) {
			t.Errorf("%s %v: err %v, %q, want %q", tt.tool, tt.args, err, resultText(res), tt.want)
		}
	}
	_ = r
}

func TestJobStdin(t *testing.T) {
	t.Parallel()
	_, cs, _ := newJobServer(t, jobOptions(t, "cat", "echo"))
	_, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"cat"}, "background": true, "stdin_open": true})
	id := m["job_id"].(string)
	if _, st := mcptest.CallTool(t, cs, "job_status", map[string]any{"id": id}); st["stdin_open"] != true || st["state"] != "running" {
		t.Fatalf("status %v", st)
	}
	r, w := mcptest.CallTool(t, cs, "job_stdin", map[string]any{"id": id, "data": "hello\n"})
	if r.IsError || w["written"] != 6.0 || w["closed"] != false {
		t.Fatalf("write %q %v", resultText(r), w)
	}
	_, rd := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": id, "wait": 30})
	if rd["data"] != "hello\n" || rd["done"] != false {
		t.Fatalf("read %v", rd)
	}
	if r, w := mcptest.CallTool(t, cs, "job_stdin", map[string]any{"id": id, "close": true}); r.IsError || w["closed"] != true {
		t.Fatalf("close %q %v", resultText(r), w)
	}
	if _, st := mcptest.CallTool(t, cs, "job_status", map[string]any{"id": id, "wait": 30}); st["state"] != "exited" || st["stdin_open"] != false {
		t.Fatalf("after close: %v", st)
	}
	if r, _ := mcptest.CallTool(t, cs, "job_stdin", map[string]any{"id": id, "data": "late"}); !r.IsError || !strings.Contains(resultText(r), "closed") {
		t.Errorf("write after the end: %q", resultText(r))
	}
	_, m = mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"echo"}, "background": true})
	if r, _ := mcptest.CallTool(t, cs, "job_stdin", map[string]any{"id": m["job_id"], "data": "x"}); !r.IsError || !strings.Contains(resultText(r), "stdin_open") {
		t.Errorf("write to a job without open stdin: %q", resultText(r))
	}
}

// TestToolSurface: the job arguments and tools exist only when on; every
// new tool has an output schema and annotations.
func TestToolSurface(t *testing.T) {
	t.Parallel()
	names := func(o Options) map[string]*mcp.Tool {
		s, _ := newServer(t, o)
		res, err := connect(t, s).ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]*mcp.Tool{}
		for _, tl := range res.Tools {
			m[tl.Name] = tl
		}
		return m
	}
	off := names(testOptions(t, "echo"))
	if len(off) != 1 || strings.Contains(string(mustJSON(t, off["shell_execute"].InputSchema)), "background") {
		t.Errorf("jobs off: %v", off)
	}
	retainOnly := jobOptions(t, "echo")
	retainOnly.Jobs.MaxJobs = 0
	ro := names(retainOnly)
	if len(ro) != 2 || ro["read_output"] == nil || strings.Contains(string(mustJSON(t, ro["shell_execute"].InputSchema)), "background") {
		t.Errorf("retention only: %v", ro)
	}
	on := names(jobOptions(t, "echo"))
	for _, n := range []string{"read_output", "job_status", "job_list", "job_kill", "job_stdin"} {
		tl := on[n]
		if tl == nil || tl.OutputSchema == nil || tl.Annotations == nil || tl.Annotations.DestructiveHint == nil || tl.Annotations.OpenWorldHint == nil || !strings.Contains(tl.Description, "Example:") {
			t.Errorf("%s: %+v", n, tl)
		}
	}
	for _, arg := range []string{"background", "stdin_output_id", "stdin_open"} {
		if !strings.Contains(string(mustJSON(t, on["shell_execute"].InputSchema)), arg) {
			t.Errorf("shell_execute lacks %s", arg)
		}
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestJobOutputsMatchTheirSchemas: sample outputs of the new tools, and a
// background start of each command tool, validate against their schemas.
func TestJobOutputsMatchTheirSchemas(t *testing.T) {
	t.Parallel()
	code, sig := 0, "SIGKILL"
	for _, c := range []struct {
		tool string
		out  any
	}{
		{"read_output", &ReadOutput{ID: "abcdefghij", Stream: "stdout", Data: "x"}},
		{"job_status", &JobOutput{ID: "abcdefghij", State: "exited", Argv: []string{"echo"}, ExitCode: &code}},
		{"job_kill", &JobOutput{ID: "abcdefghij", State: "killed", Argv: []string{}, Signal: &sig, StartedAt: ptr("x")}},
		{"job_list", &JobListOutput{Jobs: []JobOutput{{Argv: []string{}}}}},
		{"job_stdin", &JobStdinOutput{ID: "abcdefghij"}},
	} {
		schema, err := outputSchemaOf(c.tool)
		if err != nil {
			t.Fatal(err)
		}
		validate(t, schema, c.out)
	}
	shell, _ := shellOutputSchema()
	validate(t, shell, &ShellOutput{Status: -1, Stages: []StageOutput{}, Retained: Retained{OutputID: "abcdefghij", JobID: "abcdefghij", JobState: "running"}})
	exec, _ := jsonschema.For[ExecOutput](nil)
	validate(t, exec, &ExecOutput{Retained: Retained{JobID: "abcdefghij"}})
}

func validate(t *testing.T, schema *jsonschema.Schema, out any) {
	t.Helper()
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	json.Unmarshal(mustJSON(t, out), &v)
	if err := resolved.Validate(v); err != nil {
		t.Errorf("%s does not match its schema: %v", mustJSON(t, out), err)
	}
}

// TestRetainedOutputOfForegroundCalls: a call's output is kept (and named)
// even when its text is whole; one that printed nothing keeps none; the
// text limit cuts and names the id.
func TestRetainedOutputOfForegroundCalls(t *testing.T) {
	t.Parallel()
	o := jobOptions(t, "echo", "true", "head")
	s, cs, _ := newJobServer(t, o)
	os.WriteFile(filepath.Join(o.Policy.AllowedDirs()[0], "big"), []byte(strings.Repeat("line of text\n", 1000)), 0o644)
	_, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"echo", "hi"}})
	if !outputs.ValidID(m["output_id"].(string)) || m["stdout"] != "hi\n" {
		t.Errorf("echo: %v", m)
	}
	_, m = mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"true"}})
	if _, ok := m["output_id"]; ok || s.bg.store.Len() != 1 {
		t.Errorf("true kept an output: %v (store has %d)", m, s.bg.store.Len())
	}
	r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "13000", "big"}})
	id := m["output_id"].(string)
	if text := resultText(r); len(text) > 1300 || !strings.Contains(text, `read_output {"id":"`+id+`"`) || len(m["stdout"].(string)) != 13000 {
		t.Errorf("cut text %d bytes: %q", len(text), text)
	}
}

// TestAdaptiveHandOff: a foreground call still running after the delay
// returns a job id and keeps running as a job (outliving its request); a
// quick call is answered as usual.
func TestAdaptiveHandOff(t *testing.T) {
	t.Parallel()
	o := jobOptions(t, "sleep", "echo")
	o.Jobs.Adaptive = 100 * time.Millisecond
	_, cs, buf := newJobServer(t, o)
	r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"sleep", "300"}, "timeout": 200})
	id, _ := m["job_id"].(string)
	if r.IsError || id == "" || m["job_state"] != "running" || !strings.Contains(resultText(r), "still running after") {
		t.Fatalf("hand-off: %q %v", resultText(r), m)
	}
	_, st := mcptest.CallTool(t, cs, "job_status", map[string]any{"id": id})
	// A call that may become a job runs at most the job maximum (a minute
	// here), however long a timeout it asks for.
	if st["state"] != "running" || st["adaptive"] != true || st["timeout_seconds"] != 60.0 {
		t.Fatalf("status %v", st)
	}
	if _, st = mcptest.CallTool(t, cs, "job_kill", map[string]any{"id": id}); st["state"] != "killed" || st["killed_by"] != "job_kill" {
		t.Fatalf("kill %v", st)
	}
	var start map[string]any
	for _, rec := range buf.records(t) {
		if rec["event"] == "job_start" {
			start = rec
		}
	}
	if start["adaptive"] != true || start["result_type"] != "started" {
		t.Errorf("start record %v", start)
	}

	o = jobOptions(t, "echo")
	o.Jobs.Adaptive = 5 * time.Second
	_, cs, _ = newJobServer(t, o)
	if r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"echo", "quick"}}); r.IsError || m["job_id"] != nil || resultText(r) != "quick\n" {
		t.Errorf("quick call: %q %v", resultText(r), m)
	}
}
