package runner

import (
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// Spec is one validated invocation: a pipeline of one or more stages, run
// without a shell. The policy has already approved every field.
type Spec struct {
	// Stages holds each stage's argv; Stages[i][0] is the program name as the
	// client sent it. A name without "/" is resolved with the PATH in Env
	// (never the server's PATH); a name with "/" is used as given.
	Stages [][]string
	// Dir is the pinned working directory of every stage; the "<" and ">"
	// files open through it. Required.
	Dir *workdir.Dir
	// Env is the complete child environment ("NAME=value" entries).
	Env []string
	// Stdin is fed to the first stage; nil or empty means immediate EOF.
	// Ignored when StdinFile is set.
	Stdin []byte
	// StdinFile is a "<" target relative to Dir, opened through its os.Root.
	StdinFile string
	// StdoutFile is a ">" or ">>" target relative to Dir, opened through
	// its os.Root; StdoutAppend selects ">>". Bytes written to it still count
	// toward OutputLimit.
	StdoutFile   string
	StdoutAppend bool
	// Timeout bounds the whole pipeline (wall clock).
	Timeout time.Duration
	// OutputLimit is the cap in bytes per stream (stdout, stderr).
	OutputLimit int64
	// DrainPastLimit keeps reading a stream past OutputLimit and discards the
	// excess instead of terminating the process group (execute_command mode).
	DrainPastLimit bool
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
	// Sandbox, when not nil, starts every stage through the launcher,
	// which applies the rlimits, no_new_privs and (when
	// Sandbox.Confined) the stage's Landlock ruleset before the stage's
	// program runs. A confined call also gets a private temporary
	// directory (mode 0700 under os.TempDir, writable under the ruleset,
	// given back to the launcher when Run returns), exported as TMPDIR
	// unless Env already sets TMPDIR.
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
	Outcome Outcome
	// Env is the environment the stages were started with: Spec.Env and
	// what the runner added (TMPDIR of a confined call); nil when no stage
	// was about to start.
	Env             []string
	Stdout, Stderr  []byte
	StdoutBytes     int64
	StderrBytes     int64
	StdoutTruncated bool
	StderrTruncated bool
	// LimitStream is "stdout" or "stderr" when Outcome is OutputCapped.
	LimitStream string
	// ExitCode is the last stage's exit status; nil if it was signalled.
	ExitCode *int
	// Signal is the last stage's terminating signal name, or "".
	Signal   string
	Stages   []StageStatus
	Duration time.Duration
	// StdoutFileError is the first error writing the ">"/">>" file (for
	// example ENOSPC or EFBIG); later output was counted but not written.
	StdoutFileError error
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
