package runner

import (
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// Spec is one run of an approved call: its plan, and how the runner feeds
// and bounds it.
type Spec struct {
	// Plan is the call as the policy approved it (package plan): every
	// stage's argv, resolved program, environment and confinement, the
	// pinned working directory and the "<" and ">"/">>" files, which open
	// through the directory's os.Root. The runner takes every fact from it
	// and re-derives none; bytes written to the ">" file still count
	// toward FileLimit. Required.
	Plan *plan.Call
	// Stdin is fed to the first stage; nil or empty means immediate EOF.
	// Ignored when the plan has a "<" file.
	Stdin []byte
	// Timeout bounds the whole pipeline (wall clock), from the stages'
	// starts to the end of their output.
	Timeout time.Duration
	// OutputLimit is the cap in bytes per stream (stdout, stderr).
	OutputLimit int64
	// DrainPastLimit keeps reading a stream past OutputLimit and discards the
	// excess instead of terminating the process group (execute_command mode).
	DrainPastLimit bool
	// FileLimit caps the bytes written to the ">"/">>" file; zero or
	// negative means OutputLimit. A file that would pass it is never
	// drained, whatever DrainPastLimit says: a file cut short is no
	// result, so the group is terminated and the outcome is OutputCapped
	// with LimitStream "file".
	FileLimit int64
	// DiscardStderr gives every stage /dev/null as its standard error, and
	// DiscardStdout the last stage as its standard output unless the plan
	// has a ">" file: nothing of them is read, kept or counted (the
	// Result's streams are empty).
	DiscardStderr, DiscardStdout bool
	// KillGrace is the pause between SIGTERM and SIGKILL to the process
	// group; zero means DefaultKillGrace.
	KillGrace time.Duration
	// Progress, when not nil, is updated with the bytes each stream has
	// carried so far while the run goes on (for progress notifications).
	Progress *Progress
	// StdoutTee and StderrTee, when not nil, are given every byte their
	// captured stream carries, in order, as it is read: the kept bytes and,
	// with DrainPastLimit, the drained ones (a stream that stops being read
	// at the cap tees what was read). A ">" file's bytes are not captured,
	// so StdoutTee sees none of them. Each is written only by its stream's
	// reading goroutine and must not keep the slice; the first write error
	// stops that tee, not the run (so a tee that has all it keeps may fail
	// on purpose: a drain then splices the rest away instead of reading it).
	StdoutTee, StderrTee io.Writer
	// StdinFrom, when not nil, is the first stage's stdin (the read end of
	// a pipe the caller writes, or an open file); Stdin and StdinFile are
	// then ignored. Run closes it once the stages have started; callers
	// close it again after Run (harmless), which covers a run that failed
	// before it got that far.
	StdinFrom *os.File
	// Lifetime binds the call's processes to the call (package lifetime:
	// cgroup, subreaper or session); nil is lifetime.Default(), the
	// process's own, for callers that never set one up.
	Lifetime *lifetime.Manager
	// Sandbox, when not nil, starts every stage through the launcher,
	// which applies the stage's plan.Confinement (rlimits, no_new_privs
	// and, in mode landlock, its ruleset) before the stage's program runs.
	Sandbox *sandbox.Launcher
}

// DefaultKillGrace is the pause between SIGTERM and SIGKILL. It is short
// so that a cancelled call's processes are gone within about 200 ms even
// when they ignore SIGTERM (a client that cancels is waiting), yet long
// enough for git or a compiler to remove lock and temporary files.
const DefaultKillGrace = 150 * time.Millisecond

// StageStatus is how one pipeline stage ended.
type StageStatus struct {
	Argv0 string `json:"argv0"`
	// ExitCode is the exit status, or nil when the stage was killed by a
	// signal or never waited for.
	ExitCode *int `json:"exit_code"`
	// Signal is the terminating signal's name ("SIGKILL"), or "".
	Signal string `json:"signal,omitempty"`
}

// Outcome classifies how a run ended; it is also the audit result_type.
type Outcome string

// Outcomes, in the audit vocabulary.
const (
	Success      Outcome = "success"       // every stage exited (any status)
	TimedOut     Outcome = "timeout"       // Timeout expired; group killed
	OutputCapped Outcome = "output_cap"    // a stream hit OutputLimit; group killed
	Cancelled    Outcome = "cancelled"     // ctx cancelled (MCP cancel, shutdown)
	ProcessError Outcome = "process_error" // a stage could not be started
)

// Result is what a run produced. Stdout and Stderr hold at most OutputLimit
// bytes each, in memory the runner no longer touches once Run returns;
// StdoutBytes and StderrBytes count every byte the streams carried
// (including discarded ones).
type Result struct {
	Outcome         Outcome
	Stdout, Stderr  []byte
	StdoutBytes     int64
	StderrBytes     int64
	StdoutTruncated bool
	StderrTruncated bool
	// LimitStream is "stdout" or "stderr" when Outcome is OutputCapped, or
	// "file" when the ">"/">>" file reached FileLimit (the file then holds
	// exactly FileLimit bytes of this run's output); LimitBytes is the
	// limit it reached.
	LimitStream string
	LimitBytes  int64
	// ExitCode is the last stage's exit status; nil if it was signalled.
	ExitCode *int
	// Signal is the last stage's terminating signal name, or "".
	Signal   string
	Stages   []StageStatus
	Duration time.Duration
	// StdoutFileError is the first error writing the ">"/">>" file (for
	// example ENOSPC or EFBIG); later output was counted but not written.
	StdoutFileError error
	// StartCut is the start the timeout or ctx ended (a *LaunchError, for
	// example wrapping a *sandbox.StartError with Step "deadline"): that
	// stage and the later ones never ran, and Outcome is TimedOut or
	// Cancelled with what the stages before it wrote. Nil otherwise.
	StartCut error
}

// Progress is a live count of the bytes a running call's streams have
// carried. It is safe to read from any goroutine while Run writes it.
type Progress struct {
	stdout, stderr atomic.Int64
}

// Bytes returns the bytes stdout and stderr have carried so far.
func (p *Progress) Bytes() (stdout, stderr int64) {
	return p.stdout.Load(), p.stderr.Load()
}

func (p *Progress) counter(stream string) *atomic.Int64 {
	if p == nil {
		return nil
	}
	if stream == "stdout" {
		return &p.stdout
	}
	return &p.stderr
}
