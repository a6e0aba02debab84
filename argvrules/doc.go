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
//
// # Grammar engine
//
// Table holds a program's getopt_long option table as data (long name,
// short letter, argument kind, risk). Table.Parse walks argv like glibc:
// short clusters with attached or following values ("-rT DIR", "-rofile"),
// long options with "=" or a following value, unique-prefix abbreviation
// where an exact name wins and candidates that are aliases of one another
// are not ambiguous, "--" ending options, "-" as an operand, getopt's "W;"
// extension, and Permute or RequireOrder (POSIXLY_CORRECT, "+") ordering.
// The result is a list of Events (option or operand, its argv index, the
// value and where it came from) plus the first ParseError. A value an
// option consumes is data and never rescanned. Unknown options, ambiguous
// prefixes and missing values are refused (allowlist grammar); an
// ambiguous prefix whose candidates include a refused option names them.
// bsdtar's own parser (bsdtarParse) and GNU tar's old-style first word
// (gnuTarParse) produce the same Events.
//
// # Families
//
//   - find (Find): GNU findutils 4.9 leading options, start points and a
//     primary table; the exec family and -fprint/-fprint0/-fprintf/-fls are
//     refused wherever they occur as primaries; arguments of primaries are
//     data.
//   - sort (Sort): GNU coreutils 9.x table; --compress-program,
//     -o/--output, --files0-from and -T/--temporary-directory are refused in
//     every spelling.
//   - tar (Tar): every argv is read with both GNU tar 1.34 and bsdtar 3.7
//     grammars; a helper option reachable in either reading is refused, as
//     is a GNU HOST:PATH archive without --force-local. A reading with a
//     grammar error makes that tar exit before acting, so argv is refused
//     for grammar errors only when both readings fail (or the error is an
//     ambiguous prefix that could reach a helper).
//   - awk (Awk): argv is read with the gawk 5.x grammar, the mawk 1.3.4
//     grammar, or both when argv[0] does not say which (awk, nawk). Any
//     grammar error in any reading is refused, because gawk recovers from
//     some errors and keeps going. Program files, includes, extension
//     libraries, the gawk debugger and file-writing options with a file are
//     refused. Every text a reading takes as the program (first operand,
//     -e/--source values) is tokenized by a small awk lexer (strings with
//     escapes, regex literals versus division, comments, line
//     continuations) and refused when it calls system(), contains a "|" or
//     "|&" token, redirects print/printf output with ">" or ">>" at the
//     statement's own parenthesis depth (except to /dev/stdout or
//     /dev/stderr), uses @include/@load or a gawk indirect call @f(...),
//     or names a gawk /inet network file. Where the lexer cannot tell a
//     regex from a division it chooses division, so a wrong guess can only
//     refuse more. Reading files (getline < file) is delegated like cat;
//     ENVIRON and PROCINFO cannot start programs without the constructs
//     above, so they are not restricted.
//
// Families and FamilyOf map executable basenames (gfind, gawk, mawk,
// nawk, gsort, gtar, bsdtar, ...) to these recognizers.
package argvrules
