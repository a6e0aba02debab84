// Package lifetime binds every process a call starts, however far it
// strays, to that call and to the server: nothing outlives its call, nothing
// outlives the server, and orphans never accumulate as zombies.
//
// # Contract
//
//   - Setup chooses the mechanism once per process, at start-up, and says
//     which in Mechanism, Reason and LogAttrs (the start-up line; the audit
//     record carries Mechanism). Without Setup, Default is Session (Pgroup
//     on macOS, Job on Windows).
//   - Cgroup, chosen when the server can create cgroups beneath its own
//     cgroup v2 (root with a writable cgroup2 mount, or a delegated
//     subtree): the server creates <its cgroup>/mcp-shell-server-<pid>-<rnd>/
//     with calls/<n>/ per call, and every stage is created inside its call's
//     cgroup (CgroupFD with clone3 CLONE_INTO_CGROUP), so all its
//     descendants are in it whatever session or parent they take.
//     Call.Signal signals every process listed in cgroup.procs (each
//     through a pidfd checked to be in the cgroup); Call.Kill writes
//     cgroup.kill and waits on cgroup.events until nothing is left
//     (bounded by cgroupWait for processes stuck in the kernel), unless
//     cgroup.events already says it is empty; Call.End releases the
//     cgroup: an empty one that was never killed is kept (up to
//     maxIdleCgroups) for a later call, since nothing can enter an empty
//     call cgroup but a stage the server creates in it; any other is
//     removed. Needs Linux 5.14 (cgroup.kill).
//   - Subreaper, otherwise (PR_SET_CHILD_SUBREAPER; PID 1 is one anyway):
//     orphaned descendants of calls re-parent to the server. Each call's
//     process tree is recorded as it is seen: stages when they start,
//     their descendants by a walk of /proc/<pid>/task/*/children every
//     scanPeriod (50 ms), on SIGCHLD and before every signal or kill. An
//     orphan the walks have not seen is the call's whose stage leads its
//     session or group; failing that it is bound to every call running
//     when it started, and dies with the first of them to end; with no such
//     call it is killed at once. Call.Kill SIGKILLs the recorded tree
//     through pidfds (checked against the recorded start time, so a reused
//     pid is never hit) and repeats until no process of the call is left.
//   - Session, when neither is available (prctl refused; or no Setup):
//     nothing beyond the runner's kill of each stage's process group.
//   - In every mode the caller starts stages with Call.Start, which forks on
//     the forker thread, a goroutine locked to one OS thread that never
//     exits (forker.go): a child's parent-death signal fires when the thread
//     that forked it exits, so only such a thread makes Pdeathsig mean "the
//     server died". The caller sets SysProcAttr (runner/stage.go: Setsid,
//     Pdeathsig SIGKILL, CgroupFD); Call.Start sets nothing.
//   - The reaper (PID 1 or Subreaper) collects, on SIGCHLD and after every
//     Call.Kill, each exited child of the server that was not started
//     through Call.Start or the watchdog. Every child the process starts
//     while a reaper runs must go through Call.Start (or be started while
//     no Setup is in force), or the reaper may collect its status first.
//     After Call.Start the caller reaps the child (os.Process.Wait) and
//     then calls Call.Reaped.
//   - The watchdog (Cgroup and Subreaper): the server binary re-executed
//     in a hidden mode (WatchdogArg; main must dispatch to RunWatchdog),
//     in a session of its own, without a parent-death signal, holding the
//     read end of a pipe only the server writes. When the server exits
//     however it exits, SIGKILL included, the pipe reaches EOF and the
//     watchdog kills what is left: the calls/ cgroup subtree (then removes
//     the server's subtree), or every process the tracker reported to it
//     and every process in a recorded stage's session (stopped first, with
//     their descendants, then killed). In Cgroup mode its start inside
//     watchdog/ is also the proof that processes can be placed in the
//     subtree.
//   - Manager.Close (at server exit) kills every call's processes, stops
//     the watchdog and removes the cgroups; NewCall fails afterwards.
//
// # Not covered
//
//   - Subreaper mode records a tree by walking it: a descendant that calls
//     setsid and loses its parent before any walk has seen it is bound by
//     start time, possibly to several calls (killed at the first one's end);
//     after a SIGKILL of the server, such a descendant younger than one
//     walk that left the stage's session survives (the stages' parent-death
//     signal has already orphaned it to init).
//   - A process stuck in uninterruptible sleep outlives SIGKILL until it
//     leaves it; Kill stops waiting after cgroupWait.
//   - Processes of the server's user started outside the server, and ones
//     a call hands work to (a daemon such as gpg-agent or an ssh
//     ControlMaster already running, systemd-run, at): they are not the
//     call's descendants.
//   - macOS (mech_darwin.go): none of these mechanisms exist (no cgroups,
//     no subreaper, no parent-death signal, no pidfd): Setup always gives
//     Pgroup, whose start-up line says "mechanism=pgroup" with the reason.
//     Only the runner's kill of each stage's process group binds a call;
//     a descendant that leaves it (setsid, setpgid) survives the call,
//     and after a SIGKILL of the server every stage survives it too.
//   - Windows (callos_windows.go): Setup always gives Job, a Job Object
//     per call with KILL_ON_JOB_CLOSE; each stage is created suspended by
//     the runner, assigned in Call.Start before its first instruction, then
//     resumed, so every descendant is in the job; Kill is
//     TerminateJobObject and the job dies with the server's handles,
//     SIGKILL-equivalents included. A process can leave the job only if it
//     was created with CREATE_BREAKAWAY_FROM_JOB and the job allowed it
//     (it does not). There is no SIGTERM and so no grace period. The code
//     was checked against the Win32 documentation and is cross-compiled
//     and vetted in CI, not run there.
package lifetime
