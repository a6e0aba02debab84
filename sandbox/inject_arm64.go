//go:build linux && arm64

// Registers and instructions of a stopped arm64 tracee, for
// confineFromInside.

package sandbox

import (
	"encoding/binary"

	"golang.org/x/sys/unix"
)

// ntPrstatus is NT_PRSTATUS, the general registers' regset.
const ntPrstatus = 1

type archRegs struct{ r unix.PtraceRegsArm64 }

func getRegs(pid int) (archRegs, error) {
	var r archRegs
	return r, getRegsInto(pid, &r)
}

func getRegsInto(pid int, r *archRegs) error { return unix.PtraceGetRegSetArm64(pid, ntPrstatus, &r.r) }

func setRegs(pid int, r *archRegs) error { return unix.PtraceSetRegSetArm64(pid, ntPrstatus, &r.r) }

func (r *archRegs) pc() uintptr { return uintptr(r.r.Pc) }
func (r *archRegs) sp() uintptr { return uintptr(r.r.Sp) }

// prepareStub has nothing to do: x0 holds execve's 0, which no restart
// logic takes for an interrupted call.
func (r *archRegs) prepareStub() {}

// stubResult is call i's result: x19, x20, x21 (archStub moves them
// there).
func (r *archRegs) stubResult(i int) uintptr { return uintptr(r.r.Regs[19+i]) }

// archStub encodes calls (at most three, up to three arguments each) as
// arm64 instructions: the number in x8, arguments in x0-x2 (movz and
// movk, 16 bits at a time), svc #0, the result moved to x19+i; then
// brk #0.
func archStub(calls []stubCall) []byte {
	var b []byte
	ins := func(w uint32) { b = binary.LittleEndian.AppendUint32(b, w) }
	load := func(rd uint32, v uint64) {
		ins(0xd2800000 | uint32(v&0xffff)<<5 | rd) // movz xd, #v
		for hw := uint32(1); hw < 4; hw++ {
			if part := (v >> (16 * hw)) & 0xffff; part != 0 {
				ins(0xf2800000 | hw<<21 | uint32(part)<<5 | rd) // movk xd, #part, lsl 16*hw
			}
		}
	}
	for i, c := range calls {
		load(8, uint64(c.nr))
		for j, a := range c.args {
			load(uint32(j), uint64(a))
		}
		ins(0xd4000001)                // svc #0
		ins(0xaa0003e0 | uint32(19+i)) // mov x19+i, x0
	}
	ins(0xd4200000) // brk #0
	return b
}
