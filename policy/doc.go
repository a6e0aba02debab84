// Package policy turns a request into the call's plan (package plan) or a
// *refusal.Rejection with a machine-readable code and a sentence naming
// the offending argument. Decide is the one path from a request to a
// verdict: the server and `check` (all its input forms) go through it, so
// their codes and messages cannot differ.
//
// Each fact of a call is decided once, here, and the layers below read it
// from the plan:
//
//   - which file runs: resolveProgram (resolve.go), through
//     childenv.Resolve with the child PATH (childenv.ProgramPath), its
//     symlink chain and the identity of the file; the runner executes that
//     file after checking it is the same, never the name again;
//   - which families judge the stage and which one confines it, and in
//     which dialect: argvrules.Select, once per stage (stage.go);
//   - the stage's complete environment: stageEnv (stage.go) is the one
//     place it is assembled: the call's childenv.Build (baseEnv, env.go:
//     the minimal environment, the operator's delegated variables, the
//     request's per-call ones), git's hardening (every stage: any program
//     may run git), the family's own entries, then the sandbox's cache
//     variables and TMPDIR (sandbox.Rules.Stage), each layer replacing a
//     name an earlier one set. The recognizers query that environment, the
//     one the child receives;
//   - what the kernel sandbox lets the stage do (sandbox.Rules.Stage), and
//     the call's private temporary directory (Config.TempDirs);
//   - the redirections, and the output paths the recognizers contained.
//
// [FromSettings] builds the policy the server runs with (the operator's
// allowlist and every family's recognizer from package argvrules);
// [Policy.Evaluate] decides one request in a pinned working directory
// ([workdir.Dir]), returning a [Plan] or a [refusal.Rejection]. The
// reason codes are listed in docs/rules.md. See ExampleFromSettings.
//
// The order of checks, and so which reason wins:
//
//  1. the request alone (checkRequest): an argv, a non-blank program for
//     execute_command (Request.Exact), no NUL byte in any argument, the
//     directory or an envs name or value;
//  2. the working directory: resolved and pinned inside an allowed
//     directory (package workdir);
//  3. the per-call environment (baseEnv): every envs name delegated by the
//     operator and none that steers which program or code runs
//     (childenv.Steering);
//  4. the argv as a whole, unless Exact: no element that is exactly a
//     shell operator (";", "&&", "||"); but when the stage that operator
//     ends is refused anyway by its recognizer (step 7), or the operator
//     is find's -exec terminator, that refusal is the reason given
//     (operator.go);
//  5. pipeline structure: elements exactly "|" separate at most MaxStages
//     (32) stages; no stage may be empty (leading, doubled or trailing "|");
//  6. redirections per stage: "<" only on the first stage, ">"/">>" only on
//     the last, each followed by a relative target without ".." that
//     resolves inside the working directory (package redirect), probed
//     after every stage was judged;
//  7. per stage (stage.go): argv[0] must be a clean name; the categorical
//     refusal list (shells, interpreters, the other wrappers, shell-escape tools;
//     refused.go, each group with its source; the Windows programs of the
//     LOLBAS catalogue in refusedwin.go) is checked on its basename and no
//     allowlist entry overrides it. The basename is read with the host's
//     naming (naming.go): case-insensitive, without a Windows image
//     extension (.exe, .com) on every platform; on Windows also after "\",
//     a drive prefix, a stream suffix and trailing dots, and any script
//     extension (.bat, .cmd, .vbs, .js, .wsf, .ps1, .hta ...) is refused
//     outright, since Windows runs such a file through cmd.exe, Windows
//     Script Host, mshta or a file association; then the allowlist (exact
//     name, or a full-match pattern for a bare name or an absolute path in
//     a PATH directory); then where argv[0] leads (resolve.go): a relative
//     argv[0], or a chain with a file inside an allowed directory, is
//     refused unless argv[0] is an absolute path allowlisted exactly; every
//     file of the chain goes through the refusal list (a multi-call binary
//     such as BusyBox is judged by the applet name); then the recognizers
//     of the families Select chose (package argvrules), with the resolved
//     program, the stage's environment and the refusal list in their
//     Context. A wrapper's stage (xargs, timeout, nice, ionice, nohup,
//     stdbuf, time, env, flock: wrap.go) is its own words read with its
//     grammar (argvrules.Wrap), then the program it runs judged by this
//     step again as a stage of its own, with env's changes to its
//     environment and, under xargs, Context.MoreOperands, eight levels
//     deep at most; the stage runs with that program's confinement plus
//     the wrapper's file, and its Argv names the program by its resolved
//     path (plan.Stage.Wrapped).
//
// Not prevented: a file replaced at its resolved path between the runner's
// identity check and its execve (the window is the start of one process;
// stages cannot write outside the allowed directories, and programs inside
// them are refused); a PATH entry the operator made writable outside the
// allowed directories.
//
// Arguments are data: apart from whole-element operators and redirections,
// no argument is scanned for substrings.
//
// The confirm tier (Confirm, confirm.go) is read last, on an approved
// call only: each stage that matches one of its program entries (the
// name, the files it leads to, the program a wrapper runs) or one of its
// patterns (the stage's argv joined with single spaces) is listed in
// plan.Call.Confirm with the rule that matched. It never refuses and
// never allows: the server asks the user before such a call runs, and
// `check` says it would.
package policy
