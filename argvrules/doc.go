// Package argvrules holds one recognizer per program family (find, awk,
// sort, tar, git, ...) and the shared command-line grammar they are built on
// (GNU getopt_long, bsdtar, GNU tar old-style words).
//
// A recognizer parses one pipeline stage's argv the way the real program
// does and then decides: it returns nil when no dangerous form is reachable
// and a *Rejection naming the offending argument otherwise. Recognizers are
// pure functions of argv and Context: they never touch the filesystem except
// through Context, never run anything, and never panic on any input.
//
// The rule when dialects disagree or an abbreviation is ambiguous and one
// reading is dangerous: reject, and say which reading.
package argvrules
