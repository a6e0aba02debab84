//go:build windows

// Windows has no re-executed launcher: there are no rlimits to set and no
// execve to keep the process identity, so stages start directly.

package sandbox

import (
	"fmt"
	"os"
)

// RunLauncher refuses: the launcher mode exists only on Linux and macOS.
func RunLauncher([]string) int {
	fmt.Fprintln(os.Stderr, "mcp-shell-server launcher: not available on windows")
	return launchExitCode
}

// changesUser reports whether attr starts the process with another
// user's token.
func changesUser(attr *os.ProcAttr) bool {
	return attr.Sys != nil && attr.Sys.Token != 0
}
