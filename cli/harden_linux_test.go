package cli

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestHardenProcessMakesTheServerNonDumpable runs hardenProcess in a
// re-executed test binary (the change is irreversible for a process) and
// asks the kernel whether that process is still dumpable: a dumpable
// server's /proc/<pid>/environ and fd/0 are open to its same-user
// children, which would read the HTTP token or write its stdin.
func TestHardenProcessMakesTheServerNonDumpable(t *testing.T) {
	if os.Getenv("CLI_TEST_HARDEN") == "1" {
		before, _ := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
		hardenProcess()
		after, _ := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
		fmt.Printf("%d%d\n", before, after)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHardenProcessMakesTheServerNonDumpable$")
	cmd.Env = append(os.Environ(), "CLI_TEST_HARDEN=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	if got := strings.SplitN(string(out), "\n", 2)[0]; got != "10" {
		t.Errorf("dumpable before and after hardenProcess = %q, want 1 then 0", got)
	}
}
