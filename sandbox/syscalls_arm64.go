//go:build linux && arm64

// The arm64-only system calls of the stage allowlist.

package sandbox

import "golang.org/x/sys/unix"

var archSyscalls = []uintptr{unix.SYS_RENAMEAT}
