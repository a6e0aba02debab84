// Package audit writes one redacted record per tool call through log/slog:
// logger "mcp-shell-server.audit", message "shell_execution_audit", JSON
// lines. Records are written for every outcome: success, rejection before
// any process starts, timeout, output cap, cancellation, launch failure and
// server-layer errors (bad arguments, panics). A background job has a
// start record (its tools/call, result_type started) and an end record
// (event job_end, also when the server shuts down); reads of retained
// output are records with the output's id and byte counts (job.go).
//
// The record's result_type is one of the Result constants and its
// error_type, when present, one of the ErrorKind constants (result.go):
// both lists are closed, so a log consumer can switch on them.
//
// Redaction follows the reference server's rules: an argv element or
// environment name/value containing a secret marker (SECRET, TOKEN,
// PASSWORD, PASS, PASSWD, API_KEY, ACCESS_KEY, PRIVATE_KEY, KEY,
// CREDENTIAL, AUTH; case-insensitive) becomes "[REDACTED]", and a value
// longer than 32 characters that is not all digits becomes
// "[sha256:<first 8 hex digits>]". stdout and stderr bodies are never
// recorded, only their byte counts.
package audit
