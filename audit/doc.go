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
// call takes a Ticket before it runs (Logger.Admit), which reserves a
// place in the queue and, on a regular file, room on the file system for
// the largest record a call can write (MaxRecord, room.go: blocks
// allocated past the end of the file with fallocate's KEEP_SIZE on
// Linux, a free-space check elsewhere). Admit fails, and the server then
// refuses the call, when the file system has no such room, when the last
// write failed (a closed pipe, /dev/full) or when the queue is full. So
// no call runs without room for its whole record, and a short record
// that still fits (a refusal's) cannot re-admit calls whose records would
// not; a record that fails while its call runs is reported in the call's
// result and on the diagnostic log. On a regular file a failed or short
// write is truncated away: the file holds whole lines only. Records that
// are not tied to a call (Logger.Log: HTTP refusals, protocol errors) are
// best-effort, never taking room reserved for calls; one that is dropped
// or fails is counted, and the count is carried by the next record
// written (audit_dropped). A record that must not be lost to that count
// (Ticket.LogDurable: a job's end, whose ticket the job took when it
// started) is kept when its write fails and written again after a later
// write succeeds; one given up is named in a records_lost record, or on
// the diagnostic log at Close.
//
// Not covered: records still queued when the process is killed, or when
// shutdown's flush deadline passes with the destination blocked, are lost
// (the count is logged if the diagnostic log can be written); the call
// whose record fails first for another reason than space (EIO, a closed
// pipe) has already run; where there is no fallocate, the free-space
// check reserves nothing against other writers.
//
// # Redaction
//
// Redaction follows what the programs themselves read as credentials
// (argv.go, values.go; the grammars are package argvrules'):
//
//   - Each program in an argv is read with its own grammar
//     (argvrules.Secrets): a family's getopt_long table (curl, wget, and
//     sort, rg, split, sdiff, diff3 whose options carry none), or a
//     redaction table (docker, podman, kubectl, helm, git, npm, pnpm,
//     yarn, cargo, zip, unzip, 7-Zip, RAR, az, aws, gcloud, gh, vault,
//     openssl, keytool, ssh-keygen, htpasswd, sshpass, the MySQL and
//     MariaDB clients, sqlplus, sqlcmd, redis-cli, the MongoDB tools,
//     smbclient, the OpenLDAP clients). Every spelling the parser
//     accepts counts: "--user=V", "--user V", "-uV", clusters ("-suV"),
//     unique abbreviations, options after operands, and readings past a
//     grammar error. The grammar says which part of the value is the
//     credential: all of it, the password of "user:password" or
//     "user%password", "pass:X" of an OpenSSL pass phrase argument, the
//     password of sqlplus's "user/password@db", every cookie value, or
//     an operand after certain words ("configure set NAME VALUE",
//     "cargo login TOKEN").
//   - The stages between "|" words, the whole argv (execute_command
//     passes "|" as data), and the rest of the argv from every word that
//     names a program with a grammar (timeout, sshpass, docker exec run
//     it) are each read.
//   - For a word no grammar read as its own option, the generic option
//     rule: the value of an option whose name has a secret marker as a
//     word ("--api-key V", "-token=V"; markers: SECRET, TOKEN, PASSWORD,
//     PASSWD, PASS, PASSPHRASE, PW, KEY, API_KEY, ACCESS_KEY,
//     PRIVATE_KEY, CREDENTIAL(S), AUTH, AUTHORIZATION, OAUTH, BEARER,
//     COOKIE, OTP, camelCase split, concatenations ending in a long one),
//     unless the name ends in a reference word (--password-file,
//     --passphrase-fd, --key-id) or starts a flag (--no-password), or
//     the value names a file.
//   - The value rules, on every element: URL userinfo, query parameters
//     named as secrets or known as signatures (X-Amz-Signature, sig,
//     ...) and fragments are masked; NAME=VALUE with a secret-named
//     NAME (also inside query strings, connection strings, conninfo and
//     option lists), "Name: value" headers with a secret-named Name, and
//     "Bearer X"/"Basic X" have their values masked; token shapes
//     (GitHub, GitLab, Slack, sk-, Stripe, npm, PyPI, Hugging Face, AWS
//     key ids, Google API keys, JSON Web Tokens, PEM private keys) and
//     high-entropy strings (highEntropy) are masked.
//   - Values are never judged by the words they contain: "grep
//     password", "cat .git-credentials", "src/auth/handler.go", commit
//     ids and UUIDs are recorded whole. Names are never rewritten,
//     except an environment variable's name that is itself a token.
//   - Env values are recorded only for variables on the safe list
//     (locale, terminal, time zone, PATH, HOME, ...); any other value is
//     "[REDACTED]".
//   - Reasons are the server's sentences: their own words are never
//     rewritten; the client values they quote are replaced by their
//     redacted forms, and URL credentials, HTTP credentials and
//     credential shapes are masked wherever they appear. A raw argument
//     that failed to decode is quoted by the rules of its field; a
//     string where none was expected (a timeout) as a digest.
//   - Every string field is capped (a value at 256 bytes, a reason at 1
//     KiB, other strings at 1 KiB, 256 argv elements, 64 env entries),
//     the rest digested or counted; stdout and stderr bodies are never
//     recorded, only their byte counts.
//
// The rules are scans of the bytes, without regular expressions: they run
// over every argv element of every record (BenchmarkRedact).
//
// Package audit imports package argvrules for its grammars: which
// argument of a command line is a credential is a fact of the program's
// option grammar, like which one runs a program, and keeping one parser
// per program (abbreviations, clusters, "--opt=value") means the log
// reads a command line as the recognizers, and the program, do. The data
// still flows one way: argvrules depends on nothing of the request path
// after it (policy, runner, server), and audit on nothing but argvrules.
//
// Not covered: a credential with no known shape that is an operand of a
// program without a redaction rule for it ("hunter2" as an echo
// argument) is recorded as is, as the reference server does; so is a
// random string the entropy test misses (about one in three of 20 to 40
// characters) and a secret in free text not written as NAME=VALUE or a
// header. The grammars cover the programs listed above at the versions
// their tables name.
package audit
