package server

import (
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/jobs"
	"github.com/seed-b63acb1b/mcp-shell-server/outputs"
)

// JobOptions configure background jobs and retained output. The zero value
// turns both off: no output is kept, and neither the job tools nor the
// background, stdin_output_id and stdin_open arguments exist.
type JobOptions struct {
	// Retain configures the retained-output store; a zero Quota turns
	// retention off, and with it jobs, chaining and the shell-output
	// resources. InMemory and Changed are the server's own.
	Retain outputs.Config
	// MaxJobs is how many jobs run at once (0: no jobs; they need
	// retention). MaxJobTime bounds every job and is its timeout when the
	// call gives none.
	MaxJobs    int
	MaxJobTime time.Duration
	// Adaptive, when positive, turns a foreground call still running after
	// it into a job.
	Adaptive time.Duration
}

// maxQueuedJobs is how many jobs may wait for a slot. Each holds its
// pinned working directory (and its stdin pipe) open while it waits; 64
// covers a burst of submissions without letting a client queue unbounded
// work.
const maxQueuedJobs = 64

// background is the server's retained outputs and jobs; a nil store or
// table means that part is off.
type background struct {
	store *outputs.Store
	table *jobs.Table
	subs  *subscriptions
}

// openBackground opens the store and the job table the options ask for
// and adds the subscription handlers to opts.
func (s *Server) openBackground(opts *mcp.ServerOptions) error {
	j := s.opts.Jobs
	if j.Retain.Quota <= 0 {
		if j.MaxJobs > 0 {
			return fmt.Errorf("server: jobs need retained output (JobOptions.Retain.Quota)")
		}
		return nil
	}
	s.bg.subs = newSubscriptions(s)
	cfg := j.Retain
	cfg.Changed = s.outputChanged
	cfg.InMemory = inMemory(s.opts.Limits)
	store, err := outputs.Open(cfg)
	if err != nil {
		return err
	}
	s.bg.store = store
	if j.MaxJobs > 0 {
		s.bg.table = jobs.NewTable(j.MaxJobs, maxQueuedJobs)
	}
	opts.SubscribeHandler, opts.UnsubscribeHandler = s.bg.subs.subscribe, s.bg.subs.unsubscribe
	return nil
}

// inMemory is how much of a stream the store holds in memory before it
// writes a file: what a shell_execute answer's text shows whole (the text
// limit, or with none the whole capture). Such an output costs no file;
// one that outgrows it is in its file, where read_output and the
// shell-output resources find what the text cut.
func inMemory(l Limits) int64 {
	if l.TextLimit > 0 {
		return l.TextLimit
	}
	return l.OutputLimit
}

// outputChanged is the store's hook: subscribers hear of every change,
// and a job whose output was deleted leaves the table with it (so the
// table is bounded by the store's count bound).
func (s *Server) outputChanged(id string, gone bool) {
	if gone && s.bg.table != nil {
		s.bg.table.Remove(id)
	}
	s.bg.subs.changed(id, gone)
}

// registerBackground adds the tools and the resource template of what is
// on.
func (s *Server) registerBackground() error {
	if s.bg.store == nil {
		return nil
	}
	s.addOutputResources()
	return s.addJobTools()
}

// closeBackground stops notifications and deletes the retained outputs.
func (s *Server) closeBackground() {
	if s.bg.store == nil {
		return
	}
	s.bg.subs.close()
	s.bg.store.Close()
}

// jobsDescription is the line tool descriptions add about jobs and
// retained output, or "".
func (s *Server) jobsDescription() string {
	switch {
	case s.bg.table != nil:
		line := fmt.Sprintf("\nLong-running work: \"background\": true returns a job_id at once (at most %d jobs run at once, each up to %ds); read_output pages its output, job_status, job_list, job_kill and job_stdin manage it.", s.opts.Jobs.MaxJobs, int(s.opts.Jobs.MaxJobTime.Seconds()))
		if a := s.opts.Jobs.Adaptive; a > 0 {
			line += fmt.Sprintf(" A call still running after %ds becomes such a job and returns its id.", int(a.Seconds()))
		}
		return line + " Output is retained: a result whose text was cut names its output_id; stdin_output_id feeds a retained stdout to another command."
	case s.bg.store != nil:
		return "\nOutput is retained: a result whose text was cut names its output_id, read_output pages it, and stdin_output_id feeds a retained stdout to another command."
	}
	return ""
}
