// Package audit writes one redacted record per tool call as a JSON line:
// logger "mcp-shell-server.audit", message "shell_execution_audit".
// Records are written for every outcome: success, rejection before any
// process starts, timeout, output cap, cancellation, launch failure,
// server-layer errors (bad arguments, panics), calls refused because the
// log could not take their record, and HTTP requests refused before MCP
// saw them.
// A background job has a start record (its tools/call, result_type
// started) and an end record (event job_end, also when the server shuts
// down); reads of retained output are records with the output's id and
// byte counts (job.go).
//
// The record's result_type is one of the Result constants and its
// error_type, when present, one of the ErrorKind constants (result.go):
// both lists are closed, so a log consumer can switch on them.
//
// # Durability
//
// A Logger writes through a Sink (sink.go): a bounded queue and one writer
// goroutine, one Write per line, so records never interleave and a slow
// or blocked destination (a stderr nobody reads) never blocks a call. A
// call takes a Ticket before it runs (Logger.Admit); Admit fails, and the
// server then refuses the call, when the last write failed (a full disk,
// a closed pipe) or the queue is full. So no call runs without room for
// its record, and a record that fails while its call runs is reported in
// the call's result and on the diagnostic log. On a regular file a failed
// or short write is truncated away: the file holds whole lines only.
// Records that are not tied to a call (Logger.Log: HTTP refusals,
// protocol errors) are best-effort; one that is dropped or fails is
// counted, and the count is carried by the next record written
// (audit_dropped).
//
// Not covered: records still queued when the process is killed, or when
// shutdown's flush deadline passes with the destination blocked, are lost
// (the count is logged if the diagnostic log can be written); the call
// whose record fails first has already run.
//
// # Redaction
//
// One rule set (redact.go, secretopts.go), applied to every field:
//
//   - Secret markers are words, in any case: SECRET, TOKEN, PASSWORD,
//     PASSWD, PASS, PASSPHRASE, PW, KEY, API_KEY, ACCESS_KEY, PRIVATE_KEY,
//     CREDENTIAL(S), AUTH, AUTHORIZATION, OAUTH, BEARER, COOKIE, OTP (a
//     word is a run of letters or digits, camelCase split; concatenated
//     spellings ending in a long marker, "dbpassword", count). So
//     "compass", "monkey" and "author" are not secret; "MY_PASS",
//     "apiKey" and "x-auth-token" are.
//   - A client value (argv element, env value, raw argument) that contains
//     a marker or has a credential's shape (GitHub, GitLab, Slack, AWS,
//     JWT, PEM key) becomes "[REDACTED]"; one longer than 32 characters
//     that is not all digits becomes "[sha256:<8 hex digits>]".
//   - URLs keep their readable parts; userinfo (user, password, a token
//     given as the user; "@" and "/" inside a password included) and the
//     values of secret-named query parameters become "[REDACTED]".
//   - Names are never rewritten: "--password", "SECRET_TOKEN=" and env
//     names stay, their values go. The value of a secret-named option
//     ("--token=V", "--token V", "-token V"), of a program's credential
//     option (curl -u/-U/-E, mysql -p, wget --user, smbclient -U, ...),
//     including attached and clustered short forms ("-pV", "-suV"), is
//     "[REDACTED]".
//   - Env values are recorded only for variables on the safe list
//     (locale, terminal, time zone, PATH, HOME, ...); any other value is
//     "[REDACTED]".
//   - Reasons are the server's sentences: their own words are never
//     rewritten; the client values they quote are replaced by the forms
//     above, and credential shapes, "Bearer"/"Basic" credentials and URL
//     userinfo are masked wherever they appear.
//   - Every string field is capped (a reason at 1 KiB, other strings at
//     1 KiB, 256 argv elements, 64 env entries), the rest digested or
//     counted; stdout and stderr bodies are never recorded, only their
//     byte counts.
//
// Not covered: a secret that carries no marker, has no known shape, is not
// the value of a known option and is at most 32 characters ("hunter2" as
// an operand) is recorded as is, as the reference server does; option
// tables cover the programs listed in secretopts.go.
package audit
