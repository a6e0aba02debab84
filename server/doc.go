// Package server is the MCP surface: it registers the shell_execute tool on
// a go-sdk server, turns each call into policy → runner → audit, and shapes
// the result for the client. It owns no rule: what may run is the policy's
// decision, how it runs is the runner's.
//
// Every tools/call produces exactly one audit record, whatever happens:
// schema failures, refusals, launch failures, timeouts, cancellations and
// panics in a handler (which become tool errors; the server keeps serving).
package server
