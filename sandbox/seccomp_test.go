//go:build linux

// The seccomp filter's answers, read by an interpreter of the classic BPF
// it is assembled from: Linux only, like the filter.

package sandbox

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// seccompData is the part of struct seccomp_data the filter reads.
type seccompData struct {
	nr, arch uint32
	args     [3]uint64
}

// runFilter interprets prog (the instructions bpfAsm emits) on d and
// returns its answer; a program that runs off its end or jumps outside it
// fails the test.
func runFilter(t *testing.T, prog []unix.SockFilter, d seccompData) uint32 {
	t.Helper()
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			switch in.K {
			case offNr:
				acc = d.nr
			case offArch:
				acc = d.arch
			case offArg0, offArg1, offArg2:
				acc = uint32(d.args[(in.K-offArg0)/8]) // the low half, little-endian
			default:
				t.Fatalf("load of offset %d at %d", in.K, pc)
			}
		case unix.BPF_ALU | unix.BPF_AND | unix.BPF_K:
			acc &= in.K
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K:
			holds := acc == in.K
			if in.Code&unix.BPF_JGE == unix.BPF_JGE {
				holds = acc >= in.K
			}
			if holds {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case unix.BPF_RET | unix.BPF_K:
			return in.K
		default:
			t.Fatalf("instruction %#x at %d", in.Code, pc)
		}
	}
	t.Fatalf("the filter ran off its end for %+v", d)
	return 0
}

// TestFilterAnswers checks every system call number the filter can see,
// for each kind of stage, against the allowlist it is built from
// (stageSyscalls, enosysSyscalls), and the calls it checks by argument
// against the rules seccomp.go states.
func TestFilterAnswers(t *testing.T) {
	arch, ok := auditArch[runtime.GOARCH]
	if !ok {
		t.Skipf("no seccomp filter for %s", runtime.GOARCH)
	}
	allowed := map[uint32]bool{}
	for _, g := range stageSyscalls {
		for _, nr := range g.nrs {
			allowed[uint32(nr)] = true
		}
	}
	special := []uint32{unix.SYS_SOCKET, unix.SYS_SOCKETPAIR, unix.SYS_CLONE, unix.SYS_PERSONALITY}
	kinds := []filterKind{{}, {unixSockets: true}, {network: true}, {network: true, unixSockets: true}}
	for _, k := range kinds {
		t.Run(fmt.Sprintf("network=%v,unix=%v", k.network, k.unixSockets), func(t *testing.T) {
			stage, err := syscallFilter(k)
			if err != nil {
				t.Fatal(err)
			}
			tk := k
			tk.thread = true
			thread, err := syscallFilter(tk)
			if err != nil {
				t.Fatal(err)
			}
			// A stage started from a restricted thread runs under the
			// thread's filter and stageTail: it must get the stage
			// filter's answer for every call; the thread itself may
			// call clone3.
			if got := runFilter(t, thread, seccompData{nr: unix.SYS_CLONE3, arch: arch}); got != retAllow {
				t.Errorf("clone3 on the thread: answer %#x, want allowed", got)
			}
			answers := func(d seccompData) (alone, onThread uint32) {
				return runFilter(t, stage, d), stacked(runFilter(t, stageTail, d), runFilter(t, thread, d))
			}
			for nr := uint32(0); nr < 1024; nr++ {
				if slices.Contains(special, nr) {
					continue
				}
				want := uint32(retDeny)
				switch {
				case slices.Contains(enosysSyscalls, uintptr(nr)):
					want = retENOSYS
				case allowed[nr]:
					want = retAllow
				}
				for _, c := range []struct {
					what string
					d    seccompData
					want uint32
				}{
					{"", seccompData{nr: nr, arch: arch}, want},
					{"x32 ", seccompData{nr: nr | x32Bit, arch: arch}, retDeny},
					{"another ABI's ", seccompData{nr: nr, arch: arch ^ 1}, retENOSYS},
				} {
					alone, onThread := answers(c.d)
					if alone != c.want || onThread != c.want {
						t.Errorf("%ssystem call %d: answer %#x, on a thread's filter %#x, want %#x", c.what, nr, alone, onThread, c.want)
					}
				}
			}
			for _, c := range argumentCases(k) {
				alone, onThread := answers(seccompData{nr: c.nr, arch: arch, args: c.args})
				if alone != c.want || onThread != c.want {
					t.Errorf("%s: answer %#x, on a thread's filter %#x, want %#x", c.name, alone, onThread, c.want)
				}
			}

		})
	}
}

// stacked is the answer of a task with two filters, latest answering
// first: the more restrictive action (the lower as a signed number:
// SECCOMP_RET_KILL_PROCESS first, SECCOMP_RET_ALLOW last), the latest
// filter's on a tie (kernel/seccomp.c seccomp_run_filters).
func stacked(latest, earlier uint32) uint32 {
	if int32(earlier&unix.SECCOMP_RET_ACTION_FULL) < int32(latest&unix.SECCOMP_RET_ACTION_FULL) {
		return earlier
	}
	return latest
}

type argumentCase struct {
	name string
	nr   uint32
	args [3]uint64
	want uint32
}

// argumentCases are the calls the filter decides by their arguments, with
// the answer a stage of kind k gets.
func argumentCases(k filterKind) []argumentCase {
	allowIf := func(ok bool, otherwise uint32) uint32 {
		if ok {
			return retAllow
		}
		return otherwise
	}
	return []argumentCase{
		{"socket(AF_UNIX, SOCK_STREAM)", unix.SYS_SOCKET, [3]uint64{unix.AF_UNIX, unix.SOCK_STREAM, 0}, allowIf(k.unixSockets, retEACCES)},
		{"socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, 0)", unix.SYS_SOCKET, [3]uint64{unix.AF_INET, unix.SOCK_STREAM | unix.SOCK_CLOEXEC, 0}, allowIf(k.network, retEACCES)},
		{"socket(AF_INET6, SOCK_DGRAM, IPPROTO_UDP)", unix.SYS_SOCKET, [3]uint64{unix.AF_INET6, unix.SOCK_DGRAM, unix.IPPROTO_UDP}, allowIf(k.network, retEACCES)},
		{"socket(AF_INET, SOCK_STREAM, IPPROTO_TCP)", unix.SYS_SOCKET, [3]uint64{unix.AF_INET, unix.SOCK_STREAM, unix.IPPROTO_TCP}, allowIf(k.network, retEACCES)},
		{"socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP)", unix.SYS_SOCKET, [3]uint64{unix.AF_INET, unix.SOCK_STREAM, unix.IPPROTO_MPTCP}, retEACCES},
		{"socket(AF_INET, SOCK_RAW, IPPROTO_ICMP)", unix.SYS_SOCKET, [3]uint64{unix.AF_INET, unix.SOCK_RAW, unix.IPPROTO_ICMP}, retEACCES},
		{"socket(AF_INET, SOCK_RAW, 0)", unix.SYS_SOCKET, [3]uint64{unix.AF_INET, unix.SOCK_RAW, 0}, retEACCES},
		{"socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)", unix.SYS_SOCKET, [3]uint64{unix.AF_NETLINK, unix.SOCK_RAW, netlinkRoute}, allowIf(k.network, retEACCES)},
		{"socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT)", unix.SYS_SOCKET, [3]uint64{unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_AUDIT}, retEACCES},
		{"socket(AF_PACKET, SOCK_RAW)", unix.SYS_SOCKET, [3]uint64{unix.AF_PACKET, unix.SOCK_RAW, 0}, retEACCES},
		{"socket(AF_VSOCK, SOCK_STREAM)", unix.SYS_SOCKET, [3]uint64{unix.AF_VSOCK, unix.SOCK_STREAM, 0}, retEACCES},
		{"socketpair(AF_UNIX)", unix.SYS_SOCKETPAIR, [3]uint64{unix.AF_UNIX, unix.SOCK_STREAM, 0}, retAllow},
		{"socketpair(AF_INET)", unix.SYS_SOCKETPAIR, [3]uint64{unix.AF_INET, unix.SOCK_STREAM, 0}, retEACCES},
		{"clone(SIGCHLD)", unix.SYS_CLONE, [3]uint64{uint64(unix.SIGCHLD)}, retAllow},
		{"clone(CLONE_VM|CLONE_VFORK)", unix.SYS_CLONE, [3]uint64{unix.CLONE_VM | unix.CLONE_VFORK | uint64(unix.SIGCHLD)}, retAllow},
		{"clone(CLONE_NEWUSER)", unix.SYS_CLONE, [3]uint64{unix.CLONE_NEWUSER}, retDeny},
		{"clone(CLONE_NEWNET)", unix.SYS_CLONE, [3]uint64{unix.CLONE_NEWNET | uint64(unix.SIGCHLD)}, retDeny},
		{"personality(0)", unix.SYS_PERSONALITY, [3]uint64{0}, retAllow},
		{"personality(0xffffffff)", unix.SYS_PERSONALITY, [3]uint64{0xffffffff}, retAllow},
		{"personality(ADDR_NO_RANDOMIZE)", unix.SYS_PERSONALITY, [3]uint64{0x0040000}, retDeny},
	}
}

// BenchmarkFilterInstall is what the kernel does per stage for its
// seccomp filter (checking, converting and compiling it, precomputing
// its answers), against a one-instruction filter: the fixed cost and the
// cost per instruction.
func BenchmarkFilterInstall(b *testing.B) {
	full, err := stageFilter(filterKind{})
	if err != nil {
		b.Skip(err)
	}
	one := []unix.SockFilter{{Code: unix.BPF_RET | unix.BPF_K, K: retAllow}}
	for _, bc := range []struct {
		name string
		prog []unix.SockFilter
	}{{"1-instruction", one}, {fmt.Sprintf("stage-%d-instructions", len(full)), full}} {
		b.Run(bc.name, func(b *testing.B) {
			fprog := unix.SockFprog{Len: uint16(len(bc.prog)), Filter: &bc.prog[0]}
			b.StopTimer()
			for i := 0; i < b.N; i += installsPerThread {
				done := make(chan error)
				go func(n int) {
					runtime.LockOSThread() // never unlocked: the filtered thread ends with this goroutine
					if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
						done <- err
						return
					}
					b.StartTimer()
					defer b.StopTimer()
					for range n {
						if _, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog))); e != 0 {
							done <- e
							return
						}
					}
					done <- nil
				}(min(installsPerThread, b.N-i))
				if err := <-done; err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// installsPerThread bounds the filters BenchmarkFilterInstall stacks on
// one thread (the kernel refuses more than 32768 instructions on one
// path).
const installsPerThread = 100
