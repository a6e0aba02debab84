//go:build linux && (amd64 || arm64)

// Confining a stage from inside it, before its program's first
// instruction: Linux on amd64 and arm64, where the traced start stops the
// child right after its execve (thread.go).

package sandbox

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A stage starts from a restricted thread of the server, so it inherits
// that thread's Landlock domain; in the same domain it could signal and
// ptrace the thread, and so reach the whole server. The stage therefore
// enters a domain of its own, nested in the thread's, before its
// program's first instruction: at the stop after its execve the thread,
// its tracer, makes it execute landlock_restrict_self on a scoping
// ruleset (scopeRuleset: signals and abstract UNIX sockets scoped, ptrace
// limited to its own domain as every nested domain is), close that
// ruleset, and add its part of the seccomp filter (stageTail, on top of
// the allowlist it inherits from the thread), by placing those system calls
// and a breakpoint at the program counter and resuming it (the way
// debuggers call functions in a stopped process), then restores the
// instructions and the registers. The tracee is stopped and
// single-threaded throughout, and the calls are its own, so each one
// applies to the stage and everything it starts.

// injectSupported reports whether stages can be confined from inside on
// this architecture; elsewhere stages start through the re-executed
// launcher (inject_other.go).
const injectSupported = true

// confineFromInside makes the stopped tracee pid enter its own nested
// Landlock domain with the scoping ruleset it holds as descriptor scopeFD
// (-1: none) and install filter (nil: none). The system calls run as one
// short instruction sequence placed at the program counter (archStub),
// which ends in a breakpoint: one resume and one stop, whatever their
// number. Each call's result lands in a register of its own.
func confineFromInside(pid, scopeFD int, filter []unix.SockFilter) error {
	orig, err := getRegs(pid)
	if err != nil {
		return fail("confine", "reading the registers of the new stage: %w", err)
	}
	var calls []stubCall
	if scopeFD >= 0 {
		calls = append(calls,
			stubCall{"landlock", "landlock_restrict_self", unix.SYS_LANDLOCK_RESTRICT_SELF, []uintptr{uintptr(scopeFD), 0}},
			stubCall{"landlock", "closing the scoping ruleset", unix.SYS_CLOSE, []uintptr{uintptr(scopeFD)}})
	}
	if filter != nil {
		addr, err := writeFilter(pid, orig.sp(), filter)
		if err != nil {
			return fail("seccomp", "writing the filter into the new stage: %w", err)
		}
		calls = append(calls, stubCall{"seccomp", "seccomp(SECCOMP_SET_MODE_FILTER)", unix.SYS_SECCOMP, []uintptr{unix.SECCOMP_SET_MODE_FILTER, 0, addr}})
	}
	if len(calls) == 0 {
		return nil
	}
	code := archStub(calls)
	pc := orig.pc()
	saved := make([]byte, (len(code)+7)&^7)
	if _, err := unix.PtracePeekText(pid, pc, saved); err != nil {
		return fail("confine", "reading the new stage's first instructions: %w", err)
	}
	patched := append(code, saved[len(code):]...)
	if _, err := unix.PtracePokeText(pid, pc, patched); err != nil {
		return fail("confine", "placing the confining calls in the new stage: %w", err)
	}
	defer func() {
		unix.PtracePokeText(pid, pc, saved)
		setRegs(pid, &orig)
	}()
	r := orig
	r.prepareStub()
	if err := setRegs(pid, &r); err != nil {
		return fail("confine", "setting the registers of the new stage: %w", err)
	}
	if err := unix.PtraceCont(pid, 0); err != nil {
		return fail("confine", "resuming the new stage: %w", err)
	}
	if err := waitTrap(pid); err != nil {
		return fail("confine", "%w", err)
	}
	if err := getRegsInto(pid, &r); err != nil {
		return fail("confine", "reading the results in the new stage: %w", err)
	}
	for i, c := range calls {
		if e := int64(r.stubResult(i)); e < 0 && e > -4096 {
			return fail(c.step, "%s in the new stage: %w", c.what, unix.Errno(-e))
		}
	}
	return nil
}

// stubCall is one system call of a confining sequence.
type stubCall struct {
	step, what string
	nr         uintptr
	args       []uintptr
}

// waitTrap waits for the tracee's stop at the sequence's breakpoint
// (SIGTRAP); any other stop or its death is an error.
func waitTrap(pid int) error {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WSTOPPED|unix.WNOWAIT, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		break
	}
	status := siginfoStatus(&info)
	if info.Code != cldTrapped || status != int32(unix.SIGTRAP) {
		return fmt.Errorf("the new stage stopped with code %d, status %d instead of at the breakpoint", info.Code, status)
	}
	return nil
}

// writeFilter writes a struct sock_fprog and filter into the tracee's
// stack, well below its stack pointer (execve maps at least 128 KiB of
// stack beneath the arguments: fs/exec.c setup_arg_pages), and returns the
// address of the struct.
func writeFilter(pid int, sp uintptr, filter []unix.SockFilter) (uintptr, error) {
	progBytes := len(filter) * int(unsafe.Sizeof(filter[0]))
	size := 16 + progBytes
	addr := (sp - 16384 - uintptr(size)) &^ 15
	buf := make([]byte, size)
	binary.LittleEndian.PutUint16(buf[0:], uint16(len(filter)))
	binary.LittleEndian.PutUint64(buf[8:], uint64(addr+16))
	copy(buf[16:], unsafe.Slice((*byte)(unsafe.Pointer(&filter[0])), progBytes))
	local := []unix.Iovec{{Base: &buf[0]}}
	local[0].SetLen(size)
	remote := []unix.RemoteIovec{{Base: addr, Len: size}}
	n, err := unix.ProcessVMWritev(pid, local, remote, 0)
	if err != nil {
		return 0, err
	}
	if n != size {
		return 0, fmt.Errorf("wrote %d of %d bytes", n, size)
	}
	return addr, nil
}
