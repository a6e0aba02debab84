//go:build darwin || linux

// On Linux and macOS a call has no per-platform handle: its processes
// are bound by the mechanism (cgroup, tracker) and the runner's process
// groups (Windows: callos_windows.go).

package lifetime

import "os"

// callOS is empty here.
type callOS struct{}

func (callOS) open() error { return nil }

func (callOS) bind(start func() (*os.Process, error)) func() (*os.Process, error) { return start }

func (callOS) kill()  {}
func (callOS) close() {}
