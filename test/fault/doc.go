// Package fault is the fault-injection suite of issue 16: each test drives
// the built server binary into one fault and asserts figures (calls
// answered, surviving processes, records written against calls made, time
// to exit, latency under attack), logging them with t.Logf so a CI run
// shows them.
//
//   - TestHTTPStrangersCannotStall: 300 unauthenticated connections drip
//     headers or bodies, or idle after a probe, while authenticated calls
//     and /healthz are timed (goal: p99 < 1 s).
//   - TestStopOverStdio: SIGTERM, SIGINT and stdin EOF with 20 calls
//     running: every call answered as cancelled, no process left, one
//     record per call, exit within the kill grace plus 1 s.
//   - TestAuditDurability: a full disk (/dev/full) and a stderr nobody
//     reads: no call runs without its record, calls never block, the loss
//     is counted and said.
//   - TestRedactionEndToEnd: the credential forms issue 16 found in clear
//     leave no secret in the log, and the server's sentences stay whole.
//   - TestJSONRPCRobustness: malformed and unusual messages get JSON-RPC
//     errors, the session goes on, duplicate in-flight ids are refused and
//     audited.
//   - TestHTTPSessionEndCancelsCalls: DELETE of a session and a dropped
//     connection end the calls they started, at every protocol version.
//
// Tests synchronise on what the server writes (responses, progress, pid
// files of helper scripts), not on sleeps, except where only time can
// pass (a dripping client, waiting for a process to exit).
package fault
