//go:build windows

// A Windows stage never ends by a signal (runner reports an exit code),
// so no name reaches signalNum there.

package server

import "syscall"

// signalNum is 0: Windows has no signal numbers for processes.
func signalNum(string) syscall.Signal { return 0 }
