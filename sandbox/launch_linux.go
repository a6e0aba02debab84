//go:build linux

// Linux: the launcher sets no_new_privs and holds the parent-death
// signal across its execve (launch_darwin.go has neither).

package sandbox

import "golang.org/x/sys/unix"

// noNewPrivs sets no_new_privs on the calling thread, which the target
// inherits across execve.
func noNewPrivs() error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fail("no_new_privs", "prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	return nil
}

// holdParentDeathSignal sets SIGKILL as the parent-death signal of the
// calling thread, the one about to execve. The runner set it in the child
// before the launcher ran, but only on the launcher's first thread. The
// main goroutine locked to the calling thread is usually still on that
// thread, but nothing guarantees it, and an execve from another thread
// keeps only the exec'ing thread: the setting is lost with the first one
// (measured on Linux 6.18 with a Go program that execs from a second
// thread: the target outlived its SIGKILLed parent). If the server died
// before this prctl, getppid no longer returns it and the target is not run.
func holdParentDeathSignal(ppid int) error {
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
		return fail("pdeathsig", "prctl(PR_SET_PDEATHSIG): %w", err)
	}
	if unix.Getppid() != ppid {
		return fail("pdeathsig", "the server exited before the program started")
	}
	return nil
}
