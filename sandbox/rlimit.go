package sandbox

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// setLimits applies l to the launcher, which the target inherits. It uses
// syscall.Setrlimit, not unix.Setrlimit: the syscall package would
// otherwise restore the soft RLIMIT_NOFILE the Go runtime raised at
// start-up when it execs the target.
func setLimits(l Limits) error {
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
		if err := setLimit(r.resource, r.value); err != nil {
			return fail("rlimit", "setrlimit(%s, %d): %w", r.name, r.value, err)
		}
	}
	return nil
}

// setLimit sets soft and hard limit to v, never above the current hard
// limit. RLIMIT_CPU keeps one second between soft (SIGXCPU) and hard
// (SIGKILL).
func setLimit(resource int, v uint64) error {
	var cur syscall.Rlimit
	if err := syscall.Getrlimit(resource, &cur); err != nil {
		return err
	}
	hard := v
	if resource == unix.RLIMIT_CPU {
		hard = v + 1
	}
	hard = min(hard, cur.Max) // RLIM_INFINITY is the largest uint64
	return syscall.Setrlimit(resource, &syscall.Rlimit{Cur: min(v, hard), Max: hard})
}
