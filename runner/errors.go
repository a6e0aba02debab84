package runner

import "errors"

// ErrInvalidSpec reports a Spec that cannot describe a run: no stages or a
// stage with an empty argv.
var ErrInvalidSpec = errors.New("invalid run spec")

// LaunchError reports a stage that could not be started: the program was not
// found in the child PATH (Err wraps exec.ErrNotFound via
// *childenv.LookupError), pipes could not be created, or fork/exec failed.
// Argv0 is the stage's argv[0] as the client sent it.
type LaunchError struct {
	Argv0 string
	Err   error
}

// Error returns "Failed to create process: <cause>", the reference
// server's catalogue text (tumf/mcp-shell-server 1.1.8 §1.4).
func (e *LaunchError) Error() string { return "Failed to create process: " + e.Err.Error() }

// Unwrap returns the cause.
func (e *LaunchError) Unwrap() error { return e.Err }
