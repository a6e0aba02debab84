// Package runner runs one approved pipeline without a shell and reports
// how it ended: [Run] takes a [Spec] (stages, the pinned working
// directory from [workdir.Open], the complete child environment, limits,
// the [sandbox.Launcher]) and returns a [Result] whose [Outcome] says how
// it ended. See ExampleRun.
//
// Contract (Run):
//
//   - The runner takes every fact of the call from its plan (Spec.Plan,
//     package plan) and re-derives none: each stage executes the program
//     the policy resolved (plan.Program.ExecPath), after checking that it
//     is still the same file (Program.Verify: a name not found, or a file
//     replaced since, is a *LaunchError and nothing of the call starts
//     after it), with the stage's argv and its complete environment
//     (plan.Stage.Env; a nil Env means an empty one, never the
//     server's).
//   - Every stage starts in a new session of its own (Setsid; its pid is its
//     session and process group id), so no process of a call has a
//     controlling terminal (/dev/tty gives ENXIO); with SIGKILL as its
//     parent-death signal, forked on the lifetime package's forker thread so
//     that the signal means the server died; and, in lifetime's cgroup mode,
//     inside the call's cgroup (startStage in stage.go). Each call is a
//     lifetime.Call of Spec.Lifetime, which binds every descendant to
//     it (cgroup, subreaper or session: see package lifetime). Children
//     never get the server's stdin, stdout or stderr: stdin is a pipe fed
//     with Spec.Stdin, the "<" file, Spec.StdinFrom, or /dev/null; stdout and stderr are
//     pipes.
//   - Stages run concurrently, connected by OS pipes. The stderr of all
//     stages shares one pipe and so is captured as one stream, interleaved in
//     write order as on a terminal, capped like stdout.
//   - stdin is written concurrently with reading, so large inputs cannot
//     deadlock; a stage that exits without reading its stdin (EPIPE) is not
//     an error.
//   - Spec.StdoutTee and StderrTee see every captured byte as it is read,
//     past the cap too when draining, so a caller can retain more than
//     OutputLimit without the runner holding it in memory.
//   - Each stream keeps at most OutputLimit bytes, read straight into the
//     buffer it is returned in: a pooled 64 KiB one while the output fits
//     (the result is then a copy of its exact size), else buffers four
//     times larger each, never past OutputLimit, sized by what arrived
//     rather than by the cap (a full buffer grows only once a read shows
//     more is coming; a result using less than half of its buffer is
//     copied into one of its own size). Past the cap the
//     stream is marked truncated and either the runner stops reading it
//     and terminates the group (Outcome OutputCapped; the byte count then
//     covers what was read, at least OutputLimit+1) or, with
//     DrainPastLimit, the excess is discarded while the byte count
//     continues: spliced to /dev/null (splice(2), no copy) when no tee
//     needs the bytes, else read into a pooled buffer, so memory stays
//     flat however much the child writes. A stream that passed the cap
//     while the stages exited on their own is still reported as
//     OutputCapped (unless draining).
//   - Result.Stdout and Stderr are the caller's: the runner neither keeps
//     nor writes them once Run has returned, so a caller may alias them
//     (for example as a string with unsafe.String) instead of copying.
//   - The plan's Dir is the call's pinned working directory (workdir.Dir):
//     the stages chdir into it and the "<" and ">" files open through it.
//   - A ">"/">>" file is not handed to the child: the last stage writes to a
//     pipe that the runner copies into the file, so redirected output counts
//     toward OutputLimit and at most OutputLimit bytes reach the file. The
//     child therefore sees a pipe, not a seekable file, on stdout.
//   - Timeout bounds the whole run, the stages' starts included: a start
//     the sandbox cannot finish (sandbox.Launcher.StartContext) ends at the
//     deadline or with ctx, the stages already started are ended as below,
//     and the Outcome is TimedOut or Cancelled with their output, never a
//     call left waiting; Result.StartCut names the start.
//   - Timeout and ctx cancellation send SIGTERM to every stage's group and
//     every process of the call (Call.Signal), wait KillGrace (less if every
//     stage exits first), then SIGKILL the groups, every stage and every
//     process of the call (Call.Kill). After every stage has exited
//     normally, descendants still holding the output pipes get at most
//     KillGrace (bounded by the remaining timeout) to finish.
//   - A call's processes never outlive the call: the groups and the
//     call's processes are always sent SIGKILL before Run returns, even
//     after a normal exit, Call.Kill waits until they have exited (cgroup,
//     subreaper), and every stage is reaped. Stages are reaped only after
//     the last signal, so their zombies keep their group ids from being
//     reused while they are signalled. Pipe reads are abandoned shortly
//     after that final SIGKILL, so a descendant the lifetime mechanism does
//     not see (session mode, setsid) cannot hold the call open.
//   - With Spec.Sandbox, every stage is started by the launcher
//     (sandbox.Launcher.StartContext) with the process attributes startStage
//     builds, which applies the stage's plan.Confinement. A stage the
//     launcher refuses becomes a *LaunchError wrapping a
//     *sandbox.StartError (stages already started are killed and reaped).
//     The call's private temporary directory is the plan's (its owner
//     releases it with plan.Call.Close after Run).
//
// Platforms (proc_*.go): macOS stages lead their own session like Linux
// ones, without a parent-death signal or cgroup (lifetime Pgroup); Windows
// stages start suspended in a new process group and are resumed inside
// the call's Job Object, timeout and cancellation skip the SIGTERM and
// grace (Windows has no SIGTERM for another process) and kill the job.
//
// Not covered: in lifetime's session mode (no lifetime.Setup, or neither a
// cgroup nor a subreaper available) descendants that leave their stage's
// session keep running; the limits of the other modes are in package
// lifetime's doc; a descendant keeps its stage's confinement; without Spec.Sandbox no rlimits are set; callers cap the
// number of concurrent calls.
package runner
