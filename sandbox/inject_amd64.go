//go:build linux && amd64

// Registers of a stopped amd64 tracee, for confineFromInside.

package sandbox

import "golang.org/x/sys/unix"

// syscallInsn is the amd64 "syscall" instruction.
var syscallInsn = []byte{0x0f, 0x05}

type archRegs struct{ r unix.PtraceRegs }

func getRegs(pid int) (archRegs, error) {
	var r archRegs
	return r, getRegsInto(pid, &r)
}

func getRegsInto(pid int, r *archRegs) error { return unix.PtraceGetRegs(pid, &r.r) }

func setRegs(pid int, r *archRegs) error { return unix.PtraceSetRegs(pid, &r.r) }

func (r *archRegs) pc() uintptr  { return uintptr(r.r.Rip) }
func (r *archRegs) sp() uintptr  { return uintptr(r.r.Rsp) }
func (r *archRegs) ret() uintptr { return uintptr(r.r.Rax) }

// setSyscall loads nr and args the way the amd64 system call ABI takes
// them; Orig_rax -1 keeps the kernel from treating the stop as an
// interrupted system call to restart.
func (r *archRegs) setSyscall(nr uintptr, args ...uintptr) {
	r.r.Rax, r.r.Orig_rax = uint64(nr), ^uint64(0)
	regs := []*uint64{&r.r.Rdi, &r.r.Rsi, &r.r.Rdx, &r.r.R10, &r.r.R8, &r.r.R9}
	for i, a := range args {
		*regs[i] = uint64(a)
	}
}
