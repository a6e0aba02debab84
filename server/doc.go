// Package server is the MCP surface: it registers the tools on a go-sdk
// server, runs each call through the request checks, the policy and the
// runner, and shapes the result for the client. It owns no rule: what may
// run is the policy's decision, how it runs is the runner's.
//
// A call runs first and is recorded after:
//
//  1. The audit middleware (server.go) notes the start and admits the call
//     through the shutdown gate.
//  2. The tool wrapper (register.go) decodes the arguments against the
//     input schema. A failure is itself an outcome (invalid arguments),
//     answered "Input validation error: <detail> (expected ...)".
//  3. The tool turns its arguments into a call (shell.go, exec.go), and
//     execute (call.go) returns an outcome: refused (request checks, the
//     policy, the child environment; a *refusal.Rejection), not started
//     (shutdown, or cancelled while waiting for a slot), launch failed, or
//     ran. Refusals and launch failures are answered "Error executing
//     command: <reason>" by both tools; the tool shapes the rest.
//  4. The middleware turns the call and its outcome into the audit record
//     with auditRecord (outcome.go), the only function that fills one, and
//     writes it. It never rewrites the client's result.
//
// Every tools/call produces exactly one audit record (a background job
// one more, at its end), whatever happens:
// schema failures, protocol errors the SDK answers itself, refusals,
// launch failures, timeouts, cancellations and panics in a handler (which
// become tool errors; the server keeps serving). result_type and
// error_type come from the closed lists in package audit (audit.Result,
// audit.ErrorKind), never from Go type names.
//
// Shutdown closes the gate (later calls are cancelled before they start),
// cancels every running call and job (its process group gets SIGTERM, the
// grace, then SIGKILL) and waits until every admitted call and job has
// been reaped and its record written, or until its context ends; then it
// deletes the retained outputs.
//
// Jobs and retained output (background.go, jobcall.go, jobtools.go,
// resources.go): a background call, or a foreground one still running
// after the adaptive delay, is the same prepared spec run by runner.Run
// under the server's context instead of the request's, so it outlives the
// request and the session; package jobs bounds and tracks it, package
// outputs keeps every call's streams (teed by the runner). Its tools/call
// record is the job's start (result started); the job's end is a second
// record built by auditRecord from the same outcome. The job tools
// (read_output, job_status, job_list, job_kill, job_stdin) and
// resources/read are answered from the store and the table, one record
// each; they run nothing.
//
// Not covered: an HTTP request refused before MCP sees it (no or a wrong
// bearer token, a refused Host or Origin) is audited by the HTTP handler
// (http.go) with result unauthorized, not by the middleware.
package server
