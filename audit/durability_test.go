package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// disk is a file system of capacity bytes holding one file: writes past
// the capacity fail with ENOSPC after writing what fits, and reservations
// past it fail (room.space), as fallocate does on a full file system.
type disk struct {
	f        *os.File
	capacity int64
}

func (d *disk) Write(p []byte) (int, error) {
	fi, err := d.f.Stat()
	if err != nil {
		return 0, err
	}
	left := d.capacity - fi.Size()
	if int64(len(p)) > left {
		n, _ := d.f.Write(p[:max(left, 0)])
		return n, syscall.ENOSPC
	}
	return d.f.Write(p)
}

func (d *disk) Stat() (os.FileInfo, error) { return d.f.Stat() }
func (d *disk) Truncate(n int64) error     { return d.f.Truncate(n) }

func (d *disk) space(_, end int64) error {
	if end > d.capacity {
		return ErrNoRoom
	}
	return nil
}

// newDiskLogger is a Logger on a file of a disk of capacity bytes, with
// the sink's room on that disk.
func newDiskLogger(t *testing.T, capacity int64) (*Logger, *disk, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	d := &disk{f: f, capacity: capacity}
	s := NewSink(d, 16)
	s.room = &room{f: f, allocate: true, space: d.space}
	return New(s), d, path
}

// TestNearFullDiskNeverRunsACallUnrecorded: on a disk filling up, a call
// is admitted only while its largest record fits beside the others
// reserved, so the small records of refused calls, which still fit,
// never re-admit a call whose own record would then fail (the fault the
// room reservation fixes: a refused call's short record succeeded,
// cleared the failure, and the next call ran and lost its record).
func TestNearFullDiskNeverRunsACallUnrecorded(t *testing.T) {
	l, d, path := newDiskLogger(t, 3*MaxRecord)
	ctx := context.Background()
	big := []string{"echo", strings.Repeat("x ", 900)}
	var ran, refused, lost int
	for range 400 {
		tk, err := l.Admit()
		if err != nil {
			refused++
			// The refusal's own, shorter record: best-effort.
			l.Log(ctx, Record{ResultType: ServerError, ErrorKind: KindAudit, Reason: err.Error()})
			l.Flush(ctx)
			continue
		}
		ran++
		if err := tk.Log(ctx, Record{ResultType: Success, Argv: big}); err != nil {
			lost++
		}
	}
	data, _ := os.ReadFile(path)
	success := 0
	for _, r := range lines(t, data) {
		if r["result_type"] == "success" {
			success++
		}
	}
	t.Logf("disk of %d bytes: 400 calls: %d ran, %d refused; %d records of calls that ran (%d lost); file %d bytes", d.capacity, ran, refused, success, lost, len(data))
	if lost != 0 || success != ran || refused == 0 {
		t.Errorf("want every call that ran recorded and the rest refused")
	}
	// Room again: calls are admitted.
	d.capacity *= 2
	if _, err := l.Admit(); err != nil {
		t.Errorf("still refusing with room back: %v", err)
	}
}

// flaky fails every write while down is set.
type flaky struct {
	mu   sync.Mutex
	down bool
	buf  bytes.Buffer
}

func (f *flaky) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return 0, syscall.EIO
	}
	return f.buf.Write(p)
}

func (f *flaky) set(down bool) { f.mu.Lock(); f.down = down; f.mu.Unlock() }

func (f *flaky) String() string { f.mu.Lock(); defer f.mu.Unlock(); return f.buf.String() }

// TestDurableRecordWrittenWhenTheLogRecovers: a job's end record whose
// write fails is kept and written once a write succeeds again, once.
func TestDurableRecordWrittenWhenTheLogRecovers(t *testing.T) {
	f := &flaky{}
	l := New(f)
	ctx := context.Background()
	tk, err := l.Admit()
	if err != nil {
		t.Fatal(err)
	}
	f.set(true)
	if err := tk.LogDurable(ctx, Record{ResultType: Cancelled, Job: Job{Event: EventJobEnd, JobID: "k3v9x2m4qa"}}, "job_end of job k3v9x2m4qa"); err == nil {
		t.Fatal("the write succeeded on a failing destination")
	}
	f.set(false)
	l.Log(ctx, Record{ResultType: Unauthorized}) // any record: the destination takes writes again
	l.Flush(ctx)
	l.Flush(ctx) // the kept line, queued by the first success
	if got := strings.Count(f.String(), `"job_id":"k3v9x2m4qa"`); got != 1 {
		t.Errorf("the kept job_end was written %d times:\n%s", got, f.String())
	}
}

// TestDurableRecordLostIsNamed: a job's end that cannot be written at all
// is named on the diagnostic log at Close; past the bound of kept lines,
// records are named in a records_lost record once the log recovers.
func TestDurableRecordLostIsNamed(t *testing.T) {
	f := &flaky{down: true}
	l := New(f)
	var diag bytes.Buffer
	var dmu sync.Mutex
	l.SetDiagnostics(slog.New(slog.NewTextHandler(lockedWriter{&diag, &dmu}, nil)))
	ctx := context.Background()
	for i := range maxKept + 3 {
		tk, err := l.Admit()
		if errors.Is(err, ErrFull) || (err != nil && i > 0) {
			// Admit refuses once a write failed: reserve with the sink
			// directly, as a job's end ticket was reserved at its start.
			slot, serr := l.sink.Reserve()
			if serr != nil {
				l.sink.mu.Lock()
				l.sink.failed = nil
				l.sink.mu.Unlock()
				slot, _ = l.sink.Reserve()
			}
			tk = &Ticket{l: l, slot: slot}
		} else if err != nil {
			t.Fatal(err)
		}
		id := "job" + strings.Repeat("x", 3) + string(rune('a'+i%26)) + string(rune('a'+i/26%26))
		tk.LogDurable(ctx, Record{ResultType: Cancelled, Job: Job{Event: EventJobEnd, JobID: id}}, "job_end of job "+id)
		l.Flush(ctx)
	}
	l.keptMu.Lock()
	kept, lost := len(l.kept), len(l.lost)
	l.keptMu.Unlock()
	if kept != maxKept || lost != 3 {
		t.Fatalf("kept %d, lost %d; want %d and 3", kept, lost, maxKept)
	}
	f.set(false)
	l.Log(ctx, Record{ResultType: Unauthorized})
	l.Flush(ctx)
	l.Flush(ctx)
	var recLost []any
	for _, line := range strings.Split(strings.TrimSpace(f.String()), "\n") {
		var m map[string]any
		json.Unmarshal([]byte(line), &m)
		if m["event"] == string(EventRecordsLost) {
			recLost, _ = m["lost"].([]any)
		}
	}
	if len(recLost) != 3 || !strings.HasPrefix(recLost[0].(string), "job_end of job ") {
		t.Errorf("records_lost record names %v", recLost)
	}
	if n := strings.Count(f.String(), `"event":"job_end"`); n != maxKept {
		t.Errorf("%d kept job_end records written, want %d", n, maxKept)
	}

	// Never written: named at Close.
	g := &flaky{down: true}
	m := New(g)
	diag.Reset()
	m.SetDiagnostics(slog.New(slog.NewTextHandler(lockedWriter{&diag, &dmu}, nil)))
	tk, _ := m.Admit()
	tk.LogDurable(ctx, Record{ResultType: Cancelled, Job: Job{Event: EventJobEnd, JobID: "gone123456"}}, "job_end of job gone123456")
	m.Close(ctx)
	dmu.Lock()
	defer dmu.Unlock()
	if !strings.Contains(diag.String(), "audit record lost: job_end of job gone123456") {
		t.Errorf("the lost record is not named on the diagnostic log:\n%s", diag.String())
	}
}

type lockedWriter struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// TestRecordBound: the largest record a request can make (every string
// long and made of characters that JSON escapes six bytes each, more argv
// elements and variables than are recorded) encodes to at most MaxRecord
// bytes, and its compact form, the one used when the full form is
// longer, to well under it; an ordinary record keeps its full form.
func TestRecordBound(t *testing.T) {
	worst := strings.Repeat("\x01<>&\xff", 1<<12)
	argv := make([]string, 300)
	for i := range argv {
		argv[i] = "--o=" + worst[:2000]
	}
	env := map[string]string{}
	for i := range 100 {
		env[strings.Repeat("N", 60)+string(rune('A'+i%26))+string(rune('A'+i/26%26))] = worst[:2000]
	}
	names := make([]string, 100)
	for i := range names {
		names[i] = worst[:1000]
	}
	r := Record{Tool: worst, Argv: argv, Directory: worst, Env: env, ChildEnv: names, Rule: worst, Reason: worst,
		ReasonArg: worst[:100], Remote: worst, Signal: worst, Lost: names, SandboxDenied: slices.Repeat([]Denial{{Kind: worst, Target: worst, Guess: true}}, 20),
		Job: Job{Event: EventOutputRead, JobID: worst, OutputID: worst, Stream: worst, KilledBy: worst}}
	l := New(&bytes.Buffer{})
	data, _ := l.encodeRecord(context.Background(), r)
	if !json.Valid(data) {
		t.Fatalf("not JSON: %.200s", data)
	}
	l.encode.Lock()
	compact := len(l.encodeWith(context.Background(), r, 1<<40, compactCaps))
	l.encode.Unlock()
	t.Logf("worst record: %d bytes as written (MaxRecord %d); its compact form %d bytes", len(data), MaxRecord, compact)
	if len(data) > MaxRecord || compact > MaxRecord/2 {
		t.Errorf("worst record %d bytes, compact form %d", len(data), compact)
	}
	small, _ := l.encodeRecord(context.Background(), Record{ResultType: Success, Argv: []string{"echo", "hi"}})
	if bytes.Contains(small, []byte("compact")) {
		t.Errorf("an ordinary record was compacted: %s", small)
	}
}
