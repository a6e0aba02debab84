package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// launchExitCode is the launcher's exit status when it refuses or fails to
// start the target (126, the shell's "found but cannot execute").
const launchExitCode = 126

// stepError is a failure of one launcher step.
type stepError struct {
	step string
	err  error
}

func (e *stepError) Error() string { return e.err.Error() }
func (e *stepError) Unwrap() error { return e.err }

func fail(step string, format string, a ...any) error {
	return &stepError{step: step, err: fmt.Errorf(format, a...)}
}

// RunLauncher is the launcher mode: args are os.Args[2:], that is
// "<encoded config> -- <target path> <argv...>". It applies the rlimits,
// no_new_privs and (mode landlock) the Landlock ruleset to itself and
// execve's the target with the current environment, so it returns only on
// failure: the report goes to StatusFD (and stderr when StatusFD is not
// open) and the result is the exit status to use, 126.
func RunLauncher(args []string) int {
	// Landlock and no_new_privs are per thread until execve: restrict and
	// exec on one locked thread. It is never unlocked.
	runtime.LockOSThread()
	ppid := unix.Getppid()
	_, statusErr := unix.FcntlInt(StatusFD, unix.F_SETFD, unix.FD_CLOEXEC)
	err := launch(args, ppid)
	var se *stepError
	step := "config"
	if errors.As(err, &se) {
		step = se.step
	}
	var errno syscall.Errno
	errors.As(err, &errno)
	msg := err.Error()
	if statusErr != nil || writeAll(StatusFD, encodeStatus(step, errno, msg)) != nil {
		fmt.Fprintf(os.Stderr, "mcp-shell-server launcher: %s\n", msg)
	}
	return launchExitCode
}

func writeAll(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := unix.Write(fd, b)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// launch parses args, confines the process and execs the target; it
// returns only an error. ppid is the server's pid as the launcher first saw
// it.
func launch(args []string, ppid int) error {
	w, path, argv, err := parseArgs(args)
	if err != nil {
		return err
	}
	env := environ()
	if err := setLimits(w.Lim); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fail("no_new_privs", "prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if w.Mode == ModeLandlock {
		p := policy{abi: w.ABI, network: w.Net, readDirs: w.Read, writeDirs: w.Write, extraRead: []string{path}}
		if err := restrict(p); err != nil {
			return err
		}
		if w.Filter {
			// From ABI 9 Landlock itself restricts pathname UNIX sockets.
			if err := installSocketFilter(w.ABI < 9); err != nil {
				return fail("seccomp", "%w", err)
			}
		}
	}
	if err := holdParentDeathSignal(ppid); err != nil {
		return err
	}
	if err := unix.Exec(path, argv, env); err != nil {
		return fail("exec", "exec %s: %w", path, err)
	}
	return nil // not reached
}

// environ returns the environment the launcher was started with, entry
// for entry. os.Environ is not exact: the Go runtime blanks every
// repeated name after its first occurrence. /proc/self/environ is the
// untouched initial block; without /proc, os.Environ is the fallback.
// It is read before the Landlock ruleset is applied.
func environ() []string {
	b, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		return os.Environ()
	}
	if len(b) == 0 {
		return []string{}
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// parseArgs decodes "<config> -- <path> <argv...>".
func parseArgs(args []string) (w wire, path string, argv []string, err error) {
	if len(args) < 4 || args[1] != separator {
		return w, "", nil, fail("config", "launcher: want <config> %s <path> <argv...>, got %d arguments", separator, len(args))
	}
	if err := json.Unmarshal([]byte(args[0]), &w); err != nil {
		return w, "", nil, fail("config", "launcher: decoding the configuration: %w", err)
	}
	if w.Mode != ModeOff && w.Mode != ModeLandlock {
		return w, "", nil, fail("config", "launcher: unknown mode %q", w.Mode)
	}
	return w, args[2], args[3:], nil
}

// restrict enforces p on the calling (locked) thread; the target inherits
// the domain through execve.
func restrict(p policy) error {
	fd, flags, err := p.rulesetFD()
	if err != nil {
		return fail("landlock", "%w", err)
	}
	defer unix.Close(fd)
	if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
		return fail("landlock", "landlock_restrict_self: %w", err)
	}
	return nil
}

// holdParentDeathSignal sets SIGKILL as the parent-death signal of the
// calling thread, the one about to execve. The runner set it in the child
// before the launcher ran, but only on the launcher's first thread. The
// main goroutine locked to the calling thread is usually still on that
// thread, but nothing guarantees it, and an execve from another thread
// keeps only the exec'ing thread: the setting is lost with the first one
// (measured on Linux 6.18 with a Go program that execs from a second
// thread: the target outlived its SIGKILLed parent). If the server died
// before this prctl, getppid no longer returns it and the target is not run.
func holdParentDeathSignal(ppid int) error {
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
		return fail("pdeathsig", "prctl(PR_SET_PDEATHSIG): %w", err)
	}
	if unix.Getppid() != ppid {
		return fail("pdeathsig", "the server exited before the program started")
	}
	return nil
}
