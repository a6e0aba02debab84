package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/jobs"
	"github.com/seed-b63acb1b/mcp-shell-server/outputs"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
)

// The tools that follow jobs and retained output: read_output (any
// retained output), and with jobs job_status, job_list, job_kill and
// job_stdin. They run nothing; each refuses an unknown id with a message
// that says whether it never existed, expired or was evicted.

// maxWaitSeconds bounds the wait of read_output and job_status: well
// inside the 60 s request timeout common to MCP clients (the TypeScript
// SDK's default), so a wait never turns into a client-side timeout.
const maxWaitSeconds = 30

// Read lengths of read_output: the default is the text limit's default
// (about 4,000 tokens, see config/defaults.go); the maximum keeps one
// answer well inside clients' message limits.
const (
	defaultReadLength = 16 << 10
	maxReadLength     = 1 << 20
)

// stdinWriteTimeout bounds how long job_stdin waits for a job to read: a
// job that does not read cannot hold a request (and the job's Input)
// longer than this.
const stdinWriteTimeout = 5 * time.Second

// maxListed bounds job_list: the newest jobs, enough to find one, small
// enough for a model's context.
const maxListed = 100

// ReadInput is read_output's arguments.
type ReadInput struct {
	ID     string  `json:"id"`
	Stream *string `json:"stream,omitempty"`
	Offset *int64  `json:"offset,omitempty"`
	Length *int64  `json:"length,omitempty"`
	Wait   *int64  `json:"wait,omitempty"`
}

// ReadOutput is read_output's structured result. Data is the chunk as
// lossy UTF-8; offsets count bytes of the stream.
type ReadOutput struct {
	ID         string `json:"id"`
	Stream     string `json:"stream"`
	Offset     int64  `json:"offset"`
	NextOffset int64  `json:"next_offset"`
	Bytes      int64  `json:"bytes"`
	Data       string `json:"data"`
	// RetainedBytes is what is kept of the stream so far, TotalBytes what
	// it carried; Truncated: bytes past RetainedBytes were discarded.
	RetainedBytes int64 `json:"retained_bytes"`
	TotalBytes    int64 `json:"total_bytes"`
	Truncated     bool  `json:"truncated"`
	// Done: the output will not grow (its call or job ended). EOF: Done,
	// and this read reached the end of what is kept.
	Done bool `json:"done"`
	EOF  bool `json:"eof"`
	// JobState is the state of the output's job, "" for a foreground call.
	JobState string `json:"job_state,omitempty"`
}

// JobIDInput is the arguments of job_kill; JobStatusInput adds a wait.
type JobIDInput struct {
	ID string `json:"id"`
}

// JobStatusInput is job_status's arguments.
type JobStatusInput struct {
	ID   string `json:"id"`
	Wait *int64 `json:"wait,omitempty"`
}

// JobStdinInput is job_stdin's arguments.
type JobStdinInput struct {
	ID    string  `json:"id"`
	Data  *string `json:"data,omitempty"`
	Close bool    `json:"close,omitempty"`
}

// JobOutput is one job's status. Times are RFC 3339 (UTC); ExitCode and
// Signal are null until the job ended (and one of them stays null).
type JobOutput struct {
	ID             string   `json:"id"`
	State          string   `json:"state"`
	Tool           string   `json:"tool"`
	Argv           []string `json:"argv"`
	Directory      string   `json:"directory"`
	ExitCode       *int     `json:"exit_code"`
	Signal         *string  `json:"signal"`
	TimedOut       bool     `json:"timed_out"`
	StdoutBytes    int64    `json:"stdout_bytes"`
	StderrBytes    int64    `json:"stderr_bytes"`
	QueuedAt       string   `json:"queued_at"`
	StartedAt      *string  `json:"started_at"`
	EndedAt        *string  `json:"ended_at"`
	RuntimeSeconds float64  `json:"runtime_seconds"`
	TimeoutSeconds float64  `json:"timeout_seconds"`
	Adaptive       bool     `json:"adaptive"`
	StdinOpen      bool     `json:"stdin_open"`
	KilledBy       string   `json:"killed_by,omitempty"`
	SessionID      string   `json:"session_id,omitempty"`
	Detached       bool     `json:"detached,omitempty"`
	Error          string   `json:"error,omitempty"`
	// OutputID is the job's retained output (its own id).
	OutputID string `json:"output_id"`
}

// JobListOutput is job_list's structured result, newest job first.
type JobListOutput struct {
	Jobs       []JobOutput `json:"jobs"`
	Running    int         `json:"running"`
	Queued     int         `json:"queued"`
	MaxRunning int         `json:"max_running"`
	// Omitted counts older jobs left out of Jobs.
	Omitted int `json:"omitted"`
}

// JobStdinOutput is job_stdin's structured result.
type JobStdinOutput struct {
	ID      string `json:"id"`
	Written int    `json:"written"`
	Closed  bool   `json:"closed"`
}

func idSchema(what string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1), Description: what}
}

func waitSchema(what string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(float64(maxWaitSeconds)), Description: what}
}

func objectSchema(required []string, props map[string]*jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Required: required, AdditionalProperties: falseSchema(), Properties: props}
}

// readOnly is the annotations of a tool that only looks.
func readOnly(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}
}

// addJobTools registers read_output and, with jobs, the job tools.
func (s *Server) addJobTools() error {
	type reg struct {
		tool *mcp.Tool
		add  func(*mcp.Tool) error
	}
	regs := []reg{{&mcp.Tool{
		Name:        "read_output",
		Title:       "Read retained output",
		Description: fmt.Sprintf("Read the retained stdout or stderr of a call or background job, by byte offset: the output_id or job_id of its result. Returns up to length bytes (default %d) from offset, and next_offset for the next page; wait (seconds, up to %d) waits for new output or the end first. done=true means it will not grow. Example: {\"id\":\"k3v9x2m4qa\",\"offset\":0,\"wait\":10}", defaultReadLength, maxWaitSeconds),
		InputSchema: objectSchema([]string{"id"}, map[string]*jsonschema.Schema{
			"id":     idSchema("output_id or job_id from an earlier result"),
			"stream": {Type: "string", Enum: []any{"stdout", "stderr"}, Description: "stdout (default) or stderr"},
			"offset": {Type: "integer", Minimum: jsonschema.Ptr(0.0), Description: "byte offset to read from (default 0); use the previous next_offset to page"},
			"length": {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(maxReadLength)), Description: fmt.Sprintf("most bytes to return (default %d)", defaultReadLength)},
			"wait":   waitSchema("seconds to wait for output past offset, or for the end, before answering (default 0)"),
		}),
		Annotations: readOnly("Read retained output"),
	}, func(t *mcp.Tool) error { return addControl(s, t, s.readOutput) }}}
	if s.bg.table != nil {
		regs = append(regs,
			reg{&mcp.Tool{
				Name:        "job_status",
				Title:       "Job status",
				Description: fmt.Sprintf("State of a background job: queued, running, exited (exit_code or signal says how), killed, timed_out, output_capped or failed; bytes so far, start and end times, argv. wait (seconds, up to %d) waits for the job to end first. Example: {\"id\":\"k3v9x2m4qa\",\"wait\":30}", maxWaitSeconds),
				InputSchema: objectSchema([]string{"id"}, map[string]*jsonschema.Schema{
					"id":   idSchema("job_id from the call that started the job"),
					"wait": waitSchema("seconds to wait for the job to end before answering (default 0)"),
				}),
				Annotations: readOnly("Job status"),
			}, func(t *mcp.Tool) error { return addControl(s, t, s.jobStatus) }},
			reg{&mcp.Tool{
				Name:        "job_list",
				Title:       "List jobs",
				Description: fmt.Sprintf("List this server's background jobs, newest first (at most %d), running and ended, until their output expires. Example: {}", maxListed),
				InputSchema: objectSchema(nil, map[string]*jsonschema.Schema{
					"session_id": {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(maxSessionID), Description: "list only the jobs started with this session_id"},
				}),
				Annotations: readOnly("List jobs"),
			}, func(t *mcp.Tool) error { return addControl(s, t, s.jobList) }},
			reg{&mcp.Tool{
				Name:        "job_kill",
				Title:       "Kill a job",
				Description: "Stop a background job: its whole process group gets SIGTERM, then SIGKILL after a short grace; returns once it is gone, with its final status (a queued job never starts). Killing an ended job changes nothing. Example: {\"id\":\"k3v9x2m4qa\"}",
				InputSchema: objectSchema([]string{"id"}, map[string]*jsonschema.Schema{"id": idSchema("job_id of the job to stop")}),
				Annotations: &mcp.ToolAnnotations{Title: "Kill a job", IdempotentHint: true, DestructiveHint: ptr(true), OpenWorldHint: ptr(false)},
			}, func(t *mcp.Tool) error { return addControl(s, t, s.jobKill) }},
			reg{&mcp.Tool{
				Name:        "job_stdin",
				Title:       "Write to a job's stdin",
				Description: fmt.Sprintf("Write text to the standard input of a background job started with stdin_open: true, and/or close it (the job then reads end-of-file). A job that does not read within %ds gets what fitted. Example: {\"id\":\"k3v9x2m4qa\",\"data\":\"yes\\n\",\"close\":true}", int(stdinWriteTimeout.Seconds())),
				InputSchema: objectSchema([]string{"id"}, map[string]*jsonschema.Schema{
					"id":    idSchema("job_id of a job started with stdin_open: true"),
					"data":  {Type: "string", Description: "text to write (include the newline a line-reading program expects)"},
					"close": {Type: "boolean", Description: "close the job's stdin after writing"},
				}),
				Annotations: &mcp.ToolAnnotations{Title: "Write to a job's stdin", DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
			}, func(t *mcp.Tool) error { return addControl(s, t, s.jobStdin) }},
		)
	}
	for _, r := range regs {
		if err := r.add(r.tool); err != nil {
			return err
		}
	}
	return nil
}

// recordedControls are the control tools answered only with room for
// their record, like the command tools: read_output hands out a call's
// output and job_stdin feeds a running program. job_status and job_list
// show what the start records already hold, and job_kill only stops a
// job (whose end record has its room from the start): they answer
// while the log fails, their own records best-effort.
var recordedControls = map[string]bool{"read_output": true, "job_stdin": true}

// control is a job or retained-output tool: it answers from the store or
// the job table, with the outcome the audit record is made from (answered,
// or refused with a *refusal.Rejection).
type control[In any] func(ctx context.Context, in In) (*mcp.CallToolResult, any, outcome)

// addControl registers a control tool the way addTool registers the
// command tools: arguments validated against the input schema, the
// structured output marshalled once (its schema derived from Out).
func addControl[In any](s *Server, t *mcp.Tool, h control[In]) error {
	schema := t.InputSchema.(*jsonschema.Schema)
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	if t.InputSchema, err = encodedSchema(t.Name, schema); err != nil {
		return err
	}
	hint := shapeHint(schema)
	if t.OutputSchema == nil {
		out, err := outputSchemaOf(t.Name)
		if err != nil {
			return err
		}
		t.OutputSchema = out
	}
	recorded := recordedControls[t.Name]
	s.mcp.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		st := stateFrom(ctx)
		st.call.tool = t.Name
		var in In
		if err := decodeArgs(req.Params.Arguments, resolved, &in); err != nil {
			st.report(outcome{kind: invalidArgs, err: err})
			return invalidArguments(err, hint), nil
		}
		if recorded && st.admitErr != nil {
			st.report(outcome{kind: auditRefused, err: st.admitErr})
			return errorResult("Error: the server cannot write this call's audit record right now, so it was not answered"), nil
		}
		res, out, o := h(ctx, in)
		st.report(o)
		if o.err != nil {
			return errorResult("Error: " + o.err.Error()), nil
		}
		return withStructured(ctx, st, res, out)
	})
	return nil
}

// outputSchemaOf is the output schema of a control tool.
func outputSchemaOf(tool string) (*jsonschema.Schema, error) {
	switch tool {
	case "read_output":
		return jsonschema.For[ReadOutput](nil)
	case "job_status", "job_kill":
		return jsonschema.For[JobOutput](nil)
	case "job_list":
		return jsonschema.For[JobListOutput](nil)
	case "job_stdin":
		return jsonschema.For[JobStdinOutput](nil)
	}
	return nil, fmt.Errorf("tool %s: no output schema", tool)
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func refusedOutcome(o outcome, err error) (*mcp.CallToolResult, any, outcome) {
	o.kind, o.err = refused, err
	return nil, nil, o
}

// untilDone bounds a wait by its seconds, the request and the server's
// shutdown (which must not wait for a client's wait).
func (s *Server) untilDone(ctx context.Context, seconds *int64) (context.Context, context.CancelFunc) {
	var d time.Duration
	if seconds != nil {
		d = time.Duration(*seconds) * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	stop := context.AfterFunc(s.base, cancel)
	return ctx, func() { stop(); cancel() }
}

func (s *Server) readOutput(ctx context.Context, in ReadInput) (*mcp.CallToolResult, any, outcome) {
	stream, off, length := "stdout", int64(0), int64(defaultReadLength)
	if in.Stream != nil {
		stream = *in.Stream
	}
	if in.Offset != nil {
		off = *in.Offset
	}
	if in.Length != nil {
		length = *in.Length
	}
	note := &readNote{id: in.ID, stream: stream, offset: off}
	o := outcome{kind: answered, read: note}
	out, err := s.lookupOutput(in.ID)
	if err != nil {
		return refusedOutcome(o, err)
	}
	i, _ := outputs.StreamIndex(stream)
	if in.Wait != nil && *in.Wait > 0 {
		wctx, cancel := s.untilDone(ctx, in.Wait)
		out.Wait(wctx, i, off)
		cancel()
	}
	c, err := out.Read(i, off, length)
	if err != nil {
		return refusedOutcome(o, refusal.New(CodeUnknownID, -1, in.ID, "%s", err.Error()))
	}
	st := c.Info.Streams[i]
	data := wholeRunes(c.Data, off+int64(len(c.Data)) < st.Size)
	note.bytes = int64(len(data))
	ro := &ReadOutput{
		ID: in.ID, Stream: stream, Offset: off, NextOffset: off + int64(len(data)), Bytes: int64(len(data)), Data: lossy(data),
		RetainedBytes: st.Size, TotalBytes: st.Total, Truncated: st.Truncated, Done: c.Info.Done,
	}
	ro.EOF = ro.Done && ro.NextOffset >= st.Size
	if s.bg.table != nil {
		if j, err := s.bg.table.Get(in.ID); err == nil {
			ro.JobState = string(j.Status().State)
		}
	}
	return textResult(readHeader(ro) + ro.Data), ro, o
}

// wholeRunes trims a chunk that ends inside a UTF-8 sequence when more
// bytes follow, so the next page starts at a character; a chunk of one
// partial character is returned as is.
func wholeRunes(b []byte, more bool) []byte {
	if !more || len(b) == 0 {
		return b
	}
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) || i == 0 {
				return b
			}
			return b[:i]
		}
	}
	return b
}

// readHeader is the first line of read_output's text: where the chunk
// lies, and what to do next.
func readHeader(r *ReadOutput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s of %s: bytes %d to %d of %d kept", r.Stream, r.ID, r.Offset, r.NextOffset, r.RetainedBytes)
	if r.Truncated {
		fmt.Fprintf(&b, " (%d carried; the rest was not kept)", r.TotalBytes)
	}
	switch {
	case r.EOF:
		b.WriteString("; end of output")
	case r.Done:
		fmt.Fprintf(&b, "; next offset %d", r.NextOffset)
	case r.JobState != "":
		fmt.Fprintf(&b, "; job %s, more may come; next offset %d", r.JobState, r.NextOffset)
	default:
		fmt.Fprintf(&b, "; the call is still running, more may come; next offset %d", r.NextOffset)
	}
	b.WriteString("]\n")
	return b.String()
}

// job finds a job, or refuses with a message that says what the id is
// instead: a call that was not a job, an expired or evicted output, or
// nothing at all.
func (s *Server) job(id string) (*jobs.Job, error) {
	if outputs.ValidID(id) {
		if j, err := s.bg.table.Get(id); err == nil {
			return j, nil
		}
	}
	if !outputs.ValidID(id) {
		return nil, refusal.New(CodeUnknownID, -1, id, "unknown job id %q: ids are the job_id of an earlier result (10 characters, such as k3v9x2m4qa); job_list shows the jobs", id)
	}
	_, err := s.bg.store.Get(id)
	var nf *outputs.NotFoundError
	switch {
	case err == nil:
		return nil, refusal.New(CodeUnknownID, -1, id, "%s is the output of a call that did not run as a job; read it with read_output {\"id\":%q}", id, id)
	case errors.As(err, &nf) && nf.Reason != "":
		return nil, refusal.New(CodeUnknownID, -1, id, "job %s is gone: %s", id, nf.Error())
	}
	return nil, refusal.New(CodeUnknownID, -1, id, "unknown job id %q: no job has it; job_list shows the jobs", id)
}

func (s *Server) jobStatus(ctx context.Context, in JobStatusInput) (*mcp.CallToolResult, any, outcome) {
	o := outcome{kind: answered, job: &jobNote{id: in.ID}}
	j, err := s.job(in.ID)
	if err != nil {
		return refusedOutcome(o, err)
	}
	if in.Wait != nil && *in.Wait > 0 {
		wctx, cancel := s.untilDone(ctx, in.Wait)
		select {
		case <-j.Done():
		case <-wctx.Done():
		}
		cancel()
	}
	st := j.Status()
	out := jobOutput(st)
	text := jobLine(out)
	if st.Note != "" {
		text += "\n" + st.Note
	}
	return textResult(text), out, o
}

// JobListInput is job_list's arguments.
type JobListInput struct {
	SessionID *string `json:"session_id,omitempty"`
}

func (s *Server) jobList(_ context.Context, in JobListInput) (*mcp.CallToolResult, any, outcome) {
	all := s.bg.table.List()
	if in.SessionID != nil {
		all = slices.DeleteFunc(all, func(st jobs.Status) bool { return st.SessionID != *in.SessionID })
	}
	running, queued := s.bg.table.Counts()
	out := &JobListOutput{Jobs: []JobOutput{}, Running: running, Queued: queued, MaxRunning: s.opts.Jobs.MaxJobs}
	var b strings.Builder
	fmt.Fprintf(&b, "%d jobs (%d running, %d queued; at most %d run at once)\n", len(all), running, queued, out.MaxRunning)
	for i, st := range all {
		if i == maxListed {
			out.Omitted = len(all) - maxListed
			fmt.Fprintf(&b, "... and %d older jobs\n", out.Omitted)
			break
		}
		jo := jobOutput(st)
		out.Jobs = append(out.Jobs, *jo)
		b.WriteString(jobLine(jo) + "\n")
	}
	return textResult(b.String()), out, outcome{kind: answered}
}

func (s *Server) jobKill(ctx context.Context, in JobIDInput) (*mcp.CallToolResult, any, outcome) {
	o := outcome{kind: answered, job: &jobNote{id: in.ID}}
	j, err := s.job(in.ID)
	if err != nil {
		return refusedOutcome(o, err)
	}
	wasLive := j.Status().State.Live()
	// The kill itself is bounded by the runner (SIGTERM, the grace,
	// SIGKILL, reap); only a client that gives up ends the wait sooner.
	if _, err := s.bg.table.Kill(ctx, in.ID); err != nil {
		return refusedOutcome(o, refusal.New(CodeUnknownID, -1, in.ID, "%v", err))
	}
	out := jobOutput(j.Status())
	o.job.killedBy = out.KilledBy
	text := jobLine(out)
	if !wasLive {
		text = "the job had already ended; nothing was killed: " + text
	}
	return textResult(text), out, o
}

func (s *Server) jobStdin(_ context.Context, in JobStdinInput) (*mcp.CallToolResult, any, outcome) {
	o := outcome{kind: answered, job: &jobNote{id: in.ID}}
	j, err := s.job(in.ID)
	if err != nil {
		return refusedOutcome(o, err)
	}
	if in.Data == nil && !in.Close {
		return refusedOutcome(o, refusal.New(CodeStdin, -1, "", "give data to write, close: true, or both"))
	}
	if j.Stdin == nil {
		return refusedOutcome(o, refusal.New(CodeStdin, -1, "", "job %s was not started with stdin_open: true; its stdin is not open", in.ID))
	}
	out := &JobStdinOutput{ID: in.ID}
	if in.Data != nil {
		n, err := j.Stdin.Write([]byte(*in.Data), stdinWriteTimeout)
		out.Written, o.job.stdinBytes = n, int64(n)
		if err != nil {
			o.kind, o.err = refused, refusal.New(CodeStdin, -1, "", "%v (%d of %d bytes written)", err, n, len(*in.Data))
			return nil, nil, o
		}
	}
	if in.Close {
		j.Stdin.Close()
	}
	out.Closed = !j.Stdin.Open()
	text := fmt.Sprintf("wrote %d bytes to the stdin of job %s", out.Written, in.ID)
	if out.Closed {
		text += "; its stdin is closed"
	}
	return textResult(text), out, o
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// jobOutput is a job's status in the tools' shape.
func jobOutput(st jobs.Status) *JobOutput {
	out := &JobOutput{
		ID: st.ID, State: string(st.State), Tool: st.Tool, Argv: st.Argv, Directory: st.Dir,
		ExitCode: st.ExitCode, TimedOut: st.State == jobs.TimedOut, StdoutBytes: st.StdoutBytes, StderrBytes: st.StderrBytes,
		QueuedAt: rfc3339(st.QueuedAt), TimeoutSeconds: st.Timeout.Seconds(), Adaptive: st.Adaptive,
		StdinOpen: st.StdinOpen, KilledBy: st.KilledBy, OutputID: st.ID, SessionID: st.SessionID, Detached: st.Detached,
	}
	if out.Argv == nil {
		out.Argv = []string{}
	}
	if st.Signal != "" {
		out.Signal = ptr(st.Signal)
	}
	if st.Err != nil {
		out.Error = st.Err.Error()
	}
	if r := st.Result; r.Outcome == runner.OutputCapped && r.LimitStream == "file" {
		out.Error = fmt.Sprintf(`its ">" file exceeded the redirect limit of %d bytes (MCP_SHELL_REDIRECT_LIMIT_BYTES): the job was stopped and the file holds only the first %d bytes of its output`, r.LimitBytes, r.LimitBytes)
	}
	if !st.StartedAt.IsZero() {
		out.StartedAt = ptr(rfc3339(st.StartedAt))
		end := time.Now()
		if !st.EndedAt.IsZero() {
			end = st.EndedAt
		}
		out.RuntimeSeconds = end.Sub(st.StartedAt).Seconds()
	}
	if !st.EndedAt.IsZero() {
		out.EndedAt = ptr(rfc3339(st.EndedAt))
	}
	return out
}

// jobLine is a one-line summary of a job for the text content.
func jobLine(j *JobOutput) string {
	argv, _ := json.Marshal(j.Argv)
	var how string
	switch {
	case j.State == string(jobs.Queued):
		how = "queued (waiting for a free job slot)"
	case j.State == string(jobs.Running):
		how = fmt.Sprintf("running for %.1fs", j.RuntimeSeconds)
	case j.ExitCode != nil:
		how = fmt.Sprintf("%s with status %d after %.1fs", j.State, *j.ExitCode, j.RuntimeSeconds)
	case j.Signal != nil:
		how = fmt.Sprintf("%s (%s) after %.1fs", j.State, *j.Signal, j.RuntimeSeconds)
	default:
		how = j.State
	}
	if j.KilledBy != "" {
		how += " by " + j.KilledBy
	}
	if j.Error != "" {
		how += ": " + j.Error
	}
	return fmt.Sprintf("job %s %s: %s; stdout %d bytes, stderr %d bytes", j.ID, argv, how, j.StdoutBytes, j.StderrBytes)
}
