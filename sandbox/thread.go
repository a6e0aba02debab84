//go:build linux

// Stages start from a restricted thread, traced for their rlimits: Linux
// only (no_new_privs, Landlock and seccomp are per thread there, and
// prlimit(2) and PTRACE_TRACEME exist); elsewhere thread_other.go.

package sandbox

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A stage is started from an OS thread of the server that carries the
// stage's restrictions: no_new_privs, the Landlock domain and the seccomp
// filter are per thread until execve, and a child inherits its thread's
// (landlock_restrict_self(2), seccomp(2), prctl(2) PR_SET_NO_NEW_PRIVS).
// So no second program starts per stage (and a thread serves every later
// stage with the same restrictions, threadpool.go); only the rlimits,
// which belong to the whole process, are set afterwards: the child is started traced
// (PTRACE_TRACEME, so it stops with SIGTRAP right after its execve, before
// running an instruction of the program), gets its limits with
// prlimit(2), and is detached.

// The siginfo codes of SIGCHLD (include/uapi/asm-generic/siginfo.h):
// a child that ended (exited, killed, dumped), and a traced child's stop.
const (
	cldExited  = 1
	cldKilled  = 2
	cldDumped  = 3
	cldTrapped = 4
)

// restrictThread restricts the calling (locked) thread as pl says:
// no_new_privs, in mode landlock the stage's ruleset, no capabilities,
// and the thread's seccomp filter (the stage allowlist with clone3, which
// the thread's own fork needs; the Go runtime runs under that allowlist
// in every Go program a stage starts), installed once for every stage
// the thread starts. The stage's own nested domain and stageTail are
// installed from inside it (startRestricted), so that it shares no
// domain with the thread and cannot call clone3.
func restrictThread(pl applied) error {
	if pl.readOnly {
		if err := readOnlyWorld(pl.policy.Write, pl.policy.held); err != nil {
			return startError(fail("mounts", "%w", err))
		}
	}
	if pl.landlock {
		if err := restrict(pl.policy); err != nil {
			return startError(err)
		}
	} else if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return startError(fail("no_new_privs", "prctl(PR_SET_NO_NEW_PRIVS): %w", err))
	}
	if err := dropCapabilities(); err != nil {
		return startError(err)
	}
	if pl.filter != nil {
		k := *pl.filter
		k.thread = true
		if err := installFilter(k); err != nil {
			return startError(fail("seccomp", "%w", err))
		}
	}
	return nil
}

// startRestricted starts the program from the calling (restricted,
// locked) thread, traced: at its stop after the execve it confines the
// stage from inside (its nested Landlock domain, its seccomp filter:
// confineTraced), sets its rlimits and lets it run. Once ctx is done the
// child is killed wherever its start is (killOnDone) and nothing is
// handed out.
func startRestricted(ctx context.Context, path string, argv []string, attr *os.ProcAttr, pl applied) (*os.Process, error) {
	a := *attr
	if pl.readOnly && attr.Dir != "" {
		// An empty Dir keeps the thread's working directory, which
		// unshare moved into the thread's namespace.
		dir, err := dirInWorld(attr.Dir, pl.dir)
		if err != nil {
			return nil, startError(fail("mounts", "%w", err))
		}
		defer dir.Close()
		a.Dir = "/proc/self/fd/" + strconv.Itoa(int(dir.Fd()))
	}
	scopeFD := -1
	if pl.scope != nil {
		scopeFD = len(attr.Files)
		a.Files = append(append([]*os.File{}, attr.Files...), pl.scope)
	}
	sys := syscall.SysProcAttr{}
	if attr.Sys != nil {
		sys = *attr.Sys
	}
	sys.Ptrace = pl.traced()
	a.Sys = &sys
	started, end := killOnDone(ctx)
	p, err := os.StartProcess(path, argv, &a)
	if err != nil {
		end()
		if ctx.Err() != nil {
			return nil, cutShort(ctx, "forking it")
		}
		return nil, execError(path, err)
	}
	started(p)
	if testHookStarted != nil {
		testHookStarted(p.Pid)
	}
	if sys.Ptrace {
		_, err = confineTraced(p.Pid, scopeFD, pl)
	}
	end()
	if ctx.Err() != nil {
		err = cutShort(ctx, "confining it")
	}
	if err != nil {
		_ = p.Kill()
		_, _ = p.Wait()
		if se, ok := err.(*StartError); ok {
			return nil, se
		}
		return nil, startError(err)
	}
	return p, nil
}

// lookAgain is how often, once a start's context is done and the child's
// pid is not known yet, the thread's children are looked at again: the
// fork may come after the first look, and a child that stops before its
// execve (a signal reaches it after PTRACE_TRACEME) holds up the fork
// until it is killed. It only runs past a deadline, so it is short.
const lookAgain = 10 * time.Millisecond

// killOnDone SIGKILLs, once ctx is done, the child the calling (locked)
// thread is starting. Until started has given its process, that is every
// child the thread still traces (every stage it handed out was detached
// first), looked for again while the start lasts; then the process. end
// stops watching and returns once no kill can come any more, so the
// thread's next start is never hit.
func killOnDone(ctx context.Context) (started func(*os.Process), end func()) {
	if ctx.Done() == nil {
		return func(*os.Process) {}, func() {}
	}
	tid := unix.Gettid()
	var proc atomic.Pointer[os.Process]
	over, fired := make(chan struct{}), make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(fired)
		t := time.NewTicker(lookAgain)
		defer t.Stop()
		for {
			if p := proc.Load(); p != nil {
				_ = p.Kill()
				return
			}
			killTraced(tid)
			select {
			case <-over:
				return
			case <-t.C:
			}
		}
	})
	return func(p *os.Process) { proc.Store(p) }, func() {
		close(over)
		if !stop() {
			<-fired
		}
	}
}

// killTraced SIGKILLs the children of thread tid that it traces, each
// through a pidfd opened before its tracer is checked, so that a reused
// pid is never hit.
func killTraced(tid int) {
	b, _ := os.ReadFile("/proc/self/task/" + strconv.Itoa(tid) + "/children")
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			continue
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue
		}
		if tracerOf(pid) == tid {
			_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		}
		unix.Close(fd)
	}
}

// tracerOf is the TracerPid of process pid (proc(5)), or 0.
func tracerOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	_, rest, ok := bytes.Cut(b, []byte("\nTracerPid:"))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	n, _ := strconv.Atoi(strings.TrimSpace(string(line)))
	return n
}

// confineTraced waits for the traced child's stop after its execve,
// confines it from inside, sets its limits and detaches it; trapped says
// it stopped there. A child that died first (a signal from the call's
// process group) is left to the caller to reap; one stopped by anything
// but its execve's SIGTRAP is an error (it must not run unconfined).
func confineTraced(pid, scopeFD int, pl applied) (trapped bool, err error) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WSTOPPED|unix.WNOWAIT, nil)
		if err == nil {
			break
		}
		if err != unix.EINTR {
			return false, fail("rlimit", "waitid: %w", err)
		}
	}
	switch info.Code {
	case cldExited, cldKilled, cldDumped:
		return false, nil
	case cldTrapped:
	default:
		// A group-stop before PTRACE_TRACEME (CLD_STOPPED) would hand out
		// a stage that later stops at its execve with no tracer waiting.
		return false, fail("confine", "the new stage stopped (code %d) before it could be confined", info.Code)
	}
	if st := siginfoStatus(&info); st != int32(unix.SIGTRAP) {
		return false, fail("confine", "the new stage stopped with signal %d before it could be confined", st)
	}
	if scopeFD >= 0 || pl.filter != nil {
		var filter []unix.SockFilter
		if pl.filter != nil {
			filter = stageTail // on top of the thread's filter (restrictThread)
		}
		if err := confineFromInside(pid, scopeFD, filter); err != nil {
			return true, err
		}
	}
	if err := prlimits(pid, pl.rlimits); err != nil {
		return true, err
	}
	if err := unix.PtraceDetach(pid); err != nil {
		return true, fail("rlimit", "ptrace(PTRACE_DETACH): %w", err)
	}
	return true, nil
}

// siginfoStatus is si_status of a SIGCHLD siginfo (after si_pid and
// si_uid in the union that follows the 16-byte header on 64-bit Linux).
func siginfoStatus(info *unix.Siginfo) int32 {
	b := (*[unsafe.Sizeof(*info)]byte)(unsafe.Pointer(info))
	return int32(binary.LittleEndian.Uint32(b[24:28]))
}

// waitExited blocks until pid has exited, without reaping it.
func waitExited(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return
		}
	}
}

// traceWorks checks once per process that a traced start works
// (ptrace(2) may be disabled: Yama ptrace_scope, container seccomp
// profiles) by starting this binary's launcher mode, which exits at once;
// it works when the child stopped after its execve and was detached
// within probeWait.
var traceWorks = sync.OnceValue(func() bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeWait)
	defer cancel()
	done := make(chan bool)
	go func() {
		runtime.LockOSThread() // a traced child's tracer is this thread
		defer runtime.UnlockOSThread()
		started, end := killOnDone(ctx)
		p, err := os.StartProcess(exe, []string{exe, LauncherArg, probeArg}, &os.ProcAttr{Sys: &syscall.SysProcAttr{Ptrace: true}})
		trapped := false
		if err == nil {
			started(p)
			trapped, err = confineTraced(p.Pid, -1, applied{})
		}
		end()
		if p != nil {
			_, _ = p.Wait()
		}
		done <- trapped && err == nil && ctx.Err() == nil
	}()
	return <-done
})

// probeWait bounds the start-up check of ptrace. A start of the server
// binary that stops once takes milliseconds; a check that has not ended
// in this long (a machine under heavy load, a stop taken by another
// waiter) counts as "ptrace does not work", and stages then start through
// the re-executed launcher, as confined, rather than never.
const probeWait = 30 * time.Second

// prlimits applies rs to process pid (prlimit(2)).
func prlimits(pid int, rs []rlimit) error {
	for _, r := range rs {
		lim := unix.Rlimit{Cur: r.value.Cur, Max: r.value.Max}
		if err := unix.Prlimit(pid, r.resource, &lim, nil); err != nil {
			return fail("rlimit", "prlimit(%s, %d): %w", r.name, r.value.Cur, err)
		}
	}
	return nil
}
