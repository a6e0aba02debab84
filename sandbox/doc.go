// Package sandbox confines the programs the server runs: an opt-in
// Landlock ruleset (filesystem and TCP), resource limits (rlimits) and
// no_new_privs, applied by a small launcher between fork and the target's
// execve so that the server process itself stays unconfined.
//
// Contract:
//
//   - The server binary re-executes itself as the launcher:
//     "<server> LauncherArg <encoded config> -- <target path> <argv...>".
//     main must call RunLauncher(os.Args[2:]) when os.Args[1] is
//     LauncherArg, before anything else (no flag parsing, no logging, no
//     configuration loading). Launcher.Command builds that argv.
//   - The launcher sets the rlimits of Limits (never raising a hard limit),
//     sets PR_SET_NO_NEW_PRIVS, applies the Landlock ruleset when Mode is
//     "landlock", and then execve's the target with the target argv
//     (argv[0] as the client sent it) and exactly the environment it was
//     given. Nothing of its own configuration reaches the target: the
//     configuration travels in the launcher's argv, which execve replaces.
//   - Fail closed: any error before the target's execve (bad configuration,
//     a ruleset the kernel refuses, the target's own execve failing) is
//     written to the status descriptor StatusFD and the launcher exits with
//     status 126 without running the target. ReadStatus turns that report
//     into a *StartError; a status pipe closed without a report means the
//     target's execve succeeded (the descriptor is close-on-exec).
//   - Probe checks at start-up that the kernel offers the Landlock ABI the
//     configuration needs (ABINetwork when TCP is denied, ABIFilesystem
//     otherwise) and builds the ruleset once without enforcing it, so that
//     a missing directory or an old kernel stops the server instead of
//     every call. Only Config.BestEffort accepts a lower ABI (never ABI 0:
//     a kernel without Landlock always refuses).
//
// What the ruleset allows: read and execute beneath ReadDirs (default
// DefaultReadDirs) and on the target program; read and write beneath
// WriteDirs and the call's private temporary directory; read and write on
// /dev/null, /dev/zero, /dev/full, read on /dev/random and /dev/urandom.
// Everything else the ABI can restrict is denied: other writes, reads
// outside those trees, TCP bind and connect (ABI 4+, unless Network),
// pathname UNIX socket connects (ABI 9+, unless Network), UDP (ABI 10+,
// unless Network), signals to and abstract UNIX sockets of processes
// outside the sandbox (ABI 6+). Unless Network, a seccomp filter also
// refuses the sockets Landlock does not see (MPTCP, SCTP, raw; and
// AF_UNIX below ABI 9). Landlock does not restrict stat(2),
// chdir(2), reads of descriptors inherited from the server, or anything
// the kernel does not route through it; see SECURITY-sandbox.md.
package sandbox
