package audit

import "log/slog"

// Event is what a record is about beyond a tool call that ran in the
// foreground (the zero Event, not logged). The list is closed.
type Event string

// Events.
const (
	// EventJobStart: a call became a background job (background: true, or
	// the adaptive hand-off); result_type is started (or how the call was
	// refused), and a job_end record follows.
	EventJobStart Event = "job_start"
	// EventJobEnd: a job ended; result_type says how (success, timeout,
	// output_cap, cancelled for job_kill and shutdown, process_error).
	EventJobEnd Event = "job_end"
	// EventOutputRead: a retained output was read (read_output or
	// resources/read). The record names the output, the stream, the offset
	// and the byte count, never the content.
	EventOutputRead Event = "output_read"
	// EventRecordsLost: records the log kept for a later attempt (a job's
	// end) could not be kept any longer; lost names each ("job_end of job
	// ID"). Written once the destination takes records again.
	EventRecordsLost Event = "records_lost"
)

// Job is what a record says about a job or a retained output.
type Job struct {
	Event Event
	// JobID names the job; OutputID the call's retained output (a job's
	// output has the job's id).
	JobID, OutputID string
	// Adaptive: the job is a foreground call handed off after the
	// adaptive delay.
	Adaptive bool
	// KilledBy is job_kill or shutdown for a killed job.
	KilledBy string
	// Stream, Offset and ReadBytes describe an output read.
	Stream    string
	Offset    int64
	ReadBytes int64
	// StdinBytes is how many bytes job_stdin wrote.
	StdinBytes int64
}

// attrs are the job fields of a record, each string capped at field
// bytes (an id a client sent may be anything); absent ones are left out,
// so a foreground call's record is unchanged.
func (j Job) attrs(field int) []slog.Attr {
	var a []slog.Attr
	str := func(k, v string) {
		if v != "" {
			a = append(a, slog.String(k, Capped(v, field)))
		}
	}
	str("event", string(j.Event))
	str("job_id", j.JobID)
	str("output_id", j.OutputID)
	if j.Adaptive {
		a = append(a, slog.Bool("adaptive", true))
	}
	str("killed_by", j.KilledBy)
	if j.Event == EventOutputRead {
		a = append(a, slog.String("stream", Capped(j.Stream, field)), slog.Int64("offset", j.Offset), slog.Int64("read_bytes", j.ReadBytes))
	}
	if j.StdinBytes > 0 {
		a = append(a, slog.Int64("stdin_bytes", j.StdinBytes))
	}
	return a
}
