// Package server is the MCP surface: it registers the tools on a go-sdk
// server, runs each call through the request checks, the policy and the
// runner, shapes the result for the client, and serves the two
// transports (ServeStdio, ServeStreamable). It owns no rule: what may run
// is the policy's decision, how it runs is the runner's.
//
// A call runs first and is recorded after:
//
//  1. The audit middleware (server.go) notes the start, admits the call
//     through the shutdown gate and reserves room for its record
//     (audit.Logger.Admit), and registers it by session and by the HTTP
//     request that carried it (live.go), so that ending either cancels
//     it.
//  2. The tool wrapper (register.go) decodes the arguments against the
//     input schema. A failure is itself an outcome (invalid arguments),
//     answered "Input validation error: <detail> (expected ...)". A call
//     whose record has no room (the audit log failed or is not keeping
//     up) is answered without running (outcome auditRefused).
//  3. The tool turns its arguments into a call (shell.go, exec.go), and
//     execute (call.go) returns an outcome: refused (request checks, the
//     policy, the child environment; a *refusal.Rejection), not started
//     (shutdown, or cancelled while waiting for a slot or for the user),
//     launch failed, or ran (a cancelled run says why: the client, a
//     closed session, a lost connection, the shutdown). A call the
//     policy's plan marks for confirmation (plan.Call.Confirm) is held
//     with its slot taken while the user is asked through the client's
//     elicitation (confirm.go); only an accept lets it start. Refusals and launch failures are
//     answered "Error executing command: <reason>" by both tools; the
//     tool shapes the rest.
//  4. The middleware turns the call and its outcome into the audit record
//     with auditRecord (outcome.go), the only function that fills one, and
//     writes it with the reserved ticket. It rewrites the client's result
//     in one case: a record that could not be written is said in it.
//
// Every tools/call produces exactly one audit record (a background job
// one more, at its end), whatever happens:
// schema failures, protocol errors the SDK answers itself, messages the
// stdio framing layer refuses (server/framing), refusals, launch
// failures, timeouts, cancellations and panics in a handler (which become
// tool errors; the server keeps serving). result_type and error_type come
// from the closed lists in package audit (audit.Result, audit.ErrorKind),
// never from Go type names.
//
// # Encoding the answer
//
// A result is encoded once (encode.go). shell_execute's and
// execute_command's structured output carries the captured streams, and
// with MCP_SHELL_TEXT_LIMIT_BYTES=0 the text content carries them too:
// over stdio and over HTTP both are deferred (framing.Deferrals: the
// stdio transport's, or the POST's, whose response writer splices them
// in), and the streams are escaped straight into the write buffer as the
// answer goes out, so no escaped copy of the output is ever held and the
// SDK's encoder sees only placeholders. Text items under 64 KiB (the
// default text limit's) stay with the SDK. In-memory sessions hand the
// struct to the SDK as it is, never as a pre-marshalled json.RawMessage
// that the SDK would validate and compact again. The escaping is
// encoding/json's, byte for byte (TestWriteJSONStringMatchesEncodingJSON,
// FuzzWriteJSONString, TestSpliceStreamsMatchesMarshal,
// TestFullTextAnswersAreExact).
//
// # Stopping
//
// Shutdown closes the gate (later calls are cancelled before they start),
// cancels every running call and job (its process group gets SIGTERM, the
// kill grace, then SIGKILL) and waits until every admitted call and job
// has been reaped and its record written, or until its context ends; then
// it deletes the retained outputs. ServeStdio
// stops on SIGTERM, SIGINT or the end of stdin (the framing layer holds
// the SDK's EOF until the calls are answered) and ServeStreamable on
// SIGTERM or SIGINT; both answer each running call with its cancelled
// result where the transport still takes writes, and return within
// StopDeadline less the caller's two flushes (FlushReserve).
//
// Jobs and retained output (background.go, jobcall.go, jobtools.go,
// resources.go): a background call, or a foreground one still running
// after the adaptive delay, is the same prepared spec run by runner.Run
// under the server's context instead of the request's, so it outlives the
// request and the session; package jobs bounds and tracks it, package
// outputs keeps every call's streams (teed by the runner: in memory while
// the answer's text shows them whole, else, and for a job always, in
// files; a call that printed nothing keeps nothing). Its tools/call
// record is the job's start (result started); the job's end is a second
// record built by auditRecord from the same outcome. The job tools
// (read_output, job_status, job_list, job_kill, job_stdin) and
// resources/read are answered from the store and the table, one record
// each; they run nothing.
//
// # HTTP
//
// HTTPHandler authenticates before a connection may take an
// authenticated slot (conns.go: unauthenticated connections have a small
// pool of their own, the newest pushing out the oldest; an authenticated
// request takes a serving slot once its body is in, a body still arriving
// after a moment holds a receiving slot, and a full pool makes room by
// cutting a stalled body or an idle connection, never a busy one),
// answers 401 without reading the body, refuses (400) messages the SDK
// would misread (framing.Check: ids above 2^53, no method), bounds the
// MCP sessions (sessions.go: a cap, least recently used idle ones closed
// first, idle ones closed after half an hour unless a call or job of
// theirs runs), audits 400/401/403/408/413/503 at a bounded rate per
// status, closes the connection of every refusal at once, and routes each
// request to a stateless SDK handler (protocol 2026-07-28) or the
// stateful one (older versions) at the one endpoint. A plain error the
// SDK answers a method with gets a JSON-RPC code (protocol.go: a second
// initialize is -32600).
//
// Not covered: HTTP requests the SDK refuses after authentication (a
// malformed body, a batch at 2025-06-18 or later, a duplicate in-flight
// id, a missing session) are answered by the SDK without an audit
// record; a call whose client cancelled it over a batch POST (2025-03-26)
// is still answered.
package server
