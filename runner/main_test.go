package runner

import (
	"os"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// TestMain lets the test binary serve as the sandbox launcher, as the
// server binary does (Spec.Sandbox re-executes os.Executable()).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.LauncherArg {
		os.Exit(sandbox.RunLauncher(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// pinned opens dir as a call's working directory, closed with the test.
var pinned = testcases.Pin
