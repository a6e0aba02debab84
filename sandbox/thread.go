//go:build linux

// Stages start from a restricted thread, traced for their rlimits: Linux
// only (no_new_privs, Landlock and seccomp are per thread there, and
// prlimit(2) and PTRACE_TRACEME exist); elsewhere thread_other.go.

package sandbox

import (
	"encoding/binary"
	"os"
	"runtime"
	"strconv"
	"sync"
	"syscall"
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

// cldTrapped is CLD_TRAPPED, the siginfo code of a traced child's stop
// (include/uapi/asm-generic/siginfo.h).
const cldTrapped = 4

// restrictThread restricts the calling (locked) thread as pl says:
// no_new_privs, in mode landlock the stage's ruleset, and no
// capabilities. The stage's own nested domain and seccomp filter are
// installed from inside it (startRestricted), so that the thread shares
// neither with it and the Go runtime on this thread is never filtered.
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
	return nil
}

// startRestricted starts the program from the calling (restricted,
// locked) thread, traced: at its stop after the execve it confines the
// stage from inside (its nested Landlock domain, its seccomp filter:
// confineFromInside), sets its rlimits and lets it run.
func startRestricted(path string, argv []string, attr *os.ProcAttr, pl applied) (*os.Process, error) {
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
	p, err := os.StartProcess(path, argv, &a)
	if err != nil {
		return nil, execError(path, err)
	}
	if !sys.Ptrace {
		return p, nil
	}
	if err := confineTraced(p.Pid, scopeFD, pl); err != nil {
		_ = p.Kill()
		_, _ = p.Wait()
		return nil, startError(err)
	}
	return p, nil
}

// confineTraced waits for the traced child's stop after its execve,
// confines it from inside, sets its limits and detaches it. A child that
// died first (a signal from the call's process group) is left to the
// caller to reap; one stopped by anything but its execve's SIGTRAP is an
// error (it must not run unconfined).
func confineTraced(pid, scopeFD int, pl applied) error {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WSTOPPED|unix.WNOWAIT, nil)
		if err == nil {
			break
		}
		if err != unix.EINTR {
			return fail("rlimit", "waitid: %w", err)
		}
	}
	if info.Code != cldTrapped {
		return nil
	}
	if st := siginfoStatus(&info); st != int32(unix.SIGTRAP) {
		return fail("confine", "the new stage stopped with signal %d before it could be confined", st)
	}
	if scopeFD >= 0 || pl.filter != nil {
		var filter []unix.SockFilter
		if pl.filter != nil {
			var err error
			if filter, err = stageFilter(*pl.filter); err != nil {
				return fail("seccomp", "%w", err)
			}
		}
		if err := confineFromInside(pid, scopeFD, filter); err != nil {
			return err
		}
	}
	if err := prlimits(pid, pl.rlimits); err != nil {
		return err
	}
	if err := unix.PtraceDetach(pid); err != nil {
		return fail("rlimit", "ptrace(PTRACE_DETACH): %w", err)
	}
	return nil
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
// profiles) by starting this binary's launcher mode, which exits at once.
var traceWorks = sync.OnceValue(func() bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	done := make(chan error)
	go func() {
		runtime.LockOSThread() // a traced child's tracer is this thread
		defer runtime.UnlockOSThread()
		p, err := os.StartProcess(exe, []string{exe, LauncherArg, probeArg}, &os.ProcAttr{Sys: &syscall.SysProcAttr{Ptrace: true}})
		if err == nil {
			err = confineTraced(p.Pid, -1, applied{})
			_, _ = p.Wait()
		}
		done <- err
	}()
	return <-done == nil
})

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
