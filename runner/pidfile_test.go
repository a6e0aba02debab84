package runner

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// readPID reads the pid a helper wrote to pidFile (the grandchild whose
// end assertGone checks on each platform).
func readPID(t *testing.T, pidFile string) int {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("grandchild pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}
