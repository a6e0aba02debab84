//go:build darwin || linux

// Signal numbers for the result text exist on Linux and macOS (Windows:
// signal_windows.go).

package server

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// signalNum is the number of the signal named name ("SIGKILL"), 0 if unknown.
func signalNum(name string) syscall.Signal { return unix.SignalNum(name) }
