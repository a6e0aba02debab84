package redirect

// Error codes carried by Error.Code. The human messages start with the
// reference server's catalogue texts (tumf/mcp-shell-server 1.1.8 §1.4).
const (
	// CodeMissingTarget: the target is empty. The policy emits the
	// reference's "Missing path for output/input redirection" itself when
	// an operator has no following element.
	CodeMissingTarget = "redirect.missing-target"
	// CodeAbsolute: the target is an absolute path.
	CodeAbsolute = "redirect.absolute"
	// CodeParent: the target has a ".." component.
	CodeParent = "redirect.parent"
	// CodeEscape: the target resolves (through symlinks) outside the
	// working directory.
	CodeEscape = "redirect.escape"
	// CodeNUL: the target contains a NUL byte.
	CodeNUL = "redirect.nul"
	// CodeInput: the "<" target cannot be opened (missing, unreadable).
	CodeInput = "redirect.input"
	// CodeOutput: the ">"/">>" target cannot be opened (directory, missing
	// parent, permission, hard-linked).
	CodeOutput = "redirect.output"
	// CodeGit: an output target lies, after symlinks, inside a .git
	// directory, where configuration and hooks make git run programs.
	CodeGit = "redirect.git"
	// CodeNotRegular: the target is a FIFO, device, socket or directory.
	CodeNotRegular = "redirect.not-regular"
)

// Error is a refused or failed redirection.
//
// Code is one of the Code* constants, Target the target exactly as given,
// Message one sentence naming the target, and Err the underlying cause (nil
// for lexical refusals), kept for the audit record.
type Error struct {
	Code    string
	Target  string
	Message string
	Err     error
}

// Error returns Message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }
