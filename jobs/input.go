package jobs

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Input errors.
var (
	// ErrStdinClosed: the job's stdin was closed (by job_stdin or because
	// the job ended).
	ErrStdinClosed = errors.New("the job's stdin is closed")
	// ErrStdinGone: the job no longer reads its stdin (the first stage
	// exited or closed it).
	ErrStdinGone = errors.New("the job no longer reads its stdin")
	// ErrStdinSlow: the job did not read within the write's time bound.
	ErrStdinSlow = errors.New("the job did not read its stdin in time")
)

// Input is the write end of a job's stdin pipe.
type Input struct {
	// closing lets Close cut short a Write that holds mu while it waits.
	closing atomic.Bool
	mu      sync.Mutex
	w       *os.File
	closed  bool
}

// NewInput wraps w, the write end of the pipe whose read end is the job's
// stdin (runner.Spec.StdinFrom).
func NewInput(w *os.File) *Input { return &Input{w: w} }

// Open reports whether writes are still accepted (false for a nil Input).
func (in *Input) Open() bool {
	if in == nil {
		return false
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	return !in.closed
}

// Write writes p, waiting at most timeout for the job to read it. It
// returns how many bytes were written, and ErrStdinSlow, ErrStdinGone or
// ErrStdinClosed when not all were.
func (in *Input) Write(p []byte, timeout time.Duration) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed {
		return 0, ErrStdinClosed
	}
	_ = in.w.SetWriteDeadline(time.Now().Add(timeout))
	if in.closing.Load() {
		_ = in.w.SetWriteDeadline(time.Now())
	}
	n, err := in.w.Write(p)
	switch {
	case err == nil:
		return n, nil
	case errors.Is(err, os.ErrDeadlineExceeded) && in.closing.Load():
		return n, ErrStdinClosed
	case errors.Is(err, os.ErrDeadlineExceeded):
		return n, ErrStdinSlow
	case errors.Is(err, syscall.EPIPE):
		return n, ErrStdinGone
	}
	return n, err
}

// Close closes the job's stdin (it reads EOF). Closing twice is harmless.
func (in *Input) Close() error {
	if in == nil {
		return nil
	}
	if !in.closing.Swap(true) {
		_ = in.w.SetWriteDeadline(time.Now()) // a blocked Write returns now
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed {
		return nil
	}
	in.closed = true
	return in.w.Close()
}
