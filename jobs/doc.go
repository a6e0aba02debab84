// Package jobs is the table of background jobs and their lifecycle: a
// bound on how many run at once, a bounded queue behind it, states from
// queued to how the run ended, kill, waiting for the end, and a job's
// open stdin.
//
// A job is a run the caller (package server) has already approved and
// prepared: this package never sees a request, a policy or an audit
// record, and does not start processes. The caller hands it the run:
//
//   - Submit queues a job and returns at once. The job's goroutine waits
//     for a free slot (or its context), calls run with that context, and
//     records the result.
//   - Adopt makes a run that is already going (a foreground call still
//     running after the adaptive delay) a job, once a slot is free; it
//     gives up, and nothing is registered, if the run ends or the waiting
//     caller's context ends first.
//
// Contract:
//
//   - At most the table's running bound of jobs hold a slot; at most its
//     queue bound wait for one (Submit fails with ErrQueueFull beyond).
//   - Every job ends exactly once: its state becomes exited, killed,
//     timed_out, output_capped or failed, its context is cancelled, the
//     caller's ended hook runs (also for a job killed while queued, which
//     never ran), and then Done is closed. Kill cancels the job's context
//     (the runner then terminates its whole process group: SIGTERM, the
//     grace, SIGKILL) and waits for Done.
//   - A job stays in the table after it ended until Remove (the caller
//     removes it when its retained output is deleted).
//   - Input is the write end of a job's stdin pipe: writes are bounded in
//     time (a job that does not read cannot block the caller), and a job
//     that is gone gives ErrStdinGone, never SIGPIPE.
//
// Not covered: runtime limits (the run's own timeout, runner.Spec.Timeout)
// and what a job does; jobs are not persisted and do not survive the
// server; there is no per-client ownership (every session of the server
// sees every job).
package jobs
