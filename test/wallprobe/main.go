//go:build linux

// Command wallprobe makes one plain system call per way out of a stage the
// kernel sandbox must close, and prints one line per class: "CLASS blocked
// DETAIL" or "CLASS OPEN DETAIL". The wall tests (test/wall) build it and
// run it as a leaf, from a make recipe, an npm test script and a go test.
//
// Usage: wallprobe TARGETS-FILE [network | WORD...]
//
// Words other than "network" are ignored: they are the fetch words
// ("install", "get") a route passes to a script or a test binary to show
// that they grant the stage nothing. With "network" the stage is one its family gives the network (npm
// install's script): the classes that network is (TCP, UDP, the routing
// netlink socket) print "CLASS allowed network stage" instead of being
// tried, and every other class must still be blocked, the pathname UNIX
// socket outside among them.
//
// The targets file holds lines "NAME VALUE": server PID, thread TID (one
// per thread), tcp PORT (a loopback listener the test counts connections
// on), unix PATH (a listening socket outside the allowed directories),
// file PATH (a canary outside them), cgroup PATH (the cgroup2 root).
package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

type targets struct {
	server  int
	threads []int
	port    int
	unix    string
	file    string
	cgroup  string
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: wallprobe TARGETS-FILE [network | WORD...]")
		os.Exit(2)
	}
	network := len(os.Args) == 3 && os.Args[2] == "network"
	t, err := readTargets(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "wallprobe:", err)
		os.Exit(2)
	}
	for _, c := range classes {
		if network && networkClasses[c.name] {
			fmt.Printf("%s allowed network stage\n", c.name)
			continue
		}
		open, detail := c.try(t)
		verdict := "blocked"
		if open {
			verdict = "OPEN"
		}
		fmt.Printf("%s %s %s\n", c.name, verdict, detail)
	}
}

func readTargets(path string) (targets, error) {
	var t targets
	f, err := os.Open(path)
	if err != nil {
		return t, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, _ := strings.Cut(sc.Text(), " ")
		n, _ := strconv.Atoi(value)
		switch name {
		case "server":
			t.server = n
		case "thread":
			t.threads = append(t.threads, n)
		case "tcp":
			t.port = n
		case "unix":
			t.unix = value
		case "file":
			t.file = value
		case "cgroup":
			t.cgroup = value
		}
	}
	return t, sc.Err()
}

// class is one way out: try reports whether it got through, and how.
type class struct {
	name string
	try  func(targets) (open bool, detail string)
}

// networkClasses are what a stage with the network may do: the network
// grant is TCP, UDP and the routing netlink socket (sandbox/seccomp.go).
var networkClasses = map[string]bool{"tcp-fast-open": true, "udp-socket": true, "netlink-socket": true}

var classes = []class{
	{"signal-server", signalServer},
	{"ptrace-server", ptraceServer},
	{"read-server-memory", readServerMemory},
	{"read-server-environ", readServerEnviron},
	{"tcp-fast-open", tcpFastOpen},
	{"io-uring", ioUring},
	{"mptcp-socket", socketOf(unix.AF_INET, unix.SOCK_STREAM, 262)},
	{"udp-socket", socketOf(unix.AF_INET, unix.SOCK_DGRAM, 0)},
	{"unix-socket-outside", unixOutside},
	{"packet-socket", socketOf(unix.AF_PACKET, unix.SOCK_RAW, 0)},
	{"netlink-socket", socketOf(unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_ROUTE)},
	{"vsock-socket", socketOf(unix.AF_VSOCK, unix.SOCK_STREAM, 0)},
	{"capabilities", capabilities},
	{"leave-cgroup", leaveCgroup},
	{"bpf", rawCall("bpf", unix.SYS_BPF, unix.BPF_MAP_CREATE, 0, 0)},
	{"perf-event-open", rawCall("perf_event_open", unix.SYS_PERF_EVENT_OPEN, 0, 0, ^uintptr(0), ^uintptr(0), 0)},
	{"userfaultfd", rawCall("userfaultfd", unix.SYS_USERFAULTFD, 0)},
	{"keyring", rawCall("keyctl", unix.SYS_KEYCTL, unix.KEYCTL_GET_KEYRING_ID, uintptr(^uint32(1)), 0)},
	{"mount", mountTmpfs},
	{"user-namespace", rawCall("unshare", unix.SYS_UNSHARE, unix.CLONE_NEWUSER)},
	{"write-outside", writeOutside},
	{"immutable-flag-outside", immutableOutside},
	{"timestamps-outside", timestampsOutside},
	{"timestamps-outside-by-dotdot", timestampsByDotdot},
	{"mode-outside", modeOutside},
	// The compat ABIs, numbers beyond the table and clone3 in each form:
	// every way around the number search the filter is.
	{"i386-abi", i386Call},
	{"x32-abi", x32Calls},
	{"unlisted-numbers", unlistedNumbers},
	{"clone3-plain", clone3Plain},
	{"clone3-cgroup-from-thread", fromNewThread(leaveCgroup)},
	{"clone-user-namespace", cloneNewUser},
	{"personality-read-implies-exec", personalityReadImpliesExec},
	{"pidfd-getfd-server", pidfdGetfdServer},
	{"cgroup-procs-write", cgroupProcsWrite},
	{"icmp-socket", socketOf(unix.AF_INET, unix.SOCK_DGRAM, unix.IPPROTO_ICMP)},
	{"inet-raw-socket", socketOf(unix.AF_INET, unix.SOCK_RAW, unix.IPPROTO_ICMP)},
	{"sctp-socket", socketOf(unix.AF_INET, unix.SOCK_STREAM, 132)},
	{"inet6-mptcp-socket", socketOf(unix.AF_INET6, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 262)},
	{"alg-socket", socketOf(unix.AF_ALG, unix.SOCK_SEQPACKET, 0)},
	{"xdp-socket", socketOf(unix.AF_XDP, unix.SOCK_RAW, 0)},
	{"netlink-sock-diag-socket", socketOf(unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_SOCK_DIAG)},
	{"netlink-uevent-socket", socketOf(unix.AF_NETLINK, unix.SOCK_DGRAM, unix.NETLINK_KOBJECT_UEVENT)},
	{"socketpair-inet", socketpairOf(unix.AF_INET, unix.SOCK_STREAM, 0)},
}

// signalServer sends signal 0 (the existence check the attack used to
// find the thread) to the server and each of its threads.
func signalServer(t targets) (bool, string) {
	for _, tid := range append([]int{t.server}, t.threads...) {
		if err := unix.Kill(tid, 0); err == nil {
			return true, fmt.Sprintf("kill(%d, 0) succeeded", tid)
		}
	}
	for _, tid := range t.threads {
		if err := unix.Tgkill(t.server, tid, 0); err == nil {
			return true, fmt.Sprintf("tgkill(%d, %d, 0) succeeded", t.server, tid)
		}
	}
	return false, fmt.Sprintf("%d threads unreachable", len(t.threads)+1)
}

func ptraceServer(t targets) (bool, string) {
	for _, tid := range append([]int{t.server}, t.threads...) {
		if _, _, e := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_SEIZE, uintptr(tid), 0, 0, 0, 0); e == 0 {
			unix.PtraceDetach(tid)
			return true, fmt.Sprintf("PTRACE_SEIZE of %d succeeded", tid)
		}
	}
	return false, "every PTRACE_SEIZE refused"
}

func readServerMemory(t targets) (bool, string) {
	buf := make([]byte, 16)
	local := []unix.Iovec{{Base: &buf[0]}}
	local[0].SetLen(len(buf))
	for _, pid := range append([]int{t.server}, t.threads...) {
		// The start of the text segment of a non-PIE Go binary.
		remote := []unix.RemoteIovec{{Base: 0x401000, Len: len(buf)}}
		if _, err := unix.ProcessVMReadv(pid, local, remote, 0); err == nil {
			return true, fmt.Sprintf("process_vm_readv of %d succeeded", pid)
		}
	}
	return false, "process_vm_readv refused"
}

func readServerEnviron(t targets) (bool, string) {
	paths := []string{fmt.Sprintf("/proc/%d/environ", t.server)}
	for _, tid := range t.threads {
		paths = append(paths, fmt.Sprintf("/proc/%d/task/%d/environ", t.server, tid))
	}
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil && len(b) > 0 {
			return true, "read " + p
		}
	}
	return false, "no environ readable"
}

// tcpFastOpen connects with sendto(MSG_FASTOPEN), which never calls
// connect(2).
func tcpFastOpen(t targets) (bool, string) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err != nil {
		return false, "socket: " + err.Error()
	}
	defer unix.Close(fd)
	sa := &unix.SockaddrInet4{Port: t.port, Addr: [4]byte{127, 0, 0, 1}}
	if err := unix.Sendto(fd, []byte("x"), unix.MSG_FASTOPEN, sa); err != nil {
		return false, "sendto(MSG_FASTOPEN): " + err.Error()
	}
	return true, "sendto(MSG_FASTOPEN) connected"
}

func ioUring(targets) (bool, string) {
	params := make([]byte, 120) // struct io_uring_params
	fd, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 4, uintptr(unsafe.Pointer(&params[0])), 0)
	if e != 0 {
		return false, "io_uring_setup: " + e.Error()
	}
	unix.Close(int(fd))
	return true, "io_uring_setup succeeded"
}

func socketOf(domain, typ, proto int) func(targets) (bool, string) {
	return func(targets) (bool, string) {
		fd, err := unix.Socket(domain, typ, proto)
		if err != nil {
			return false, "socket: " + err.Error()
		}
		unix.Close(fd)
		return true, fmt.Sprintf("socket(%d, %d, %d) created", domain, typ, proto)
	}
}

func unixOutside(t targets) (bool, string) {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		return false, "socket: " + err.Error()
	}
	defer unix.Close(fd)
	if err := unix.Connect(fd, &unix.SockaddrUnix{Name: t.unix}); err != nil {
		return false, "connect: " + err.Error()
	}
	return true, "connected to " + t.unix
}

// capabilities: no capability in any set, none to gain (no_new_privs),
// and, for uid 0, an empty bounding set (an unprivileged process cannot
// empty its own, and no_new_privs keeps it from using it).
func capabilities(targets) (bool, string) {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return true, "capget: " + err.Error()
	}
	for _, d := range data {
		if d.Effective|d.Permitted|d.Inheritable != 0 {
			return true, fmt.Sprintf("capabilities effective %#x permitted %#x inheritable %#x", d.Effective, d.Permitted, d.Inheritable)
		}
	}
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		if r, _ := unix.PrctlRetInt(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_IS_SET, uintptr(c), 0, 0); r == 1 {
			return true, fmt.Sprintf("capability %d is ambient", c)
		}
		if r, _ := unix.PrctlRetInt(unix.PR_CAPBSET_READ, uintptr(c), 0, 0, 0); r == 1 && unix.Geteuid() == 0 {
			return true, fmt.Sprintf("capability %d in the bounding set of uid 0", c)
		}
	}
	if r, _ := unix.PrctlRetInt(unix.PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0); r != 1 {
		return true, "no_new_privs is not set"
	}
	return false, "no capabilities, none to gain"
}

// leaveCgroup asks clone3 to start a child in the cgroup2 root.
func leaveCgroup(t targets) (bool, string) {
	dir, err := unix.Open(t.cgroup, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false, "open cgroup: " + err.Error()
	}
	defer unix.Close(dir)
	// struct clone_args (linux/sched.h): flags, pidfd, child_tid,
	// parent_tid, exit_signal, stack, stack_size, tls, set_tid,
	// set_tid_size, cgroup.
	var args [11]uint64
	args[0], args[4], args[10] = unix.CLONE_INTO_CGROUP, uint64(unix.SIGCHLD), uint64(dir)
	pid, _, e := unix.RawSyscall(unix.SYS_CLONE3, uintptr(unsafe.Pointer(&args)), unsafe.Sizeof(args), 0)
	if e != 0 {
		return false, "clone3(CLONE_INTO_CGROUP): " + e.Error()
	}
	if pid == 0 {
		unix.RawSyscall(unix.SYS_EXIT_GROUP, 0, 0, 0)
	}
	var ws unix.WaitStatus
	unix.Wait4(int(pid), &ws, 0, nil)
	return true, "clone3(CLONE_INTO_CGROUP) started a child"
}

func rawCall(name string, nr uintptr, args ...uintptr) func(targets) (bool, string) {
	return func(targets) (bool, string) {
		var a [6]uintptr
		copy(a[:], args)
		r, _, e := unix.Syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5])
		if e != 0 {
			return false, name + ": " + e.Error()
		}
		if nr != unix.SYS_UNSHARE && nr != unix.SYS_KEYCTL {
			unix.Close(int(r))
		}
		return true, name + " succeeded"
	}
}

func mountTmpfs(t targets) (bool, string) {
	dir, err := os.MkdirTemp("", "wallprobe-mnt-")
	if err != nil {
		dir = "/mnt"
	}
	if err := unix.Mount("none", dir, "tmpfs", 0, ""); err != nil {
		return false, "mount: " + err.Error()
	}
	unix.Unmount(dir, 0)
	return true, "mounted a tmpfs"
}

func writeOutside(t targets) (bool, string) {
	f, err := os.OpenFile(t.file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return false, "open for writing: " + err.Error()
	}
	f.Close()
	return true, "opened " + t.file + " for writing"
}

// immutableOutside sets FS_IMMUTABLE_FL (chattr +i) on the canary.
func immutableOutside(t targets) (bool, string) {
	fd, err := unix.Open(t.file, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false, "open: " + err.Error()
	}
	defer unix.Close(fd)
	flags, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
	if err != nil {
		return false, "FS_IOC_GETFLAGS: " + err.Error()
	}
	if err := unix.IoctlSetPointerInt(fd, unix.FS_IOC_SETFLAGS, int(flags|fsImmutableFL)); err != nil {
		return false, "FS_IOC_SETFLAGS: " + err.Error()
	}
	unix.IoctlSetPointerInt(fd, unix.FS_IOC_SETFLAGS, int(flags))
	return true, "set the immutable flag"
}

func timestampsOutside(t targets) (bool, string) {
	ts := []unix.Timespec{{Sec: 1}, {Sec: 1}}
	if err := unix.UtimesNanoAt(unix.AT_FDCWD, t.file, ts, 0); err != nil {
		return false, "utimensat: " + err.Error()
	}
	return true, "changed the canary's timestamps"
}

// timestampsByDotdot names the canary relative to the working directory,
// climbing out of it with "..": from a working directory of the server's
// own mount namespace that path would reach the server's writable mounts.
func timestampsByDotdot(t targets) (bool, string) {
	wd, err := os.Getwd()
	if err != nil {
		return false, "getwd: " + err.Error()
	}
	rel, err := filepath.Rel(wd, t.file)
	if err != nil {
		return false, err.Error()
	}
	ts := []unix.Timespec{{Sec: 2}, {Sec: 2}}
	if err := unix.UtimesNanoAt(unix.AT_FDCWD, rel, ts, 0); err != nil {
		return false, "utimensat " + rel + ": " + err.Error()
	}
	return true, "changed the canary's timestamps through " + rel
}

func modeOutside(t targets) (bool, string) {
	var st unix.Stat_t
	if err := unix.Stat(t.file, &st); err != nil {
		return false, "stat: " + err.Error()
	}
	if err := unix.Chmod(t.file, st.Mode&0o7777|0o002); err != nil {
		return false, "chmod: " + err.Error()
	}
	unix.Chmod(t.file, st.Mode&0o7777)
	return true, "changed the canary's mode"
}

// fsImmutableFL is FS_IMMUTABLE_FL (linux/fs.h).
const fsImmutableFL = 0x10

// x32Calls makes x32 system calls (the x86-64 audit arch, numbers with
// x32Nr set): only the filter's own answer, EPERM, counts as blocked, so
// that a kernel without x32 (ENOSYS) does not hide a filter that lets the
// numbers through.
func x32Calls(t targets) (bool, string) {
	if x32Nr == 0 {
		return false, "no x32 ABI on this architecture"
	}
	for _, c := range []struct {
		name string
		nr   uintptr
		args [3]uintptr
	}{
		{"getpid", unix.SYS_GETPID, [3]uintptr{}},
		{"socket(AF_PACKET)", unix.SYS_SOCKET, [3]uintptr{unix.AF_PACKET, unix.SOCK_RAW, 0}},
		{"io_uring_setup", unix.SYS_IO_URING_SETUP, [3]uintptr{4, 0, 0}},
		{"clone3", unix.SYS_CLONE3, [3]uintptr{0, 0, 0}},
	} {
		r, _, e := unix.RawSyscall(c.nr|x32Nr, c.args[0], c.args[1], c.args[2])
		if e == 0 {
			if c.nr == unix.SYS_SOCKET {
				unix.Close(int(r))
			}
			return true, "x32 " + c.name + " succeeded"
		}
		if e != unix.EPERM {
			return true, "x32 " + c.name + " passed the filter: " + e.Error()
		}
	}
	return false, "x32 getpid, socket, io_uring_setup, clone3: EPERM"
}

// unlistedNumbers: numbers in a gap of the table, just above it and far
// above it must meet the filter's refusal (EPERM), not the kernel's
// ENOSYS. x86-64's uretprobe (335) and uprobe (336) are left out: the
// kernel runs them past every seccomp filter, and outside a probe's
// trampoline they only fail (SIGILL, ENXIO).
func unlistedNumbers(targets) (bool, string) {
	for _, nr := range []uintptr{337, 400, 460, 470, 511, 512, 1023, 4096, x32Nr - 1} {
		if nr == 0 {
			continue
		}
		_, _, e := unix.RawSyscall(nr, 0, 0, 0)
		if e != unix.EPERM {
			return true, fmt.Sprintf("system call %d passed the filter: %v", nr, e)
		}
	}
	return false, "every unlisted number: EPERM"
}

// clone3Plain is clone3 without CLONE_INTO_CGROUP: a stage never gets
// clone3, whatever its arguments.
func clone3Plain(targets) (bool, string) {
	var args [11]uint64
	args[4] = uint64(unix.SIGCHLD)
	pid, _, e := unix.RawSyscall(unix.SYS_CLONE3, uintptr(unsafe.Pointer(&args)), unsafe.Sizeof(args), 0)
	if e != 0 {
		return false, "clone3: " + e.Error()
	}
	if pid == 0 {
		unix.RawSyscall(unix.SYS_EXIT_GROUP, 0, 0, 0)
	}
	var ws unix.WaitStatus
	unix.Wait4(int(pid), &ws, 0, nil)
	return true, "clone3 started a child"
}

// fromNewThread runs try on a new OS thread of the probe: every thread a
// stage makes inherits its filter.
func fromNewThread(try func(targets) (bool, string)) func(targets) (bool, string) {
	return func(t targets) (bool, string) {
		type answer struct {
			open   bool
			detail string
		}
		c := make(chan answer)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
			open, detail := try(t)
			c <- answer{open, "on thread " + strconv.Itoa(unix.Gettid()) + ": " + detail}
		}()
		a := <-c
		return a.open, a.detail
	}
}

// cloneNewUser asks clone(2) itself for a user namespace.
func cloneNewUser(targets) (bool, string) {
	pid, _, e := unix.RawSyscall6(unix.SYS_CLONE, unix.CLONE_NEWUSER|uintptr(unix.SIGCHLD), 0, 0, 0, 0, 0)
	if e != 0 {
		return false, "clone(CLONE_NEWUSER): " + e.Error()
	}
	if pid == 0 {
		unix.RawSyscall(unix.SYS_EXIT_GROUP, 0, 0, 0)
	}
	var ws unix.WaitStatus
	unix.Wait4(int(pid), &ws, 0, nil)
	return true, "clone(CLONE_NEWUSER) started a child"
}

// pidfdGetfdServer takes a descriptor (0, the server's stdin) out of
// the server through a pidfd.
func pidfdGetfdServer(t targets) (bool, string) {
	pfd, err := unix.PidfdOpen(t.server, 0)
	if err != nil {
		return false, "pidfd_open: " + err.Error()
	}
	defer unix.Close(pfd)
	for fd := 0; fd < 8; fd++ {
		if got, err := unix.PidfdGetfd(pfd, fd, 0); err == nil {
			unix.Close(got)
			return true, fmt.Sprintf("pidfd_getfd took descriptor %d of the server", fd)
		}
	}
	return false, "pidfd_getfd refused for descriptors 0-7"
}

// cgroupProcsWrite moves the probe into the cgroup2 root by its
// cgroup.procs file, the way around clone3 a file write would be.
func cgroupProcsWrite(t targets) (bool, string) {
	f, err := os.OpenFile(filepath.Join(t.cgroup, "cgroup.procs"), os.O_WRONLY, 0)
	if err != nil {
		return false, "open cgroup.procs: " + err.Error()
	}
	defer f.Close()
	if _, err := f.WriteString(strconv.Itoa(os.Getpid())); err != nil {
		return false, "write cgroup.procs: " + err.Error()
	}
	return true, "moved into " + t.cgroup
}

func socketpairOf(domain, typ, proto int) func(targets) (bool, string) {
	return func(targets) (bool, string) {
		fds, err := unix.Socketpair(domain, typ, proto)
		if err != nil {
			return false, "socketpair: " + err.Error()
		}
		unix.Close(fds[0])
		unix.Close(fds[1])
		return true, fmt.Sprintf("socketpair(%d, %d, %d) created", domain, typ, proto)
	}
}

// personalityReadImpliesExec turns on READ_IMPLIES_EXEC (every readable
// mapping executable); the filter allows only Docker's values.
func personalityReadImpliesExec(targets) (bool, string) {
	const readImpliesExec = 0x0400000
	old, _, e := unix.RawSyscall(unix.SYS_PERSONALITY, readImpliesExec, 0, 0)
	if e != 0 {
		return false, "personality(READ_IMPLIES_EXEC): " + e.Error()
	}
	unix.RawSyscall(unix.SYS_PERSONALITY, old, 0, 0)
	return true, "personality(READ_IMPLIES_EXEC) succeeded"
}
