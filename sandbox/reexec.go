package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
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
	Mode     string      `json:"mode"`
	Policy   policy      `json:"policy"`
	Filter   *wireFilter `json:"filter,omitempty"`
	ReadOnly bool        `json:"read_only,omitempty"`
	Dir      string      `json:"dir,omitempty"` // the working directory's path (ReadOnly)
	Lim      Limits      `json:"lim"`
}

// wireFilter is a filterKind on the wire; nil installs no filter.
type wireFilter struct {
	Network bool `json:"network,omitempty"`
	Unix    bool `json:"unix,omitempty"`
}

// Command returns the program and argv that run the target at path with
// argv (argv[0] as the client sent it) through the re-executed launcher.
func (l *Launcher) Command(path string, argv []string, pl applied) (string, []string) {
	w := wire{Mode: ModeLimits, Lim: l.cfg.Limits}
	if pl.landlock {
		w.Mode, w.Policy, w.ReadOnly, w.Dir = ModeLandlock, pl.policy, pl.readOnly, pl.dir
	}
	if f := pl.filter; f != nil {
		w.Filter = &wireFilter{Network: f.network, Unix: f.unixSockets}
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
// Once ctx is done the launcher is killed, which ends the report.
func (l *Launcher) startReexec(ctx context.Context, path string, argv []string, attr *os.ProcAttr, pl applied) (*os.Process, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, &StartError{Step: "config", Msg: err.Error(), Err: err}
	}
	defer r.Close()
	if changesUser(attr) {
		// The launcher already runs as the other user, who may not build
		// a mount namespace; the server's own stages never change user.
		pl.readOnly = false
	}
	exe, args := l.Command(path, argv, pl)
	a := *attr
	a.Files = append(append([]*os.File{}, attr.Files...), w)
	p, err := os.StartProcess(exe, args, &a)
	w.Close()
	if err != nil {
		return nil, execError(exe, err)
	}
	if testHookStarted != nil {
		testHookStarted(p.Pid)
	}
	stop := context.AfterFunc(ctx, func() { _ = p.Kill() })
	err = ReadStatus(r)
	if !stop() {
		err = cutShort(ctx, "in the re-executed launcher")
	}
	if err != nil {
		_ = p.Kill()
		_, _ = p.Wait()
		return nil, err
	}
	return p, nil
}

// testHookStarted, set only by tests, runs right after a stage's fork,
// before its start is waited for: the fault injection that proves a start
// ends with its context whatever holds it up.
var testHookStarted func(pid int)

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
