//go:build windows

// Windows has no /proc and no dumpable flag (another process of the user
// needs a process handle with PROCESS_VM_READ, which the children are
// not given); a console is detected with GetConsoleMode.

package cli

import (
	"os"

	"golang.org/x/sys/windows"
)

// hardenProcess does nothing on Windows (see the file comment).
func hardenProcess() {}

func isTerminal(f *os.File) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(f.Fd()), &mode) == nil
}
