//go:build linux && !amd64 && !arm64 && !riscv64

// Architectures without a seccomp filter (auditArch has no entry): no
// calls of their own to list.

package sandbox

var archSyscalls []uintptr
