//go:build darwin || linux

// rlimits exist on Linux and macOS (Windows: rlimit_windows.go).

package sandbox

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// rlimit is one resource limit to set: both values already bounded by
// the server's hard limit.
type rlimit struct {
	name     string
	resource int
	value    syscall.Rlimit
}

// rlimits returns the limits l asks for, soft and hard equal (CPU keeps
// one second between soft, SIGXCPU, and hard, SIGKILL), never above the
// calling process's hard limit (an unprivileged process cannot raise a
// hard limit; RLIM_INFINITY is the largest uint64).
func rlimits(l Limits) ([]rlimit, error) {
	var out []rlimit
	for _, r := range []struct {
		name     string
		resource int
		value    uint64
	}{
		{"RLIMIT_CPU", unix.RLIMIT_CPU, l.CPUSeconds},
		{"RLIMIT_AS", unix.RLIMIT_AS, l.ASBytes},
		{"RLIMIT_NPROC", unix.RLIMIT_NPROC, l.NProc},
		{"RLIMIT_FSIZE", unix.RLIMIT_FSIZE, l.FSizeBytes},
		{"RLIMIT_NOFILE", unix.RLIMIT_NOFILE, l.NoFile},
	} {
		if r.value == 0 {
			continue
		}
		var cur syscall.Rlimit
		if err := syscall.Getrlimit(r.resource, &cur); err != nil {
			return nil, fail("rlimit", "getrlimit(%s): %w", r.name, err)
		}
		hard := r.value
		if r.resource == unix.RLIMIT_CPU {
			hard++
		}
		hard = min(hard, cur.Max)
		out = append(out, rlimit{r.name, r.resource, syscall.Rlimit{Cur: min(r.value, hard), Max: hard}})
	}
	return out, nil
}

// setLimits applies l to the calling process (the re-executed launcher),
// which the target inherits. It uses syscall.Setrlimit, not
// unix.Setrlimit: the syscall package would otherwise restore the soft
// RLIMIT_NOFILE the Go runtime raised at start-up when it execs the
// target.
func setLimits(l Limits) error {
	rs, err := rlimits(l)
	if err != nil {
		return err
	}
	for _, r := range rs {
		if err := syscall.Setrlimit(r.resource, &r.value); err != nil {
			return fail("rlimit", "setrlimit(%s, %d): %w", r.name, r.value.Cur, err)
		}
	}
	return nil
}

// limitsAvailable is nil: setrlimit(2) exists here.
func limitsAvailable() error { return nil }
