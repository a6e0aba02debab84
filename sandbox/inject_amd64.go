//go:build linux && amd64

// Registers and instructions of a stopped amd64 tracee, for
// confineFromInside.

package sandbox

import (
	"encoding/binary"

	"golang.org/x/sys/unix"
)

type archRegs struct{ r unix.PtraceRegs }

func getRegs(pid int) (archRegs, error) {
	var r archRegs
	return r, getRegsInto(pid, &r)
}

func getRegsInto(pid int, r *archRegs) error { return unix.PtraceGetRegs(pid, &r.r) }

func setRegs(pid int, r *archRegs) error { return unix.PtraceSetRegs(pid, &r.r) }

func (r *archRegs) pc() uintptr { return uintptr(r.r.Rip) }
func (r *archRegs) sp() uintptr { return uintptr(r.r.Rsp) }

// prepareStub keeps the kernel from taking the stop for an interrupted
// system call to restart when the tracee resumes (Orig_rax -1).
func (r *archRegs) prepareStub() { r.r.Orig_rax = ^uint64(0) }

// stubResult is call i's result: r12, r13, r14 (archStub moves them
// there).
func (r *archRegs) stubResult(i int) uintptr {
	switch i {
	case 0:
		return uintptr(r.r.R12)
	case 1:
		return uintptr(r.r.R13)
	}
	return uintptr(r.r.R14)
}

// archStub encodes calls (at most three, up to three arguments each) as
// amd64 instructions, each followed by moving rax into r12, r13, r14,
// and a final int3:
//
//	mov eax, NR; mov rdi, A0; mov rsi, A1; mov rdx, A2; syscall; mov rN, rax
func archStub(calls []stubCall) []byte {
	var b []byte
	imm64 := func(op []byte, v uintptr) {
		b = append(b, op...)
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	argRegs := [][]byte{{0x48, 0xbf}, {0x48, 0xbe}, {0x48, 0xba}} // mov rdi/rsi/rdx, imm64
	saves := [][]byte{{0x49, 0x89, 0xc4}, {0x49, 0x89, 0xc5}, {0x49, 0x89, 0xc6}}
	for i, c := range calls {
		b = append(b, 0xb8)
		b = binary.LittleEndian.AppendUint32(b, uint32(c.nr))
		for j, a := range c.args {
			imm64(argRegs[j], a)
		}
		b = append(b, 0x0f, 0x05) // syscall
		b = append(b, saves[i]...)
	}
	return append(b, 0xcc) // int3
}
