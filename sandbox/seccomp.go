//go:build linux

// The seccomp socket filter: Linux only (ruleset_other.go elsewhere).

package sandbox

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock (up to ABI 11) controls bind(2) and connect(2) of plain TCP
// sockets only: an IPPROTO_MPTCP or IPPROTO_SCTP socket, or a raw socket
// (root has CAP_NET_RAW), reaches the network unchecked. When the network
// is denied the launcher therefore also installs a seccomp filter that
// lets socket(2) create AF_INET/AF_INET6 sockets only as SOCK_STREAM or
// SOCK_DGRAM with protocol 0, IPPROTO_TCP or IPPROTO_UDP, and refuses the
// rest with EACCES. (UDP itself is only controlled from ABI 10 on.)
// Below ABI 9 it also refuses socket(AF_UNIX): Landlock does not yet
// restrict connecting to pathname UNIX sockets there.

// auditArch maps GOARCH to the seccomp_data.arch value of its native
// system call ABI (linux/audit.h). Only little-endian 64-bit
// architectures are listed: the filter reads the low 32 bits of each
// argument at the start of its 8-byte slot.
var auditArch = map[string]uint32{
	"amd64":   unix.AUDIT_ARCH_X86_64,
	"arm64":   unix.AUDIT_ARCH_AARCH64,
	"riscv64": unix.AUDIT_ARCH_RISCV64,
}

// x32Bit marks x32 system call numbers on amd64 (same audit arch); any
// number with it set is refused, so x32 cannot bypass the filter.
const x32Bit = 0x40000000

// seccomp_data offsets (linux/seccomp.h): nr, arch, instruction pointer,
// then six 8-byte arguments.
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16 // domain
	offArg1 = 24 // type
	offArg2 = 32 // protocol
)

// sockTypeMask drops SOCK_NONBLOCK and SOCK_CLOEXEC from the type.
const sockTypeMask = 0xf

// socketFilter returns the BPF program, or an error on an architecture
// without an entry in auditArch. denyUnix also refuses socket(AF_UNIX):
// before Landlock ABI 9 a pathname UNIX socket anywhere (for example
// /run/docker.sock) can be connected to, since path lookup needs no
// Landlock right. socketpair(2) stays allowed.
func socketFilter(denyUnix bool) ([]unix.SockFilter, error) {
	arch, ok := auditArch[runtime.GOARCH]
	if !ok {
		return nil, fmt.Errorf("no seccomp socket filter for %s: set MCP_SHELL_SANDBOX_NETWORK=allow or MCP_SHELL_SANDBOX_BEST_EFFORT=1", runtime.GOARCH)
	}
	var a bpfAsm
	a.ld(offArch)
	a.jeq(arch, "native", "")
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)) // foreign ABI (i386 compat): refused
	a.label("native")
	a.ld(offNr)
	a.jge(x32Bit, "deny", "")
	a.jeq(unix.SYS_SOCKET, "", "allow")
	a.ld(offArg0)
	if denyUnix {
		a.jeq(unix.AF_UNIX, "deny", "")
	}
	a.jeq(unix.AF_INET, "inet", "")
	a.jeq(unix.AF_INET6, "inet", "allow")
	a.label("inet")
	a.ld(offArg2)
	a.jeq(0, "type", "")
	a.jeq(unix.IPPROTO_TCP, "type", "")
	a.jeq(unix.IPPROTO_UDP, "type", "deny")
	a.label("type")
	a.ld(offArg1)
	a.and(sockTypeMask)
	a.jeq(unix.SOCK_STREAM, "allow", "")
	a.jeq(unix.SOCK_DGRAM, "allow", "deny")
	a.label("allow")
	a.ret(unix.SECCOMP_RET_ALLOW)
	a.label("deny")
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES))
	return a.assemble()
}

// bpfAsm assembles a classic BPF program with forward jumps to labels
// ("" means the next instruction).
type bpfAsm struct {
	prog   []unix.SockFilter
	jumps  []bpfJump
	labels map[string]int
}

type bpfJump struct {
	at     int
	jt, jf string
}

func (a *bpfAsm) emit(f unix.SockFilter) { a.prog = append(a.prog, f) }

func (a *bpfAsm) ld(off uint32) {
	a.emit(unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off})
}

func (a *bpfAsm) and(k uint32) {
	a.emit(unix.SockFilter{Code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, K: k})
}

func (a *bpfAsm) ret(k uint32) { a.emit(unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k}) }

func (a *bpfAsm) jeq(k uint32, jt, jf string) { a.jump(unix.BPF_JEQ, k, jt, jf) }

func (a *bpfAsm) jge(k uint32, jt, jf string) { a.jump(unix.BPF_JGE, k, jt, jf) }

func (a *bpfAsm) jump(op uint16, k uint32, jt, jf string) {
	a.jumps = append(a.jumps, bpfJump{at: len(a.prog), jt: jt, jf: jf})
	a.emit(unix.SockFilter{Code: unix.BPF_JMP | op | unix.BPF_K, K: k})
}

func (a *bpfAsm) label(name string) {
	if a.labels == nil {
		a.labels = map[string]int{}
	}
	a.labels[name] = len(a.prog)
}

// assemble resolves the jump offsets (instructions skipped, forward only,
// at most 255).
func (a *bpfAsm) assemble() ([]unix.SockFilter, error) {
	off := func(at int, name string) (uint8, error) {
		if name == "" {
			return 0, nil
		}
		to, ok := a.labels[name]
		if !ok || to <= at || to-at-1 > 255 {
			return 0, fmt.Errorf("bpf: bad jump from %d to %q", at, name)
		}
		return uint8(to - at - 1), nil
	}
	for _, j := range a.jumps {
		var err error
		if a.prog[j.at].Jt, err = off(j.at, j.jt); err != nil {
			return nil, err
		}
		if a.prog[j.at].Jf, err = off(j.at, j.jf); err != nil {
			return nil, err
		}
	}
	return a.prog, nil
}

// filterAvailable reports whether this architecture has the socket
// filter (Probe refuses a missing one unless BestEffort or the network
// is allowed to every stage).
func filterAvailable() bool {
	_, err := socketFilter(false)
	return err == nil
}

// filters are the two socket filters, assembled once.
var filters = [2]func() ([]unix.SockFilter, error){
	sync.OnceValues(func() ([]unix.SockFilter, error) { return socketFilter(false) }),
	sync.OnceValues(func() ([]unix.SockFilter, error) { return socketFilter(true) }),
}

// installSocketFilter installs socketFilter(denyUnix) on the calling thread (which
// then execs; the filter survives execve). no_new_privs must be set.
func installSocketFilter(denyUnix bool) error {
	i := 0
	if denyUnix {
		i = 1
	}
	prog, err := filters[i]()
	if err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_SECCOMP): %w", err)
	}
	runtime.KeepAlive(prog)
	return nil
}
