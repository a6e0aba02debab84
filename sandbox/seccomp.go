//go:build linux

// The seccomp filter of every stage: Linux only (ruleset_other.go elsewhere).

package sandbox

import (
	"fmt"
	"maps"
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
// and whether it may create AF_UNIX sockets. thread selects the filter of
// the restricted thread that starts such stages instead: the same
// allowlist but for clone3, which the thread's own fork needs (it places
// the stage in the call's cgroup with CLONE_INTO_CGROUP); each stage then
// adds stageTail, so that what it may call is exactly the stage filter.
type filterKind struct {
	network, unixSockets, thread bool
}

// Return values of the filter.
const (
	retAllow  = unix.SECCOMP_RET_ALLOW
	retDeny   = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	retEACCES = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
	retENOSYS = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
)

// syscallFilter returns the stage allowlist as a BPF program, or an
// error on an architecture without an entry in auditArch. Every system
// call number meets one binary search over the numbers with an answer
// (nrRanges), whose leaves share their answers: the kernel checks,
// converts and compiles the program and walks it for every system call
// number to precompute its answers each time a stage installs it, so its
// length and the depth of its search are part of every stage's start
// (BenchmarkFilterInstall).
func syscallFilter(k filterKind) ([]unix.SockFilter, error) {
	arch, ok := auditArch[runtime.GOARCH]
	if !ok {
		return nil, fmt.Errorf("no seccomp filter for %s: set MCP_SHELL_SANDBOX_BEST_EFFORT=1 to run without one", runtime.GOARCH)
	}
	var a bpfAsm
	a.ld(offArch)
	a.jump(unix.BPF_JEQ, arch, "native", "")
	a.ret(retENOSYS) // a foreign ABI (i386 compat) is refused
	a.label("native")
	a.ld(offNr)
	a.jump(unix.BPF_JGE, x32Bit, "", "special")
	a.ret(retDeny)
	a.label("special")
	a.ranges(nrRanges(k.thread), 0)
	a.label("allow")
	a.ret(retAllow)
	a.label("deny")
	a.ret(retDeny)

	a.label("enosys")
	a.ret(retENOSYS)
	a.label("socket")
	a.ld(offArg0)
	if k.unixSockets {
		a.jump(unix.BPF_JEQ, unix.AF_UNIX, "socket-allow", "")
	}
	if k.network {
		a.jump(unix.BPF_JEQ, unix.AF_INET, "inet", "")
		a.jump(unix.BPF_JEQ, unix.AF_INET6, "inet", "")
		a.jump(unix.BPF_JEQ, unix.AF_NETLINK, "netlink", "")
	}
	a.label("socket-eacces")
	a.ret(retEACCES)
	if k.network {
		a.label("inet")
		a.ld(offArg2)
		a.jump(unix.BPF_JEQ, 0, "inet-type", "")
		a.jump(unix.BPF_JEQ, unix.IPPROTO_TCP, "inet-type", "")
		a.jump(unix.BPF_JEQ, unix.IPPROTO_UDP, "inet-type", "socket-eacces2")
		a.label("inet-type")
		a.ld(offArg1)
		a.and(sockTypeMask)
		a.jump(unix.BPF_JEQ, unix.SOCK_STREAM, "socket-allow", "")
		a.jump(unix.BPF_JEQ, unix.SOCK_DGRAM, "socket-allow", "socket-eacces2")
		a.label("netlink")
		a.ld(offArg2)
		a.jump(unix.BPF_JEQ, netlinkRoute, "socket-allow", "socket-eacces2")
		a.label("socket-eacces2")
		a.ret(retEACCES)
	}
	a.label("socket-allow")
	a.ret(retAllow)
	a.label("socketpair")
	a.ld(offArg0)
	a.jump(unix.BPF_JEQ, unix.AF_UNIX, "", "socketpair-eacces")
	a.ret(retAllow)
	a.label("socketpair-eacces")
	a.ret(retEACCES)
	a.label("clone")
	a.ld(offArg0)
	a.and(namespaceFlags)
	a.jump(unix.BPF_JEQ, 0, "", "clone-deny")
	a.ret(retAllow)
	a.label("clone-deny")
	a.ret(retDeny)
	a.label("personality")
	a.ld(offArg0)
	for _, p := range personalities {
		a.jump(unix.BPF_JEQ, p, "personality-allow", "")
	}
	a.ret(retDeny)
	a.label("personality-allow")
	a.ret(retAllow)
	return a.assemble()
}

// nrRange is an inclusive range of system call numbers and the label
// that answers for them.
type nrRange struct {
	lo, hi uint32
	to     string
}

// nrRanges is every system call number the filter does not refuse
// outright, as sorted, disjoint ranges with their labels: stageSyscalls
// ("allow"), enosysSyscalls ("enosys"; for a thread's filter clone3 is
// allowed) and the calls checked by their arguments (each its own label). The search over them is the first
// thing every system call meets, so the kernel's precomputed answer for
// each number (and every stage's own calls) passes a handful of
// comparisons.
func nrRanges(thread bool) []nrRange {
	to := map[uint32]string{}
	for _, g := range stageSyscalls {
		for _, nr := range g.nrs {
			to[uint32(nr)] = "allow"
		}
	}
	for _, nr := range enosysSyscalls {
		to[uint32(nr)] = "enosys"
	}
	if thread {
		to[unix.SYS_CLONE3] = "allow"
	}
	for nr, label := range map[uint32]string{unix.SYS_SOCKET: "socket", unix.SYS_SOCKETPAIR: "socketpair", unix.SYS_CLONE: "clone", unix.SYS_PERSONALITY: "personality"} {
		to[nr] = label
	}
	nrs := slices.Sorted(maps.Keys(to))
	var out []nrRange
	for _, n := range nrs {
		if k := len(out); k > 0 && out[k-1].hi+1 == n && out[k-1].to == to[n] {
			out[k-1].hi = n
			continue
		}
		out = append(out, nrRange{n, n, to[n]})
	}
	return out
}

// bpfAsm assembles a classic BPF program whose conditional jumps go
// forward to labels ("" is the next instruction), at most 255
// instructions ahead.
type bpfAsm struct {
	prog   []unix.SockFilter
	jumps  []bpfJump
	labels map[string]int
	anon   int
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

// jump compares the accumulator with k (op: BPF_JEQ, BPF_JGE) and goes
// to jt when it holds, else to jf.
func (a *bpfAsm) jump(op uint16, k uint32, jt, jf string) {
	a.jumps = append(a.jumps, bpfJump{at: len(a.prog), jt: jt, jf: jf})
	a.emit(unix.SockFilter{Code: unix.BPF_JMP | op | unix.BPF_K, K: k})
}

// ranges jumps, for the system call number in the accumulator, to the
// label of the range of rs it lies in, or to "deny" when it lies in none.
// The number is known to be at least lower and below the range that
// follows rs (the search established both), and rs are sorted and
// disjoint, so a leaf compares the number with its own ends only where
// another answer lies beyond them: about log2(len(rs)) comparisons per
// system call.
func (a *bpfAsm) ranges(rs []nrRange, lower uint32, next ...nrRange) {
	if len(rs) == 1 {
		r := rs[0]
		if r.lo > lower {
			a.jump(unix.BPF_JGE, r.lo, "", "deny")
		}
		if len(next) > 0 && next[0].lo == r.hi+1 {
			a.jump(unix.BPF_JGE, 0, r.to, r.to) // the next range begins right above
			return
		}
		a.jump(unix.BPF_JGE, r.hi+1, "deny", r.to)
		return
	}
	mid := len(rs) / 2
	upper := a.fresh()
	a.jump(unix.BPF_JGE, rs[mid].lo, upper, "")
	a.ranges(rs[:mid], lower, rs[mid])
	a.label(upper)
	a.ranges(rs[mid:], rs[mid].lo, next...)
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

// assemble resolves the jump offsets (instructions skipped, forward
// only, at most 255).
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

// stageTail is the filter a stage installs on top of its thread's
// (filterKind.thread): clone3 answered ENOSYS, everything else left to
// the thread's filter. The kernel applies the most restrictive answer of
// every filter a task has, so the stage gets the stage filter's answers
// while converting and compiling four instructions instead of the whole
// allowlist, which every stage of a thread shares.
var stageTail = func() []unix.SockFilter {
	var a bpfAsm
	a.ld(offNr)
	a.jump(unix.BPF_JEQ, unix.SYS_CLONE3, "", "allow")
	a.ret(retENOSYS)
	a.label("allow")
	a.ret(retAllow)
	prog, err := a.assemble()
	if err != nil {
		panic(err) // fixed jumps within four instructions
	}
	return prog
}()

// installFilter installs the filter of kind k on the calling thread
// (which then execs, or, for a restricted thread, forks its stages; the
// filter survives execve and is inherited). no_new_privs must be set.
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
