// Package fault is the fault-injection suite: each test drives
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
//   - TestRedactionEndToEnd: credentials in the forms their programs read
//     leave no secret in the log; file names, sort keys, words, commit ids
//     and UUIDs, and the server's sentences, stay whole.
//   - TestJSONRPCRobustness: malformed and unusual messages get JSON-RPC
//     errors, the session goes on, duplicate in-flight ids are refused and
//     audited.
//   - TestHTTPSessionEndCancelsCalls: DELETE of a session and a dropped
//     connection end the calls they started, at every protocol version.
//   - TestHTTPAuthenticatedDripCannotLockOut: 300 connections with the
//     token stall their bodies and reconnect: an honest client's calls are
//     answered (median of three rounds' p99 < 1 s), no dripping connection
//     outlives the body deadline, every 408 and 503 is counted in the log.
//   - TestHTTPSessionsBounded: RSS per session, the cap, least recently
//     used idle sessions closed first, a session with a running call kept.
//   - TestHTTPHeaderBytesBounded: 500 clients sending 1 MiB of headers
//     each move the peak RSS by MiB, not by what they sent.
//   - TestAuditNearFullDisk, TestAuditFailingWithJobs: records against
//     calls on a full tmpfs; reads refused, job ends written or named.
//   - TestLargeIDs, TestProtocolAnswers, TestRetainedOutputGone: ids above
//     2^53, messages without a method, a second initialize, evicted and
//     partly kept retained output.
//
// The tests that mount a tmpfs skip where mounting is not allowed (not
// root, no CAP_SYS_ADMIN); package audit's failing-writer tests cover the
// same rules without one.
//
// Tests synchronise on what the server writes (responses, progress, pid
// files of helper scripts), not on sleeps, except where only time can
// pass (a dripping client, waiting for a process to exit).
package fault
