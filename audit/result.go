package audit

// Result is a record's result_type: how the call ended. The list below is
// the whole vocabulary; a consumer of the log can switch on it.
type Result string

// Results.
const (
	// Success: every stage exited (with any status); the exit code says
	// how.
	Success Result = "success"
	// Rejected: a rule refused the call before any process started (Rule
	// names it).
	Rejected Result = "rejected"
	// Timeout: the call's timeout expired and its process group was killed.
	Timeout Result = "timeout"
	// OutputCap: a stream passed the output limit and the group was killed.
	OutputCap Result = "output_cap"
	// Cancelled: the client cancelled the call or the server shut down,
	// before or while it ran.
	Cancelled Result = "cancelled"
	// ProcessError: the pipeline could not be started (ErrorKind launch or
	// redirect).
	ProcessError Result = "process_error"
	// InvalidRequest: the request never reached the policy (ErrorKind
	// invalid_arguments, protocol, body_too_large or body_timeout).
	InvalidRequest Result = "invalid_request"
	// ServerError: the server failed while handling the call (ErrorKind
	// panic or internal), refused to run it because its record could not
	// be written (ErrorKind audit), or refused an HTTP request for lack of
	// room (ErrorKind busy, http_status 503).
	ServerError Result = "server_error"
	// Unauthorized: an HTTP request was refused before MCP saw it
	// (ErrorKind token or origin; http_status says 401 or 403).
	Unauthorized Result = "unauthorized"
	// Started: the call became a background job (event job_start); the
	// job's end is its own record (event job_end).
	Started Result = "started"
)

// ErrorKind is a record's error_type: a stable name for what failed, for
// results that carry an error. Go type names never reach the log: they
// change with refactoring and say nothing to an operator.
type ErrorKind string

// Error kinds.
const (
	// KindLaunch: a stage could not start (program not found in the child
	// PATH, pipe or fork/exec failure, the sandbox launcher's report).
	KindLaunch ErrorKind = "launch"
	// KindRedirect: the "<" or ">" file could not be opened when the run
	// began.
	KindRedirect ErrorKind = "redirect"
	// KindInvalidArguments: the arguments failed the tool's input schema.
	KindInvalidArguments ErrorKind = "invalid_arguments"
	// KindProtocol: the MCP layer answered without running a tool handler
	// (unknown tool, malformed parameters), or the stdio framing layer
	// refused the message (malformed JSON-RPC, a request id already in
	// flight, a batch).
	KindProtocol ErrorKind = "protocol"
	// KindBodyTooLarge: an authenticated HTTP request's body exceeded
	// MCP_SHELL_HTTP_MAX_BODY_BYTES (413); nothing of it was run.
	KindBodyTooLarge ErrorKind = "body_too_large"
	// KindAudit: the call was not run because its audit record could not
	// be written (the destination failed or is not keeping up).
	KindAudit ErrorKind = "audit"
	// KindPanic: a tool handler panicked; the client got a generic error.
	KindPanic ErrorKind = "panic"
	// KindInternal: the server could not encode its own result.
	KindInternal ErrorKind = "internal"
	// KindToken: an HTTP request had no valid bearer token (401).
	KindToken ErrorKind = "token"
	// KindOrigin: an HTTP request's Host or Origin header was refused
	// (DNS-rebinding or cross-origin protection, 403).
	KindOrigin ErrorKind = "origin"
	// KindBodyTimeout: an authenticated HTTP request's body did not arrive
	// within its deadline, or arrived so slowly that its connection was
	// closed to make room for another client (408); nothing of it was run.
	KindBodyTimeout ErrorKind = "body_timeout"
	// KindBusy: an HTTP request was refused for lack of room (503): every
	// authenticated connection slot, or every session, is in use by work
	// that may not be cut.
	KindBusy ErrorKind = "busy"
)
