package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Where ptrace(2) is not available (Yama ptrace_scope 3, or 2 without
// CAP_SYS_PTRACE; some container profiles), the rlimits cannot be set on
// a child from outside before it runs. The launcher then re-executes the
// server binary in a hidden mode that restricts itself and execs the
// stage: "<server> LauncherArg <config> -- <path> <argv...>". It costs
// one start of the server binary per stage.

// LauncherArg is os.Args[1] of the hidden launcher mode. It cannot be a
// path or an option a user would type.
const LauncherArg = "__mcp-shell-server-launch"

// probeArg, as os.Args[2], makes the launcher mode exit 0 at once: the
// start-up check that a traced start works.
const probeArg = "probe"

// StatusFD is the re-executed launcher's descriptor for failure reports:
// the write end of a pipe passed as the fourth file (fd 3). The launcher
// marks it close-on-exec, so the target never sees it.
const StatusFD = 3

// separator ends the launcher's own arguments.
const separator = "--"

// launchExitCode is the launcher's exit status when it refuses or fails
// to start the target (126, the shell's "found but cannot execute").
const launchExitCode = 126

// wire is the launcher configuration as it travels in argv[2].
type wire struct {
	Mode   string `json:"mode"`
	Policy policy `json:"policy"`
	Filter bool   `json:"filter,omitempty"`
	Lim    Limits `json:"lim"`
}

// Command returns the program and argv that run the target at path with
// argv (argv[0] as the client sent it) through the re-executed launcher.
func (l *Launcher) Command(path string, argv []string, pl plan) (string, []string) {
	w := wire{Mode: ModeLimits, Lim: l.cfg.Limits}
	if pl.landlock {
		w.Mode, w.Policy, w.Filter = ModeLandlock, pl.policy, pl.filter
	}
	enc, err := json.Marshal(w)
	if err != nil {
		panic(err) // strings, ints and bools always marshal
	}
	args := make([]string, 0, len(argv)+5)
	args = append(args, l.exe, LauncherArg, string(enc), separator, path)
	return l.exe, append(args, argv...)
}

// startReexec starts the stage through the re-executed launcher and
// waits for its status report: nil when the target's execve succeeded.
func (l *Launcher) startReexec(path string, argv []string, attr *os.ProcAttr, pl plan) (*os.Process, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, &StartError{Step: "config", Msg: err.Error(), Err: err}
	}
	defer r.Close()
	exe, args := l.Command(path, argv, pl)
	a := *attr
	a.Files = append(append([]*os.File{}, attr.Files...), w)
	p, err := os.StartProcess(exe, args, &a)
	w.Close()
	if err != nil {
		return nil, execError(exe, err)
	}
	if err := ReadStatus(r); err != nil {
		_ = p.Kill()
		_, _ = p.Wait()
		return nil, err
	}
	return p, nil
}

// maxStatus bounds a status report; longer ones are cut.
const maxStatus = 4096

// ReadStatus reads the launcher's status pipe to EOF. It returns nil when
// the pipe closed without a report (the target's execve succeeded, or the
// launcher died first; its exit status then tells), otherwise a
// *StartError, or the read error.
func ReadStatus(r io.Reader) error {
	b, err := io.ReadAll(io.LimitReader(r, maxStatus))
	if err != nil {
		return fmt.Errorf("reading the launcher status: %w", err)
	}
	if len(b) == 0 {
		return nil
	}
	return decodeStatus(b)
}

// encodeStatus and decodeStatus frame a report as step NUL errno NUL
// message.
func encodeStatus(step string, errno syscall.Errno, msg string) []byte {
	return []byte(step + "\x00" + strconv.Itoa(int(errno)) + "\x00" + msg)
}

func decodeStatus(b []byte) error {
	parts := bytes.SplitN(b, []byte{0}, 3)
	if len(parts) != 3 {
		return &StartError{Step: "unknown", Msg: "launcher: " + string(b)}
	}
	e := &StartError{Step: string(parts[0]), Msg: string(parts[2])}
	if n, err := strconv.Atoi(string(parts[1])); err == nil && n > 0 {
		e.Err = syscall.Errno(n)
	}
	return e
}

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
	if w.Mode == ModeLandlock {
		if err := restrict(w.Policy, w.Filter); err != nil {
			return err
		}
	} else if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fail("no_new_privs", "prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if err := holdParentDeathSignal(ppid); err != nil {
		return err
	}
	if err := unix.Exec(path, argv, env); err != nil {
		return fail("exec", "exec %s: %w", path, err)
	}
	return errors.New("exec returned") // not reached
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
	if w.Mode != ModeLimits && w.Mode != ModeLandlock {
		return w, "", nil, fail("config", "launcher: unknown mode %q", w.Mode)
	}
	return w, args[2], args[3:], nil
}
