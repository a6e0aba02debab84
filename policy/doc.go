// Package policy turns a requested argv into a validated Plan or a
// *Rejection with a machine-readable code and a sentence naming the
// offending argument.
//
// The order of checks, and so which reason wins:
//
//  1. the argv as a whole: non-empty, no NUL byte, no element that is
//     exactly a shell operator (";", "&&", "||"); but when the stage that
//     operator ends is refused anyway by its recognizer (step 4), or the
//     operator is find's -exec terminator, that refusal is the reason
//     given (operator.go);
//  2. pipeline structure: elements exactly "|" separate stages; no stage
//     may be empty (leading, doubled or trailing "|");
//  3. redirections per stage: "<" only on the first stage, ">"/">>" only on
//     the last, each followed by a relative target without ".." that
//     resolves inside the working directory (package redirect);
//  4. per stage: argv[0] must be a clean name; the categorical refusal list
//     (shells, interpreters, wrappers, shell-escape tools; refused.go, each
//     group with its source; the Windows programs of the LOLBAS catalogue
//     in refusedwin.go) is checked on its basename and no allowlist
//     entry overrides it. The basename is read with the host's naming
//     (naming.go): case-insensitive, without a Windows image extension
//     (.exe, .com) on every platform; on Windows also after "\", a drive
//     prefix, a stream suffix and trailing dots, and any script extension
//     (.bat, .cmd, .vbs, .js, .wsf, .ps1, .hta ...) is refused outright,
//     since Windows runs such a file through cmd.exe, Windows Script Host,
//     mshta or a file association; then the allowlist (exact name, or a full-match
//     pattern for a bare name or an absolute path in a PATH directory);
//     then where argv[0] leads (resolve.go): it is resolved with the child
//     PATH (childenv.ProgramPath) and its symlink chain; a relative argv[0],
//     or a chain with a file inside an allowed directory, is refused unless
//     argv[0] is an absolute path allowlisted exactly; every file of the
//     chain goes through the refusal list (a multi-call binary such as
//     BusyBox is judged by the applet name); then the recognizers of the
//     families the name and the chain belong to (package argvrules), with
//     the resolved program, what children inherit and the refusal list in
//     their Context.
//
// Not prevented: a symlink swapped between this check and the runner's own
// resolution at the start (the runner resolves the same name with the same
// PATH); a PATH entry the operator made writable outside the allowed
// directories.
//
// Arguments are data: apart from whole-element operators and redirections,
// no argument is scanned for substrings.
package policy
