//go:build !linux

// The lifetime tests that need these modes are Linux-only
// (main_linux_test.go): here the test binary has none.

package runner

import "github.com/seed-b63acb1b/mcp-shell-server/lifetime"

func runHarnessMode([]string) {}

func setupLifetimeMode() *lifetime.Manager { return nil }
