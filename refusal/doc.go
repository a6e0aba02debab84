// Package refusal is the one refusal type every layer returns: the argv
// recognizers (argvrules), redirection (redirect), the policy and the
// server's own request checks all say "no" with a *Rejection, so the audit
// record and the client's message are built in one place from one shape.
//
// A Rejection carries a machine-readable Code, the offending argument and
// its position in the request argv, one sentence for the client, and the
// underlying cause when there is one (Err, reachable with errors.Is/As).
//
// Codes are declared by the package that refuses, as documented constants
// in one file (codes.go in each package); this package declares none. A
// Rule pairs a code with the reference server's catalogue phrase once, so
// every refusal of that code reads the same.
//
// Not covered: errors that are not refusals (a program that could not be
// started, an I/O failure while running) keep their own types; see runner.
package refusal
