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
//     (shells, interpreters, wrappers, shell-escape tools) is checked on its
//     basename and no allowlist entry overrides it; then the allowlist
//     (exact name or full-match pattern); then the program family's argv
//     recognizer (package argvrules).
//
// Arguments are data: apart from whole-element operators and redirections,
// no argument is scanned for substrings.
package policy
