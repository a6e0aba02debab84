package workdir

import "github.com/seed-b63acb1b/mcp-shell-server/refusal"

// Reason codes of the refusals this package makes.
const (
	// CodeDirectory: the call's directory is empty, missing, not a
	// directory, not accessible, or outside the allowed directories.
	CodeDirectory refusal.Code = "request.directory"
)
