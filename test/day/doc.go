// Package day runs a developer's everyday work (git, go, npm, make, the C
// compilers, cargo, pip, archivers, rg, jq ...) through the real server
// twice on the same machine, under the default sandbox and with
// MCP_SHELL_SANDBOX=off, and fails when a command that succeeds
// unconfined fails confined. It prints the table family × command.
package day
