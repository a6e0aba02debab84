//go:build linux

// The seccomp filter of every stage: Linux only (ruleset_other.go elsewhere).

package sandbox

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Every confined stage runs under a seccomp allowlist (stageSyscalls):
// the calls its work needs, with clone checked for namespace flags,
// personality for its value, clone3 and io_uring answered ENOSYS, and
// socket(2) and socketpair(2) checked by family. Landlock (up to ABI 11)
// controls bind(2) and connect(2) of plain TCP sockets only: an
// IPPROTO_MPTCP or IPPROTO_SCTP socket, a raw or packet socket, UDP
// before ABI 10, TCP Fast Open (sendto with MSG_FASTOPEN connects
// without connect(2)) and io_uring's sockets reach the network
// unchecked. So a stage without the network may create no socket but
// socketpair(AF_UNIX) and, from ABI 9 (where Landlock restricts
// connecting to pathname UNIX sockets), AF_UNIX sockets; a stage with the
// network may also create AF_INET/AF_INET6 sockets of type SOCK_STREAM
// or SOCK_DGRAM with protocol 0, IPPROTO_TCP or IPPROTO_UDP, and
// AF_NETLINK NETLINK_ROUTE sockets (glibc's getaddrinfo asks the kernel
// for the host's addresses through one; changing routes needs
// CAP_NET_ADMIN, which no stage has). Every other socket is refused with
// EACCES, every call not listed with EPERM.

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
	offArg0 = 16 // socket: domain; clone: flags; personality: persona
	offArg1 = 24 // type
	offArg2 = 32 // protocol
)

// sockTypeMask drops SOCK_NONBLOCK and SOCK_CLOEXEC from the type.
const sockTypeMask = 0xf

// netlinkRoute is NETLINK_ROUTE (linux/netlink.h).
const netlinkRoute = 0

// filterKind selects a stage's filter: whether it may use the network
// and whether it may create AF_UNIX sockets.
type filterKind struct {
	network, unixSockets bool
}

// syscallFilter returns the stage allowlist as a BPF program, or an
// error on an architecture without an entry in auditArch.
func syscallFilter(k filterKind) ([]unix.SockFilter, error) {
	arch, ok := auditArch[runtime.GOARCH]
	if !ok {
		return nil, fmt.Errorf("no seccomp filter for %s: set MCP_SHELL_SANDBOX_BEST_EFFORT=1 to run without one", runtime.GOARCH)
	}
	var a bpfAsm
	a.ld(offArch)
	a.branch(unix.BPF_JEQ, arch, "native", "enosys") // a foreign ABI (i386 compat) is refused
	a.label("native")
	a.ld(offNr)
	a.branch(unix.BPF_JGE, x32Bit, "deny", "special")
	a.label("special")
	for _, nr := range enosysSyscalls {
		a.branch(unix.BPF_JEQ, uint32(nr), "enosys", "")
	}
	a.branch(unix.BPF_JEQ, unix.SYS_SOCKET, "socket", "")
	a.branch(unix.BPF_JEQ, unix.SYS_SOCKETPAIR, "socketpair", "")
	a.branch(unix.BPF_JEQ, unix.SYS_CLONE, "clone", "")
	a.branch(unix.BPF_JEQ, unix.SYS_PERSONALITY, "personality", "")
	a.ranges(allowedRanges(), "allow", "deny")

	a.label("socket")
	a.ld(offArg0)
	if k.unixSockets {
		a.branch(unix.BPF_JEQ, unix.AF_UNIX, "allow", "")
	}
	if k.network {
		a.branch(unix.BPF_JEQ, unix.AF_INET, "inet", "")
		a.branch(unix.BPF_JEQ, unix.AF_INET6, "inet", "")
		a.branch(unix.BPF_JEQ, unix.AF_NETLINK, "netlink", "")
	}
	a.jumpTo("eacces")
	if k.network {
		a.label("inet")
		a.ld(offArg2)
		a.branch(unix.BPF_JEQ, 0, "inet-type", "")
		a.branch(unix.BPF_JEQ, unix.IPPROTO_TCP, "inet-type", "")
		a.branch(unix.BPF_JEQ, unix.IPPROTO_UDP, "inet-type", "eacces")
		a.label("inet-type")
		a.ld(offArg1)
		a.and(sockTypeMask)
		a.branch(unix.BPF_JEQ, unix.SOCK_STREAM, "allow", "")
		a.branch(unix.BPF_JEQ, unix.SOCK_DGRAM, "allow", "eacces")
		a.label("netlink")
		a.ld(offArg2)
		a.branch(unix.BPF_JEQ, netlinkRoute, "allow", "eacces")
	}
	a.label("socketpair")
	a.ld(offArg0)
	a.branch(unix.BPF_JEQ, unix.AF_UNIX, "allow", "eacces")
	a.label("clone")
	a.ld(offArg0)
	a.and(namespaceFlags)
	a.branch(unix.BPF_JEQ, 0, "allow", "deny")
	a.label("personality")
	a.ld(offArg0)
	for _, p := range personalities {
		a.branch(unix.BPF_JEQ, p, "allow", "")
	}
	a.jumpTo("deny")

	a.label("allow")
	a.ret(unix.SECCOMP_RET_ALLOW)
	a.label("deny")
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM))
	a.label("eacces")
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES))
	a.label("enosys")
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS))
	return a.assemble()
}

// nrRange is an inclusive range of allowed system call numbers.
type nrRange struct{ lo, hi uint32 }

// allowedRanges merges stageSyscalls into sorted, disjoint ranges.
func allowedRanges() []nrRange {
	var nrs []uint32
	for _, g := range stageSyscalls {
		for _, nr := range g.nrs {
			nrs = append(nrs, uint32(nr))
		}
	}
	slices.Sort(nrs)
	nrs = slices.Compact(nrs)
	var out []nrRange
	for _, n := range nrs {
		if k := len(out); k > 0 && out[k-1].hi+1 == n {
			out[k-1].hi = n
			continue
		}
		out = append(out, nrRange{n, n})
	}
	return out
}

// bpfAsm assembles a classic BPF program whose jumps go to labels ("" is
// the next instruction). Conditional jumps reach only the next two
// instructions; branch pairs them with unconditional jumps (BPF_JA,
// 32-bit offsets), so a label may be anywhere ahead.
type bpfAsm struct {
	prog   []unix.SockFilter
	jumps  []bpfJump // unconditional jumps to resolve
	labels map[string]int
	anon   int
}

type bpfJump struct {
	at int
	to string
}

func (a *bpfAsm) emit(f unix.SockFilter) { a.prog = append(a.prog, f) }

func (a *bpfAsm) ld(off uint32) {
	a.emit(unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off})
}

func (a *bpfAsm) and(k uint32) {
	a.emit(unix.SockFilter{Code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, K: k})
}

func (a *bpfAsm) ret(k uint32) { a.emit(unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k}) }

// jumpTo jumps to label unconditionally.
func (a *bpfAsm) jumpTo(label string) {
	a.jumps = append(a.jumps, bpfJump{at: len(a.prog), to: label})
	a.emit(unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JA})
}

// branch compares the accumulator with k (op: BPF_JEQ, BPF_JGE) and goes
// to yes when it holds, else to no ("" for either: the instruction after
// the branch).
func (a *bpfAsm) branch(op uint16, k uint32, yes, no string) {
	next := a.fresh()
	if yes == "" {
		yes = next
	}
	if no == "" {
		no = next
	}
	a.emit(unix.SockFilter{Code: unix.BPF_JMP | op | unix.BPF_K, K: k, Jt: 0, Jf: 1})
	a.jumpTo(yes)
	a.jumpTo(no)
	a.label(next)
}

// ranges goes to in when the accumulator lies in one of rs (sorted,
// disjoint), else to out, by binary search: about log2(len(rs))
// comparisons per system call.
func (a *bpfAsm) ranges(rs []nrRange, in, out string) {
	if len(rs) == 0 {
		a.jumpTo(out)
		return
	}
	if len(rs) == 1 {
		above := a.fresh()
		a.branch(unix.BPF_JGE, rs[0].lo, above, out)
		a.label(above)
		a.branch(unix.BPF_JGE, rs[0].hi+1, out, in)
		return
	}
	mid := len(rs) / 2
	upper := a.fresh()
	a.branch(unix.BPF_JGE, rs[mid].lo, upper, "")
	a.ranges(rs[:mid], in, out)
	a.label(upper)
	a.ranges(rs[mid:], in, out)
}

// fresh returns a label name no caller uses.
func (a *bpfAsm) fresh() string {
	a.anon++
	return "." + strconv.Itoa(a.anon)
}

func (a *bpfAsm) label(name string) {
	if a.labels == nil {
		a.labels = map[string]int{}
	}
	a.labels[name] = len(a.prog)
}

// assemble resolves the unconditional jumps (forward only).
func (a *bpfAsm) assemble() ([]unix.SockFilter, error) {
	for _, j := range a.jumps {
		to, ok := a.labels[j.to]
		if !ok || to <= j.at {
			return nil, fmt.Errorf("bpf: bad jump from %d to %q", j.at, j.to)
		}
		a.prog[j.at].K = uint32(to - j.at - 1)
	}
	if len(a.prog) > unix.BPF_MAXINSNS {
		return nil, fmt.Errorf("bpf: %d instructions, more than %d", len(a.prog), unix.BPF_MAXINSNS)
	}
	return a.prog, nil
}

// filterAvailable reports whether this architecture has the seccomp
// filter (Probe refuses a missing one unless BestEffort).
func filterAvailable() bool {
	_, err := syscallFilter(filterKind{})
	return err == nil
}

// filters are the stage filters, assembled once per kind.
var filters sync.Map // filterKind → []unix.SockFilter

// stageFilter returns the filter of kind k.
func stageFilter(k filterKind) ([]unix.SockFilter, error) {
	if f, ok := filters.Load(k); ok {
		return f.([]unix.SockFilter), nil
	}
	prog, err := syscallFilter(k)
	if err != nil {
		return nil, err
	}
	filters.Store(k, prog)
	return prog, nil
}

// installFilter installs the filter of kind k on the calling thread
// (which then execs; the filter survives execve). no_new_privs must be
// set.
func installFilter(k filterKind) error {
	prog, err := stageFilter(k)
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
