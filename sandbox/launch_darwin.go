//go:build darwin

// macOS has neither no_new_privs nor a parent-death signal: the target
// can gain privileges through a setuid program, and dies with the server
// only through the process-group kill (lifetime mechanism pgroup).

package sandbox

import "golang.org/x/sys/unix"

// noNewPrivs does nothing: macOS has no such flag.
func noNewPrivs() error { return nil }

// holdParentDeathSignal only checks that the server is still the parent:
// without a parent-death signal, a target started after the server died
// would be orphaned from the start.
func holdParentDeathSignal(ppid int) error {
	if unix.Getppid() != ppid {
		return fail("pdeathsig", "the server exited before the program started")
	}
	return nil
}
