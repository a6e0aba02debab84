// Package sandbox confines the programs the server runs: per pipeline
// stage a Landlock ruleset (filesystem, executables, TCP), a seccomp
// socket filter, rlimits and no_new_privs, without confining the server
// itself and without starting a second program per stage.
//
// [NewLauncher] validates a [Config] and probes the kernel once, at
// start-up; [Launcher.Start] starts each stage confined. What a stage may
// do, per family, and what each kernel offers is in docs/sandbox.md. See
// ExampleNewLauncher.
//
// # Modes
//
// Config.Mode is ModeAuto (the server's default: ModeLandlock where the
// kernel offers Config.RequiredABI, ModeLimits elsewhere, with
// Launcher.Fallback saying why), ModeLandlock (fail closed: NewLauncher
// returns ErrUnavailable), ModeLimits (rlimits and no_new_privs) or
// ModeOff (stages start directly). Launcher.Mode is the effective mode,
// for the start-up line and the audit record.
//
// Landlock and the socket filter are Linux-only (KernelSandbox): off Linux
// ModeLandlock is refused with ErrUnavailable and ModeAuto falls back,
// saying why in Fallback. On macOS ModeLimits sets the rlimits through
// the re-executed launcher (no ptrace start, no no_new_privs); Windows has
// no rlimits, so ModeLimits is refused there and ModeAuto falls back to
// ModeOff (the call's Job Object still bounds its process tree).
//
// # Contract
//
//   - Launcher.Start starts one stage with the caller's *os.ProcAttr
//     (its SysProcAttr is kept; only Ptrace is added) and returns once the
//     program's execve succeeded, or a *StartError and nothing to reap.
//     Launcher.StartContext is Start bounded by a context: once it is
//     done, whatever holds the start up (the start-up check of ptrace,
//     the fork, the stop for its confinement, the re-executed launcher)
//     the stage is killed and reaped and the error has Step "deadline".
//     The start-up check itself ends within 30 seconds (probeWait; past
//     it, stages start through the re-executed launcher).
//   - In modes limits and landlock the stage starts from a new locked OS
//     thread of the server that first restricts itself (no_new_privs;
//     mode landlock: the stage's ruleset and no capabilities; then the
//     seccomp allowlist of the stage's kind with clone3 allowed, which the
//     thread's own fork needs); the child inherits the thread's
//     restrictions and, before its program's first instruction, enters a
//     Landlock domain of its own and adds a filter answering clone3
//     ENOSYS (inject_linux.go). The thread is never unlocked and serves every later
//     stage whose restrictions are exactly its own (the policy, the
//     filter and the inodes of the paths its ruleset names; at most
//     maxIdleThreads idle, threadpool.go); it lives until it is retired
//     and every stage it started has exited (it is the parent thread
//     PR_SET_PDEATHSIG refers to), and ends with its goroutine. The rlimits are set with prlimit(2) while
//     the child is stopped after its execve (PTRACE_TRACEME), then it is
//     detached. Where a traced start fails (checked once per process, off
//     the start-up path), the server binary is re-executed as a launcher
//     instead: main must call RunLauncher(os.Args[2:]) when os.Args[1] is
//     LauncherArg, before anything else; failures travel on the close-on-
//     exec StatusFD and become a *StartError.
//   - Rules decide what a stage may do (Rules.Stage, rules.go), while the
//     policy builds the call's plan; Launcher.Start enforces the plan's
//     plan.Confinement and derives nothing from the stage's argv. A stage
//     executes its resolved program, that program's interpreters (ELF
//     PT_INTERP, #!, and #!/usr/bin/env's program), its family's Exec
//     helpers (the family the policy selected) and Config.Exec's entries
//     for its argv[0]. Families that RunsPrograms, and programs
//     Config.Exec gives ExecAny, execute beneath Config.ReadDirs and the
//     writable trees instead. Every other stage (a leaf: also every
//     program no family covers) reads Config.ReadDirs without
//     programDirs and cannot execute in the writable trees. Every stage
//     writes beneath Config.WriteDirs, the call's private temporary
//     directory and its family's Caches, reads its family's HomeConfig
//     beneath the HOME of its environment, reads and writes /dev/null,
//     /dev/zero, /dev/full, reads /dev/random, /dev/urandom. TCP per
//     Config.Network: NetworkFamily grants it to a stage whose family's
//     Network says so. Everything else the ABI can restrict is denied,
//     including signals to and abstract UNIX sockets of processes outside
//     the sandbox (ABI 6+).
//   - Rules.Stage also returns the environment entries the sandbox adds:
//     the family's cache variables pointing beneath Config.CacheDir,
//     unless the environment names them absolutely, and TMPDIR; the policy
//     puts them in the stage's environment, and the launcher creates the
//     cache directories (mode 0700) before the stage starts.
//   - CallDir hands out a call's private temporary directory;
//     ReleaseCallDir takes it back (kept for a later call when left
//     empty and mode 0700, removed in the background otherwise); Close
//     waits for the removals.
//   - Probe, run by NewLauncher, validates the configuration and builds a
//     ruleset once, so that a missing directory or an old kernel stops
//     the server instead of every call.
//
// # Not covered
//
// Landlock does not see reads of files the ruleset allows, stat(2),
// chdir(2), mmap(2) of a readable file (a stage that can execute its ELF
// loader with chosen arguments runs any ELF file it can read through it:
// executables beneath library trees such as /usr/lib/git-core, or a file
// written into an allowed directory; and dlopen, memfd execveat), the
// applets of a multi-call binary (busybox is its own program), UDP before
// ABI 10, or descriptors inherited from the server. A family's own
// helpers run: tar's and git's sh executes only their sets. Families that
// run programs run what their configuration says. Cache directories are
// shared by every call. A descendant that leaves the call's process group
// keeps its domain, and so its write access to the allowed directories
// and to the call's temporary directory, which a later call may reuse.
// docs/sandbox.md, "What it does not contain", has the full list, and
// what each family gets (generated from the registry).
package sandbox
