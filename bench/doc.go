// Command bench measures mcp-shell-server against its physical floors and
// against a peer server, in one invocation, and writes BENCHMARKS.md, with
// a text chart of the latency distributions beside each latency table.
//
// Every comparison is measured side by side in the same run (interleaved in
// one loop where the issue asks for it), because the machines are shared and
// noisy: the report gives medians, spreads and ratios, never one absolute
// time on its own.
//
// Sections (see bench/README.md for how to run and read them):
//
//  1. per-call overhead: shell_execute `true` over a real stdio MCP session
//     (go-sdk client) against os/exec of /bin/true in this process;
//  2. peer comparison: the npm package @mako10k/mcp-shell-server, installed
//     into a temporary directory at run time, on `true` and `cat` of 1 MiB;
//  3. start-up: process start to the first tools/list answer;
//  4. output throughput and peak RSS through execute_command's drain path;
//  5. concurrency: 64 concurrent calls of sleep 0.2 with unique markers;
//  6. policy cost: ns/op and allocs/op over shared/cases/benign.jsonl;
//  7. soak: N sequential calls, server threads, fds, children and RSS
//     before and after (read from /proc, never from inside the server);
//  8. sandbox cost: `true` and `true | true | true` through three servers
//     side by side, MCP_SHELL_SANDBOX=off, limits and auto (the default).
//
// -smoke runs every section with few iterations, skips the peer and shrinks
// the large outputs; it exits non-zero only when something breaks (a call
// fails, a response is lost or mixed, the server dies), never for a missed
// goal.
package main
