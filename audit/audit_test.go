package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lines decodes JSON lines.
func lines(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

func TestLogWritesOneRedactedJSONLine(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf)
	code := 0
	tk, err := l.Admit()
	if err != nil {
		t.Fatal(err)
	}
	if err := tk.Log(context.Background(), Record{
		Time: time.Unix(1700000000, 0), Duration: 1500 * time.Millisecond, ResultType: Success, Tool: "shell_execute",
		Argv: []string{"curl", "-H", "Authorization: Bearer abc"}, Directory: "/w", ReturnCode: &code,
		Env: map[string]string{"MY_PASSWORD": "p"}, Rule: "allowlist.exact:curl",
		ChildEnv: []string{"HOME", "MY_PASSWORD", "PATH"},
	}); err != nil {
		t.Fatal(err)
	}
	l.Flush(context.Background())
	recs := lines(t, buf.Bytes())
	if len(recs) != 1 {
		t.Fatalf("%d lines", len(recs))
	}
	m := recs[0]
	if m["msg"] != "shell_execution_audit" || m["logger"] != "mcp-shell-server.audit" || m["duration"] != 1.5 || m["return_code"] != 0.0 {
		t.Errorf("record %v", m)
	}
	if strings.Contains(buf.String(), "Bearer abc") || m["env"].(map[string]any)["MY_PASSWORD"] != Redacted {
		t.Errorf("secret leaked or name lost: %s", buf.String())
	}
	if got := fmt.Sprint(m["child_env"]); got != "[HOME MY_PASSWORD PATH]" {
		t.Errorf("child_env = %s, want the names only", got)
	}
}

// TestFieldsAreCapped: whatever the request carried, a record stays small.
func TestFieldsAreCapped(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf)
	argv := make([]string, 4096)
	for i := range argv {
		argv[i] = strings.Repeat("x", 40)
	}
	env := map[string]string{}
	for i := range 200 {
		env["V"+strings.Repeat("a", i%50)+string(rune('A'+i%26))] = "v"
	}
	huge := strings.Repeat("d ", 1<<19) // 1 MiB of short words
	l.Log(context.Background(), Record{Tool: strings.Repeat("t", 1<<20), Argv: argv, Env: env, Directory: huge, Reason: huge, Rule: huge, Remote: huge})
	l.Flush(context.Background())
	if n := buf.Len(); n > 32<<10 {
		t.Fatalf("record is %d bytes", n)
	}
	m := lines(t, buf.Bytes())[0]
	if m["argv_count"] != 4096.0 || len(m["argv"].([]any)) != maxArgv+1 {
		t.Errorf("argv_count %v, %d elements", m["argv_count"], len(m["argv"].([]any)))
	}
}

// failAfter fails every write once limit bytes have been written; the
// write that crosses the limit is short (a full disk).
type failAfter struct {
	f     *os.File
	limit int
	n     int
}

func (w *failAfter) Write(p []byte) (int, error) {
	room := w.limit - w.n
	if room <= 0 {
		return 0, syscall.ENOSPC
	}
	if len(p) > room {
		n, _ := w.f.Write(p[:room])
		w.n += n
		return n, syscall.ENOSPC
	}
	n, err := w.f.Write(p)
	w.n += n
	return n, err
}

// TestFullDiskFailsClosedAndKeepsLinesWhole: once a write fails, Admit
// refuses; a short write leaves no partial line; the loss is counted and
// reported with the next record that is written.
func TestFullDiskFailsClosedAndKeepsLinesWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := &failAfter{f: f, limit: 1500}
	// A Sink over the fault writer, with the real file for rollback.
	l := New(NewSink(rollback{w, f}, 16))
	ctx := context.Background()
	var written, failed, refused int
	for range 30 {
		tk, err := l.Admit()
		if err != nil {
			refused++
			l.Log(ctx, Record{ResultType: ServerError, ErrorKind: KindAudit, Reason: err.Error()})
			l.Flush(ctx)
			continue
		}
		if err := tk.Log(ctx, Record{ResultType: Success, Argv: []string{"echo", "hi"}}); err != nil {
			failed++
		} else {
			written++
		}
	}
	data, _ := os.ReadFile(path)
	recs := lines(t, data) // fails on a partial line
	if len(recs) != written || written == 0 || failed != 1 || refused != 30-written-failed {
		t.Fatalf("30 calls: %d written, %d failed while running, %d refused; %d whole lines in the file", written, failed, refused, len(recs))
	}
	t.Logf("30 calls: %d records written, %d failed and reported, %d refused; file holds %d whole lines", written, failed, refused, len(recs))

	// The disk has room again: the next refusal record gets through, with
	// the count of what was lost, and calls are admitted again.
	w.limit = 1 << 20
	l.Log(ctx, Record{ResultType: ServerError, ErrorKind: KindAudit})
	l.Flush(ctx)
	if _, err := l.Admit(); err != nil {
		t.Fatalf("still refusing after the disk recovered: %v", err)
	}
	data, _ = os.ReadFile(path)
	recs = lines(t, data)
	if last := recs[len(recs)-1]; last["audit_dropped"] != float64(30-written) {
		t.Errorf("audit_dropped %v, want %d", last["audit_dropped"], 30-written)
	}
}

// rollback is a fault writer that still lets writeLine find the file.
type rollback struct {
	io.Writer
	f *os.File
}

func (r rollback) Stat() (os.FileInfo, error) { return r.f.Stat() }
func (r rollback) Truncate(n int64) error     { return r.f.Truncate(n) }

// blocked never returns from Write until released, like a stderr pipe
// nobody reads.
type blocked struct{ release chan struct{} }

func (b blocked) Write(p []byte) (int, error) { <-b.release; return len(p), nil }

// TestBlockedDestinationNeverBlocksCallers: calls keep their latency while
// the destination does not move; once the queue is full, Admit refuses
// instead of waiting. The destination is released only after the loop, so
// a caller that waited on it would never return; the latency is a figure.
func TestBlockedDestinationNeverBlocksCallers(t *testing.T) {
	b := blocked{make(chan struct{})}
	l := New(NewSink(b, 8))
	ctx := context.Background()
	var admitted, refused int
	var slowest time.Duration
	for range 20 {
		start := time.Now()
		tk, err := l.Admit()
		if err != nil {
			refused++
			if !errors.Is(err, ErrFull) {
				t.Fatalf("refusal %v", err)
			}
		} else {
			admitted++
			tk.Log(ctx, Record{ResultType: Success})
		}
		slowest = max(slowest, time.Since(start))
	}
	close(b.release)
	if admitted != 9 || refused != 11 { // one line is being written, eight wait
		t.Errorf("%d admitted, %d refused with a queue of 8 (plus the line being written)", admitted, refused)
	}
	t.Logf("blocked destination: %d calls admitted, %d refused, slowest caller %v", admitted, refused, slowest)
	if err := l.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentRecordsAreWholeLines: many writers, one Write per line.
func TestConcurrentRecordsAreWholeLines(t *testing.T) {
	var mu sync.Mutex
	var writes [][]byte
	w := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		writes = append(writes, append([]byte(nil), p...))
		mu.Unlock()
		return len(p), nil
	})
	l := New(w)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			tk, err := l.Admit()
			if err == nil {
				tk.Log(context.Background(), Record{ResultType: Success, Argv: []string{"echo", strings.Repeat("y", 5000)}})
			}
		})
	}
	wg.Wait()
	l.Close(context.Background())
	for _, p := range writes {
		if bytes.Count(p, []byte("\n")) != 1 || p[len(p)-1] != '\n' || !json.Valid(p) {
			t.Fatalf("a write is not one whole line: %q", p[:min(80, len(p))])
		}
	}
	if len(writes) != 50 {
		t.Errorf("%d writes for 50 records", len(writes))
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestJobFields(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf)
	l.Log(context.Background(), Record{ResultType: Success, Tool: "shell_execute"})
	l.Log(context.Background(), Record{ResultType: Started, Tool: "shell_execute", Job: Job{Event: EventJobStart, JobID: "abc", OutputID: "abc", Adaptive: true}})
	l.Log(context.Background(), Record{ResultType: Success, Tool: "read_output", Job: Job{Event: EventOutputRead, OutputID: "abc", Stream: "stdout", Offset: 0, ReadBytes: 0}})
	l.Flush(context.Background()) // records are written by the log's own goroutine
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var plain, start, read map[string]any
	json.Unmarshal([]byte(lines[0]), &plain)
	json.Unmarshal([]byte(lines[1]), &start)
	json.Unmarshal([]byte(lines[2]), &read)
	for _, k := range []string{"event", "job_id", "output_id", "adaptive", "stream", "read_bytes"} {
		if _, ok := plain[k]; ok {
			t.Errorf("a foreground record carries %s", k)
		}
	}
	if start["event"] != "job_start" || start["job_id"] != "abc" || start["adaptive"] != true || start["result_type"] != "started" {
		t.Errorf("start %v", start)
	}
	if read["event"] != "output_read" || read["stream"] != "stdout" || read["read_bytes"] != 0.0 || read["offset"] != 0.0 {
		t.Errorf("read %v", read)
	}
}
