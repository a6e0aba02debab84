//go:build linux && arm64

// Registers of a stopped arm64 tracee, for confineFromInside.

package sandbox

import "golang.org/x/sys/unix"

// syscallInsn is the arm64 "svc #0" instruction, little-endian.
var syscallInsn = []byte{0x01, 0x00, 0x00, 0xd4}

// ntPrstatus is NT_PRSTATUS, the general registers' regset.
const ntPrstatus = 1

type archRegs struct{ r unix.PtraceRegsArm64 }

func getRegs(pid int) (archRegs, error) {
	var r archRegs
	return r, getRegsInto(pid, &r)
}

func getRegsInto(pid int, r *archRegs) error { return unix.PtraceGetRegSetArm64(pid, ntPrstatus, &r.r) }

func setRegs(pid int, r *archRegs) error { return unix.PtraceSetRegSetArm64(pid, ntPrstatus, &r.r) }

func (r *archRegs) pc() uintptr  { return uintptr(r.r.Pc) }
func (r *archRegs) sp() uintptr  { return uintptr(r.r.Sp) }
func (r *archRegs) ret() uintptr { return uintptr(r.r.Regs[0]) }

// setSyscall loads nr (x8) and args (x0-x5) the way the arm64 system call
// ABI takes them.
func (r *archRegs) setSyscall(nr uintptr, args ...uintptr) {
	r.r.Regs[8] = uint64(nr)
	for i, a := range args {
		r.r.Regs[i] = uint64(a)
	}
}
