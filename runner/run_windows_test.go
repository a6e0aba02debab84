//go:build windows

// Whether a process is gone, on Windows: a wait on its process handle
// (Linux and macOS: run_linux_test.go, run_darwin_test.go).

package runner

import (
	"testing"

	"golang.org/x/sys/windows"
)

// assertGone reads a pid from file and checks that the process exits
// within exitWithin.
func assertGone(t *testing.T, pidFile string) {
	t.Helper()
	pid := readPID(t, pidFile)
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return // no such process any more
	}
	defer windows.CloseHandle(h)
	if ev, err := windows.WaitForSingleObject(h, uint32(exitWithin.Milliseconds())); err != nil || ev != windows.WAIT_OBJECT_0 {
		t.Errorf("grandchild %d still running after Run returned (%d, %v)", pid, ev, err)
	}
}
