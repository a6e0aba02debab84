package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Record is one audited call. Durations are seconds. StdoutN and StderrN
// are the bytes kept (in the result or the ">" file, at most the output
// cap: the reference's stdout_bytes and stderr_bytes); StdoutRead and
// StderrRead the bytes read from the streams, more than kept when a
// stream passed the cap.
type Record struct {
	Time     time.Time
	Duration time.Duration
	// ResultType is how the call ended (see Result).
	ResultType Result
	Tool       string
	// Argv is the request argv, unredacted; Log redacts it.
	Argv       []string
	Directory  string
	Stdin      bool // "<" redirection
	Stdout     bool // ">" or ">>" redirection
	Append     bool // ">>"
	Env        map[string]string
	Timeout    time.Duration
	OutputLim  int64
	StdoutN    int64
	StderrN    int64
	StdoutRead int64
	StderrRead int64
	ReturnCode *int
	Signal     string
	Stages     int
	// Rule is the rule that decided: an allowlist rule for allowed calls,
	// the rejection code otherwise.
	Rule string
	// Reason is the rejection or error message, unredacted; Log replaces
	// the client values it quotes (ReasonArg, the argv, the env, Args) by
	// their redacted forms.
	Reason    string
	ReasonArg string
	// Args are a call's raw arguments when they could not be decoded
	// (invalid_arguments): not logged, only used to redact the reason,
	// which may quote them.
	Args json.RawMessage
	// ErrorKind names what failed (logged as error_type), or "".
	ErrorKind ErrorKind
	// Remote is the client's network address (HTTP transport), or "".
	Remote string
	// Status is the HTTP status of a request refused before MCP saw it,
	// or 0.
	Status int
	// Suppressed counts the records of the same kind left out (rate
	// limit) since the last one written; logged when not 0.
	Suppressed int
	// Sandbox is the sandbox mode (off, limits, landlock) and SandboxABI
	// the Landlock ABI applied (0 without Landlock).
	Sandbox    string
	SandboxABI int
	// Lifetime is the mechanism that binds a call's processes to it
	// (cgroup, subreaper or session; see package lifetime).
	Lifetime string
	// Job describes a job or a retained output (job.go); zero for a
	// foreground call that retained nothing.
	Job Job
	// ChildEnv are the names of the variables the children got (the
	// minimal base, delegated envs, family hardening); their values are
	// never logged (Env has the client's, redacted).
	ChildEnv []string
	// SandboxDenied are the accesses the sandbox denied a failed call's
	// stages, at most maxDenied.
	SandboxDenied []Denial
	// Lost names records that could not be written (event records_lost):
	// "job_end of job ID".
	Lost []string
	// Confirmed is how the user answered a call the confirm tier held;
	// "" when the tier did not apply.
	Confirmed Confirmed
}

// Field caps, in bytes (strings) or elements: a record stays a few KiB
// whatever the request carried, and one that would still encode longer
// than MaxRecord is written in its compact form.
const (
	// maxArgv is how many argv elements are recorded; the rest are
	// counted in argv_count.
	maxArgv = 256
	// maxEnv is how many env entries are recorded.
	maxEnv = 64
	// maxField caps the other strings (directory, tool, rule, remote,
	// signal): a path is at most PATH_MAX (4096), but a record need not
	// hold one whole.
	maxField = 1024
)

// caps are the bounds one encoding of a record applies.
type caps struct {
	argv, env, field, reason int
	// value caps each argv element and env value (0: their own caps).
	value int
	// compact marks the record as the compact form.
	compact bool
}

var (
	fullCaps = caps{argv: maxArgv, env: maxEnv, field: maxField, reason: maxReason}
	// compactCaps bound a record to a few KiB of text, at most six bytes
	// of JSON each (a control character's \u00XX): far below MaxRecord
	// (TestRecordBound builds the worst case).
	compactCaps = caps{argv: 8, env: 8, field: 128, reason: 512, value: 128, compact: true}
)

// Logger writes audit records as JSON lines through a Sink: it never
// blocks a caller on the destination. A call takes a Ticket before it runs
// (Admit) and writes its record with it, so a call runs only when its
// record has room; records the caller cannot refuse to make (HTTP
// refusals, protocol errors) are written best-effort (Log) and counted in
// the audit_dropped field of the next record written when they are
// dropped or fail.
type Logger struct {
	sink *Sink

	// encode serializes encoding: h writes one record into into.
	encode sync.Mutex
	h      slog.Handler
	into   bytes.Buffer

	// dropped counts records lost since the last one written.
	dropped atomic.Int64
	diag    atomic.Pointer[slog.Logger]

	// kept are durable records (LogDurable) whose write failed, to be
	// written again once a write succeeds; lost names those given up.
	keptMu sync.Mutex
	kept   []keptLine
	lost   []string
}

// keptLine is a durable record waiting for the destination to recover.
type keptLine struct {
	data  []byte
	about string
}

// Bounds of the durable records kept for a later attempt: every job's
// end (at most the running and queued jobs, 72 at the defaults, end while
// the log fails, as no new job is admitted then) many times over. Past
// them a record is given up and named in a records_lost record.
const (
	maxKept = 256
	maxLost = 1024
)

// New returns a Logger writing to w: through w itself when it is a *Sink
// (a destination shared with diagnostics), otherwise through a new Sink.
func New(w io.Writer) *Logger {
	s, ok := w.(*Sink)
	if !ok {
		s = NewSink(w, DefaultQueue)
	}
	l := &Logger{sink: s}
	l.h = slog.NewJSONHandler(&l.into, &slog.HandlerOptions{Level: slog.LevelInfo}).
		WithAttrs([]slog.Attr{slog.String("logger", "mcp-shell-server.audit")})
	return l
}

// SetDiagnostics sets where write failures are reported (the operator's
// log on stderr).
func (l *Logger) SetDiagnostics(log *slog.Logger) { l.diag.Store(log) }

// Ticket is a call's reserved record.
type Ticket struct {
	l    *Logger
	slot *Slot
}

// Admit reserves room for one call's record. An error means the record
// could not be written, so the call must not run: the log failed (the
// error says why) or is not keeping up.
func (l *Logger) Admit() (*Ticket, error) {
	if l == nil {
		return nil, nil
	}
	slot, err := l.sink.Reserve()
	if err != nil {
		return nil, err
	}
	return &Ticket{l: l, slot: slot}, nil
}

// Log writes the call's record into the reserved room and reports whether
// it was written: it waits for the write unless the destination is
// stalled, in which case the record stays queued and Log returns nil. A
// ticket is used once; a nil ticket does nothing.
func (t *Ticket) Log(ctx context.Context, r Record) error {
	if t == nil {
		return nil
	}
	data, carried := t.l.encodeRecord(ctx, r)
	written := make(chan error, 1)
	t.slot.Put(data, func(err error) { t.l.settle(err, carried); written <- err })
	return t.l.await(written)
}

// await waits for a queued line's write unless the destination is
// stalled, in which case the line stays queued and await returns nil.
func (l *Logger) await(written <-chan error) error {
	if l.sink.Stalled() {
		return nil
	}
	timer := time.NewTimer(stallAfter)
	defer timer.Stop()
	select {
	case err := <-written:
		return err
	case <-timer.C:
		return nil // still queued: the destination is slow
	}
}

// LogDurable writes a record that must not be lost with the dropped
// count (a job's end): like Log, but when the write fails the line is
// kept and written again after a later write succeeds, and when it cannot
// be kept (the bound, or Close) it is named in a records_lost record
// once the destination takes records again, or on the diagnostic log.
// about names the record in those ("job_end of job ID").
func (t *Ticket) LogDurable(ctx context.Context, r Record, about string) error {
	if t == nil {
		return nil
	}
	data := t.l.encodeDurable(ctx, r)
	written := make(chan error, 1)
	t.slot.Put(data, func(err error) { t.l.settleDurable(err, data, about); written <- err })
	return t.l.await(written)
}

// encodeDurable encodes r without the dropped count: a line that may be
// written again must not carry it twice.
func (l *Logger) encodeDurable(ctx context.Context, r Record) []byte {
	l.encode.Lock()
	defer l.encode.Unlock()
	data := l.encodeWith(ctx, r, 0, fullCaps)
	if len(data) > MaxRecord {
		data = l.encodeWith(ctx, r, 0, compactCaps)
	}
	return bytes.Clone(data)
}

// settleDurable accounts for a durable line's write: a failure keeps it
// (or, past maxKept, names it lost) and is reported.
func (l *Logger) settleDurable(err error, data []byte, about string) {
	if err == nil {
		l.recovered()
		return
	}
	l.keptMu.Lock()
	if len(l.kept) < maxKept {
		l.kept = append(l.kept, keptLine{data, about})
	} else if len(l.lost) < maxLost {
		l.lost = append(l.lost, about)
	}
	l.keptMu.Unlock()
	if d := l.diag.Load(); d != nil {
		d.Error("audit record not written; kept to be written when the log recovers", "record", about, "err", err)
	}
}

// recovered runs after a successful write: the kept lines are queued
// again (best-effort; one that fails again is kept again), and the names
// of those given up go out in a records_lost record.
func (l *Logger) recovered() {
	l.keptMu.Lock()
	kept, lost := l.kept, l.lost
	l.kept, l.lost = nil, nil
	l.keptMu.Unlock()
	var back []keptLine
	for _, k := range kept {
		if !l.sink.TryPut(k.data, func(err error) { l.settleDurable(err, k.data, k.about) }) {
			back = append(back, k)
		}
	}
	if len(lost) > 0 {
		data := l.encodeDurable(context.Background(), Record{Time: time.Now(), ResultType: ServerError, ErrorKind: KindAudit,
			Job: Job{Event: EventRecordsLost}, Lost: lost, Reason: fmt.Sprintf("%d records could not be written and were given up", len(lost))})
		if !l.sink.TryPut(data, func(err error) {
			if err != nil {
				l.giveUp(lost...)
			}
		}) {
			l.giveUp(lost...)
		}
	}
	if len(back) > 0 {
		l.keptMu.Lock()
		l.kept = append(back, l.kept...)
		l.keptMu.Unlock()
	}
}

// giveUp names records lost for the next records_lost record.
func (l *Logger) giveUp(about ...string) {
	l.keptMu.Lock()
	defer l.keptMu.Unlock()
	l.lost = append(l.lost, about[:min(len(about), maxLost-len(l.lost))]...)
}

// Release gives an unused ticket's room back.
func (t *Ticket) Release() {
	if t != nil {
		t.slot.Release()
	}
}

// Log writes r best-effort: it returns ErrFull, counting r as dropped,
// when the queue has no room for it. A write failure is reported on the
// diagnostic log and counted.
func (l *Logger) Log(ctx context.Context, r Record) error {
	if l == nil {
		return nil
	}
	data, carried := l.encodeRecord(ctx, r)
	if !l.sink.TryPut(data, func(err error) { l.settle(err, carried) }) {
		l.dropped.Add(carried + 1)
		return ErrFull
	}
	return nil
}

// Flush waits until every queued record has been written or ctx is done.
func (l *Logger) Flush(ctx context.Context) error {
	if l == nil {
		return nil
	}
	return l.sink.Flush(ctx)
}

// Close writes out the queued records, those of admitted calls included,
// until ctx is done; the durable records still kept get one more attempt,
// and those that are still not written are named on the diagnostic log.
func (l *Logger) Close(ctx context.Context) error {
	if l == nil {
		return nil
	}
	l.keptMu.Lock()
	pending := len(l.kept) + len(l.lost)
	l.keptMu.Unlock()
	if pending > 0 {
		l.recovered()
		l.sink.Flush(ctx)
	}
	err := l.sink.Close(ctx)
	l.keptMu.Lock()
	var names []string
	for _, k := range l.kept {
		names = append(names, k.about)
	}
	names = append(names, l.lost...)
	l.kept, l.lost = nil, nil
	l.keptMu.Unlock()
	for _, n := range names {
		l.report(fmt.Errorf("audit record lost: %s", n))
	}
	if n := l.dropped.Load(); n > 0 {
		l.report(fmt.Errorf("%d audit records were not written", n))
	}
	return err
}

// settle accounts for one record's write: on failure the record and the
// dropped count it carried are lost again.
func (l *Logger) settle(err error, carried int64) {
	if err == nil {
		l.recovered()
		return
	}
	l.dropped.Add(carried + 1)
	l.report(err)
}

func (l *Logger) report(err error) {
	if d := l.diag.Load(); d != nil {
		d.Error("audit record not written", "err", err, "records_lost", l.dropped.Load())
	}
}

// encodeRecord returns r's JSON line and the dropped count it carries: at
// most MaxRecord bytes, in the compact form when the full one is longer.
func (l *Logger) encodeRecord(ctx context.Context, r Record) ([]byte, int64) {
	carried := l.dropped.Swap(0)
	l.encode.Lock()
	defer l.encode.Unlock()
	data := l.encodeWith(ctx, r, carried, fullCaps)
	if len(data) > MaxRecord {
		data = l.encodeWith(ctx, r, carried, compactCaps)
	}
	return bytes.Clone(data), carried
}

// encodeWith encodes r under c into l.into; l.encode is held.
func (l *Logger) encodeWith(ctx context.Context, r Record, carried int64, c caps) []byte {
	rec := slog.NewRecord(time.Now(), slog.LevelInfo, "shell_execution_audit", 0)
	rec.AddAttrs(attrs(r, c)...)
	if carried > 0 {
		rec.AddAttrs(slog.Int64("audit_dropped", carried))
	}
	l.into.Reset()
	if err := l.h.Handle(ctx, rec); err != nil {
		// The JSON handler fails only on a broken writer; ours is a buffer.
		panic("audit: encoding a record: " + err.Error())
	}
	return l.into.Bytes()
}

// attrs is r as the record's fields, redacted and capped by c.
func attrs(r Record, c caps) []slog.Attr {
	redArgv := Argv(r.Argv)
	argv, total := redArgv, len(redArgv)
	if total > c.argv {
		argv = append(argv[:c.argv:c.argv], fmt.Sprintf("[%d more elements]", total-c.argv))
	}
	if c.value > 0 {
		argv = slices.Clone(argv)
		for i, v := range argv {
			argv[i] = Capped(v, c.value)
		}
	}
	a := []slog.Attr{
		slog.Float64("timestamp", float64(r.Time.UnixNano())/1e9),
		slog.Float64("duration", r.Duration.Seconds()),
		slog.String("result_type", string(r.ResultType)),
		slog.String("tool", Capped(r.Tool, c.field)),
		slog.Any("command", commandName(argv)),
		slog.Any("argv", argv),
		slog.String("directory", Capped(r.Directory, c.field)),
		slog.Group("redirections", slog.Bool("stdin", r.Stdin), slog.Bool("stdout", r.Stdout), slog.Bool("stdout_append", r.Append)),
		slog.Any("env", cappedEnv(Env(r.Env), c)),
		slog.Any("child_env", cappedNames(r.ChildEnv, c)),
		slog.Float64("timeout", r.Timeout.Seconds()),
		slog.Int64("output_limit", r.OutputLim),
		slog.Int64("stdout_bytes", r.StdoutN),
		slog.Int64("stderr_bytes", r.StderrN),
		slog.Int64("stdout_bytes_read", r.StdoutRead),
		slog.Int64("stderr_bytes_read", r.StderrRead),
		slog.Any("return_code", r.ReturnCode),
		slog.Int("stages", r.Stages),
		slog.String("rule", Capped(r.Rule, c.field)),
		slog.String("sandbox", r.Sandbox),
		slog.Int("sandbox_abi", r.SandboxABI),
		slog.String("lifetime", r.Lifetime),
	}
	if total > c.argv {
		a = append(a, slog.Int("argv_count", total))
	}
	if r.Signal != "" {
		a = append(a, slog.String("signal", Capped(r.Signal, c.field)))
	}
	if r.Reason != "" {
		key := "error"
		if r.ResultType == Rejected {
			key = "rejection_reason"
		}
		a = append(a, slog.String(key, Capped(Reason(r.Reason, r.quotes(redArgv)), c.reason)))
	}
	if r.Remote != "" {
		a = append(a, slog.String("remote", Capped(r.Remote, c.field)))
	}
	if len(r.SandboxDenied) > 0 {
		a = append(a, slog.Any("sandbox_denied", cappedDenials(r.SandboxDenied, c)))
	}
	if r.Status != 0 {
		a = append(a, slog.Int("http_status", r.Status))
	}
	if r.Suppressed != 0 {
		a = append(a, slog.Int("suppressed", r.Suppressed))
	}
	if r.ErrorKind != "" {
		a = append(a, slog.String("error_type", string(r.ErrorKind)))
	}
	if r.Confirmed != "" {
		a = append(a, slog.String("confirmed", string(r.Confirmed)))
	}
	a = append(a, r.Job.attrs(c.field)...)
	if len(r.Lost) > 0 {
		a = append(a, slog.Any("lost", cappedNames(r.Lost, c)))
	}
	if c.compact {
		a = append(a, slog.Bool("compact", true))
	}
	return a
}

// quotes are the client values r's reason may quote, with their redacted
// forms: the refused argument (in its argv context when it is an argv
// element), the argv, the env and the raw arguments.
func (r Record) quotes(redArgv []string) []Quote {
	q := quotesOf(r.Argv, redArgv, r.Env)
	q = append(q, rawQuotes(r.Args)...)
	if r.ReasonArg != "" {
		red := Arg(r.ReasonArg)
		for _, e := range q {
			if e.Value == r.ReasonArg {
				red = e.Redacted
			}
		}
		q = appendQuote(q, r.ReasonArg, red)
	}
	return q
}

// rawQuotes are the strings of raw arguments that failed to decode:
// "command" and "args" string arrays as argv, "envs" values by their
// names, keys and the directory as Scalars, any other string as a digest.
func rawQuotes(raw json.RawMessage) []Quote {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return []Quote{{string(raw), Scalar(string(raw))}}
	}
	var q []Quote
	// top is the argument a value is under: the argv and the directory
	// are read by their rules; a string anywhere else (a timeout, a
	// flag, stdin) is data where none was expected, recorded as a digest.
	var walk func(v any, env bool, name, top string)
	walk = func(v any, env bool, name, top string) {
		switch v := v.(type) {
		case string:
			switch top {
			case "envs":
				q = appendQuote(q, v, EnvValue(name, v))
			case "command", "args", "program", "directory", "cwd":
				q = appendQuote(q, v, Scalar(v))
			default:
				q = appendQuote(q, v, digest(v))
			}
		case []any:
			for _, e := range v {
				walk(e, env, name, top)
			}
		case map[string]any:
			for k, e := range v {
				q = appendQuote(q, k, Scalar(k))
				if top == "" {
					walk(e, k == "envs", k, k)
				} else {
					walk(e, env, k, top)
				}
			}
		}
	}
	if m, ok := v.(map[string]any); ok {
		for _, key := range []string{"command", "args"} {
			if arr, ok := m[key].([]any); ok {
				var argv []string
				for _, e := range arr {
					if s, ok := e.(string); ok {
						argv = append(argv, s)
					}
				}
				q = append(q, Quotes(argv, nil)...)
			}
		}
	}
	walk(v, false, "", "")
	return q
}

func cappedEnv(env map[string]string, c caps) map[string]string {
	if len(env) <= c.env && c.value == 0 {
		return env
	}
	out := make(map[string]string, min(len(env), c.env)+1)
	for _, k := range slices.Sorted(maps.Keys(env))[:min(len(env), c.env)] {
		v := env[k]
		if c.value > 0 {
			v = Capped(v, c.value)
		}
		out[k] = v
	}
	if len(env) > c.env {
		out["[more]"] = fmt.Sprintf("%d entries not recorded", len(env)-c.env)
	}
	return out
}

// cappedNames bounds the child_env list like env: names only, an odd name
// quoted as a scalar, at most c.env of them.
func cappedNames(names []string, c caps) []string {
	out := make([]string, 0, min(len(names), c.env)+1)
	for _, n := range names[:min(len(names), c.env)] {
		out = append(out, envName(n))
	}
	if len(names) > c.env {
		out = append(out, fmt.Sprintf("[%d more]", len(names)-c.env))
	}
	return out
}

func commandName(argv []string) any {
	if len(argv) == 0 {
		return nil
	}
	return argv[0]
}

// Denial is one access the sandbox denied a stage: its kind (exec,
// write, read, connect, access), the path or address, and whether it was
// guessed from the stage's stderr rather than reported by the kernel.
type Denial struct {
	Kind   string `json:"kind"`
	Target string `json:"target,omitempty"`
	Guess  bool   `json:"guess,omitempty"`
}

// maxDenied is how many denials a record carries.
const maxDenied = 8

func cappedDenials(ds []Denial, c caps) []Denial {
	out := make([]Denial, 0, min(len(ds), maxDenied))
	for _, d := range ds[:min(len(ds), maxDenied)] {
		out = append(out, Denial{Kind: Capped(d.Kind, c.field), Target: Capped(d.Target, c.field), Guess: d.Guess})
	}
	return out
}
