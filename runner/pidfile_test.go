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
	// A pid, or a proctest report line ("PID START TAG").
	f := strings.Fields(string(b))
	if len(f) == 0 {
		t.Fatalf("grandchild pid: %s is empty", pidFile)
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil {
		t.Fatal(err)
	}
	return pid
}
