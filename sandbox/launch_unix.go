//go:build darwin || linux

// The re-executed launcher's own side (RunLauncher): it restricts itself
// and execs the target, which needs setrlimit(2) and execve(2) (Windows:
// launch_windows.go).

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// RunLauncher is the launcher mode: args are os.Args[2:], that is
// "<encoded config> -- <target path> <argv...>". It applies the rlimits,
// no_new_privs and (mode landlock) the Landlock ruleset to itself and
// execve's the target with the current environment, so it returns only on
// failure: the report goes to StatusFD (and stderr when StatusFD is not
// open) and the result is the exit status to use, 126.
func RunLauncher(args []string) int {
	if len(args) == 1 && args[0] == probeArg {
		return 0
	}
	// Landlock and no_new_privs are per thread until execve: restrict and
	// exec on one locked thread. It is never unlocked.
	runtime.LockOSThread()
	ppid := unix.Getppid()
	_, statusErr := unix.FcntlInt(StatusFD, unix.F_SETFD, unix.FD_CLOEXEC)
	se := startError(launch(args, ppid))
	errno, _ := se.Err.(syscall.Errno)
	if statusErr != nil || writeAll(StatusFD, encodeStatus(se.Step, errno, se.Msg)) != nil {
		fmt.Fprintf(os.Stderr, "mcp-shell-server launcher: %s\n", se.Msg)
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
	if w.ReadOnly {
		if err := enterReadOnlyWorld(w.Policy.Write, w.Dir); err != nil {
			return fail("mounts", "%w", err)
		}
	}
	if w.Mode == ModeLandlock {
		if err := restrict(w.Policy); err != nil {
			return err
		}
	} else if err := noNewPrivs(); err != nil {
		return err
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	if f := w.Filter; f != nil {
		if err := installFilter(filterKind{network: f.Network, unixSockets: f.Unix}); err != nil {
			return fail("seccomp", "%w", err)
		}
	}
	if err := holdParentDeathSignal(ppid); err != nil {
		return err
	}
	if err := unix.Exec(path, argv, env); err != nil {
		return fail("exec", "exec %s: %w", path, err)
	}
	return errors.New("exec returned") // not reached
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

// changesUser reports whether attr starts the process as another user.
func changesUser(attr *os.ProcAttr) bool {
	return attr.Sys != nil && attr.Sys.Credential != nil
}
