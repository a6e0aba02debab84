package runner

import (
	"os"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/proctest"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// TestMain lets the test binary serve as the sandbox launcher and the
// lifetime watchdog, as the server binary does (both re-execute
// os.Executable()), and as the small server of the lifetime tests
// (runHarness). With lifetimeEnv set it installs that lifetime mechanism
// before the tests run (see TestLifetimeMechanisms).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case sandbox.LauncherArg:
			os.Exit(sandbox.RunLauncher(os.Args[2:]))
		case lifetime.WatchdogArg:
			os.Exit(lifetime.RunWatchdog(os.Args[2:]))
		case selfArg:
			os.Exit(runSelf(os.Args[2:]))
		}
		runHarnessMode(os.Args[1:])
	}
	lt := setupLifetimeMode()
	code := m.Run()
	if lt != nil {
		lt.Close()
	}
	proctest.Cleanup()
	os.Exit(code)
}

// slack absorbs scheduling noise on a loaded 2-core machine in the bounds
// on how long a killed run may take; the bounds still fail if a run waits
// for a 100 s sleeper.
const slack = 2 * time.Second

// grace is the KillGrace of the test specs: short, to keep tests quick.
const grace = 200 * time.Millisecond

// pinned opens dir as a call's working directory, closed with the test.
var pinned = testcases.Pin
