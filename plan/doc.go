// Package plan is a call as the policy approved it: every fact the layers
// below need, decided once.
//
// The policy (package policy) builds a Call from a request; the runner
// starts its stages, the sandbox confines each stage by its Confinement,
// the audit record says what its stages got, and `check --json` shows it.
// None of them re-derives a fact a Call holds:
//
//   - which file runs: Program, resolved once through the child PATH with
//     its symlink chain and the identity of the file (the runner executes
//     Program.ExecPath after Program.Verify, never the name again);
//   - which family judged the argv and which family's facts confine it
//     (Judges, Family, Dialect);
//   - the stage's complete environment (Env): the minimal child
//     environment, the operator's delegated and the request's per-call
//     variables, the families' hardening, the sandbox's cache variables
//     and the call's TMPDIR, in that order of precedence from last to
//     first;
//   - what the kernel sandbox lets the stage do (Confinement): what it may
//     execute, read, write and whether it may use the network;
//   - the call's redirections and the output paths the recognizers
//     contained.
//
// A Call owns resources: the pinned working directory and the call's
// private temporary directory. Close releases them once every process of
// the call is gone.
package plan
