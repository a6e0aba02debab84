package server

import "github.com/seed-b63acb1b/mcp-shell-server/refusal"

// Reason codes of the refusals the server makes itself, outside the argv
// policy (directory refusals carry workdir.CodeDirectory).
const (
	// CodeNUL: the directory or an envs name or value contains a NUL byte.
	CodeNUL refusal.Code = "request.nul"
	// CodeEnv: an envs entry names a variable the server does not delegate.
	CodeEnv refusal.Code = "request.env"
	// CodeEnvSteering: an envs entry names a variable that steers which
	// program or code a child runs (childenv's steering table: CFLAGS,
	// LD_PRELOAD, NODE_OPTIONS ...), refused per call even when delegated;
	// the rejection's argument is the variable's name.
	CodeEnvSteering refusal.Code = "request.env-steering"
	// CodeProgram: execute_command's program is empty.
	CodeProgram refusal.Code = "request.program"
	// CodeStdin: the call names more than one stdin (stdin, "<",
	// stdin_output_id, stdin_open), stdin_open without background, or a
	// job_stdin write that could not be made.
	CodeStdin refusal.Code = "request.stdin"
	// CodeUnknownID: an output or job id that does not exist (any more).
	CodeUnknownID refusal.Code = "request.id"
	// CodeJobs: no room for another job (the queue or the output store is
	// full).
	CodeJobs refusal.Code = "request.jobs"
)
