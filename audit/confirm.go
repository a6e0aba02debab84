package audit

// Confirmed is a record's confirmed field: how the user answered when the
// confirm tier (MCP_SHELL_CONFIRM_COMMANDS, MCP_SHELL_CONFIRM_PATTERNS)
// held the call. The zero Confirmed, for a call the tier did not hold, is
// not logged. The list is closed.
type Confirmed string

// Answers.
const (
	// ConfirmAccepted: the user accepted; the call ran (result_type says
	// how it ended).
	ConfirmAccepted Confirmed = "accepted"
	// ConfirmDeclined: the user declined or dismissed the question; the
	// call was refused (rule confirm.declined) and nothing ran.
	ConfirmDeclined Confirmed = "declined"
	// ConfirmUnavailable: the user could not be asked (the client did not
	// declare elicitation, the request came over stateless HTTP, or the
	// client failed the question); refused (rule confirm.unavailable).
	ConfirmUnavailable Confirmed = "unavailable"
	// ConfirmTimeout: no answer within MCP_SHELL_CONFIRM_TIMEOUT_SECONDS;
	// refused (rule confirm.timeout).
	ConfirmTimeout Confirmed = "timeout"
	// ConfirmCancelled: the request ended while the question was open
	// (the client cancelled it, its session or connection ended, the
	// server shut down); result_type cancelled, nothing ran.
	ConfirmCancelled Confirmed = "cancelled"
)
