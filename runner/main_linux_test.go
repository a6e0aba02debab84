//go:build linux

// The lifetime tests' modes of the test binary (lifetime_test.go): Linux
// only, like those tests (main_other_test.go elsewhere).

package runner

import (
	"fmt"
	"os"

	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
)

// runHarnessMode runs the test binary as the small server of the lifetime
// tests when args[0] is harnessArg, and exits.
func runHarnessMode(args []string) {
	if args[0] == harnessArg {
		os.Exit(runHarness(args[1:]))
	}
}

// setupLifetimeMode installs the mechanism lifetimeEnv names, if any, or
// exits with skipMarker when it is unavailable.
func setupLifetimeMode() *lifetime.Manager {
	mode := os.Getenv(lifetimeEnv)
	if mode == "" {
		return nil
	}
	lt, err := lifetime.Setup(lifetime.Options{Mechanism: lifetime.Mechanism(mode)})
	if err != nil {
		fmt.Println(skipMarker, err)
		os.Exit(0)
	}
	return lt
}
