//go:build linux

package main

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// int80 makes an i386 system call from this 64-bit process (int 0x80:
// seccomp sees AUDIT_ARCH_I386 and the i386 numbers). It returns the
// kernel's raw answer, a negative errno on failure.
func int80(nr, a1, a2, a3 uintptr) (r uintptr)

// i386 system call numbers (arch/x86/entry/syscalls/syscall_32.tbl).
const (
	i386Getpid = 20
	i386Socket = 359
)

// i386Call tries the i386 ABI: getpid (harmless, so any answer but an
// error means the filter let a foreign-arch call through) and socket
// (AF_PACKET, which no stage may create).
func i386Call(targets) (bool, string) {
	if r := int(int80(i386Getpid, 0, 0, 0)); r > 0 {
		return true, fmt.Sprintf("i386 getpid answered %d", r)
	} else if r != -int(unix.ENOSYS) && r != -int(unix.EPERM) {
		return true, fmt.Sprintf("i386 getpid answered %d, not the filter's refusal", r)
	}
	if r := int(int80(i386Socket, unix.AF_PACKET, unix.SOCK_RAW, 0)); r >= 0 {
		unix.Close(r)
		return true, "i386 socket(AF_PACKET) created"
	}
	return false, "i386 getpid and socket refused"
}

// x32Nr marks an x32 system call number (same audit arch as x86-64).
const x32Nr = 0x40000000
