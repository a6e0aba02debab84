//go:build linux && riscv64

// The riscv64-only system calls of the stage allowlist.

package sandbox

import "golang.org/x/sys/unix"

var archSyscalls = []uintptr{unix.SYS_RISCV_FLUSH_ICACHE, unix.SYS_RISCV_HWPROBE}
