package server

import "github.com/seed-b63acb1b/mcp-shell-server/refusal"

// Reason codes of the refusals the server makes itself about jobs,
// retained output and the confirm tier; the request itself is judged by the policy
// (policy.Decide: policy's codes, workdir.CodeDirectory, the recognizers').
const (
	// CodeStdin: the call names more than one stdin (stdin, "<",
	// stdin_output_id, stdin_open), stdin_open without background, or a
	// job_stdin write that could not be made.
	CodeStdin refusal.Code = "request.stdin"
	// CodeUnknownID: an output or job id that does not exist (any more).
	CodeUnknownID refusal.Code = "request.id"
	// CodeJobs: no room for another job (the queue or the output store is
	// full).
	CodeJobs refusal.Code = "request.jobs"
	// CodeConfirmDeclined: the confirm tier held the call and the user
	// declined or dismissed the question.
	CodeConfirmDeclined refusal.Code = "confirm.declined"
	// CodeConfirmUnavailable: the confirm tier held the call and the user
	// could not be asked (no elicitation capability, stateless HTTP, a
	// client that failed the question).
	CodeConfirmUnavailable refusal.Code = "confirm.unavailable"
	// CodeConfirmTimeout: the confirm tier held the call and the user did
	// not answer within MCP_SHELL_CONFIRM_TIMEOUT_SECONDS.
	CodeConfirmTimeout refusal.Code = "confirm.timeout"
)
