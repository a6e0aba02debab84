//go:build linux

// Linux: the server makes itself non-dumpable, and detects a terminal
// with TCGETS.

package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// hardenProcess: children run as the same user; without this they could
// read the server's environment (tokens) from /proc/<pid>/environ or
// write into its stdin through /proc/<pid>/fd. Execve resets it for the
// children.
func hardenProcess() {
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}

func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
