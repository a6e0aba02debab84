//go:build darwin

// macOS has no /proc and no PR_SET_DUMPABLE: another process of the same
// user reads the server's environment only through the debugging
// interfaces, which the system restricts (task_for_pid); the terminal is
// detected with TIOCGETA.

package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// hardenProcess does nothing on macOS (see the file comment).
func hardenProcess() {}

func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TIOCGETA)
	return err == nil
}
