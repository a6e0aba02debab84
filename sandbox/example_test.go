package sandbox_test

import (
	"fmt"
	"os"

	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// NewLauncher validates a configuration and probes the kernel once, at
// start-up. In ModeAuto the effective mode is ModeLandlock where the
// kernel offers the needed Landlock ABI and ModeLimits elsewhere, with
// Fallback saying why; the server logs both. ModeOff starts stages
// directly.
func ExampleNewLauncher() {
	dir, err := os.MkdirTemp("", "sandbox-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	l, err := sandbox.NewLauncher(sandbox.Config{Mode: sandbox.ModeAuto, WriteDirs: []string{dir}, Limits: sandbox.DefaultLimits()})
	if err != nil {
		fmt.Println("no sandbox:", err)
		return
	}
	defer l.Close()
	if l.Confined() {
		fmt.Println("every stage confined by Landlock ABI", l.ABI())
	} else {
		fmt.Println("mode", l.Mode()+":", l.Fallback())
	}
}

// ModeOff is the explicit opt-out: nothing is applied, and the launcher
// says so.
func ExampleNewLauncher_off() {
	l, err := sandbox.NewLauncher(sandbox.Config{Mode: sandbox.ModeOff})
	if err != nil {
		panic(err)
	}
	defer l.Close()
	fmt.Println(l.Mode(), l.Confined())
	// Output: off false
}
