package sandbox

import (
	"context"
	"errors"
	"fmt"
	"syscall"
)

// StartError is a stage the launcher refused or could not start. Step
// says where ("config", "rlimit", "no_new_privs", "landlock", "seccomp",
// "exec"; "deadline": the caller's context ended the start); Msg is the
// message; Err is the cause (a syscall.Errno when one is known, so
// errors.Is with fs.ErrPermission or fs.ErrNotExist works; for "deadline"
// context.Cause of the context, so errors.Is with
// context.DeadlineExceeded works), or nil.
type StartError struct {
	Step string
	Msg  string
	Err  error
}

// Error returns the message, for example "exec /usr/bin/x: permission
// denied".
func (e *StartError) Error() string { return e.Msg }

// Unwrap returns the errno, or nil.
func (e *StartError) Unwrap() error { return e.Err }

// stepError is a failure of one launch step.
type stepError struct {
	step string
	err  error
}

func (e *stepError) Error() string { return e.err.Error() }
func (e *stepError) Unwrap() error { return e.err }

func fail(step string, format string, a ...any) error {
	return &stepError{step: step, err: fmt.Errorf(format, a...)}
}

// startError turns a step failure (or any error, as step "config") into
// a *StartError carrying its errno.
func startError(err error) *StartError {
	step := "config"
	var se *stepError
	if errors.As(err, &se) {
		step = se.step
	}
	e := &StartError{Step: step, Msg: err.Error()}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		e.Err = errno
	}
	return e
}

// execError reports a failed fork or execve the way the re-executed
// launcher does: "exec PATH: CAUSE", wrapping the errno.
func execError(path string, err error) *StartError {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return &StartError{Step: "exec", Msg: "exec " + path + ": " + errno.Error(), Err: errno}
	}
	return &StartError{Step: "exec", Msg: "exec " + path + ": " + err.Error()}
}

// cutShort reports a start that ctx ended while it was doing what.
func cutShort(ctx context.Context, what string) *StartError {
	cause := context.Cause(ctx)
	return &StartError{Step: "deadline", Msg: "the stage did not start in time: " + what + ": " + cause.Error(), Err: cause}
}
