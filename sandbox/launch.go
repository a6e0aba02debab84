package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
)

// LauncherArg is os.Args[1] of the hidden launcher mode. It cannot be a
// path or an option a user would type.
const LauncherArg = "__mcp-shell-server-launch"

// StatusFD is the launcher's descriptor for failure reports: the write end
// of a pipe the runner passes as the fourth file (fd 3). The launcher marks
// it close-on-exec, so the target never sees it.
const StatusFD = 3

// separator ends the launcher's own arguments.
const separator = "--"

// wire is the launcher configuration as it travels in argv[2].
type wire struct {
	Mode  string   `json:"mode"`
	ABI   int      `json:"abi,omitempty"`
	Read  []string `json:"read,omitempty"`
	Write []string `json:"write,omitempty"`
	Net   bool     `json:"net,omitempty"`
	// Filter installs the seccomp socket filter (seccomp.go).
	Filter bool   `json:"filter,omitempty"`
	Lim    Limits `json:"lim"`
}

// Launcher wraps every stage of a call in the launcher mode. It is built
// once at start-up and safe for concurrent use.
type Launcher struct {
	exe  string
	cfg  Config
	abi  int
	base []byte // encoded wire for calls without extra writable trees
}

// NewLauncher probes cfg (see Probe; its errors are returned unchanged)
// and finds the server binary with os.Executable, which the launcher mode
// re-executes.
func NewLauncher(cfg Config) (*Launcher, error) {
	abi, err := Probe(cfg)
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the server binary for the launcher: %w", err)
	}
	l := &Launcher{exe: exe, cfg: cfg, abi: abi}
	l.base = l.encode(nil)
	return l, nil
}

// Mode returns ModeOff or ModeLandlock (for the audit record).
func (l *Launcher) Mode() string {
	if l.cfg.Landlock() {
		return ModeLandlock
	}
	return ModeOff
}

// ABI returns the Landlock ABI every launch applies; 0 in mode off.
func (l *Launcher) ABI() int { return l.abi }

// Confined reports whether launches apply a Landlock ruleset, and so
// whether a call needs a private temporary directory.
func (l *Launcher) Confined() bool { return l.cfg.Landlock() }

// Command returns the program and argv that run the target at path with
// argv (argv[0] as the client sent it) through the launcher. extraWrite
// are additional writable trees for this call only (its private
// temporary directory).
func (l *Launcher) Command(path string, argv []string, extraWrite ...string) (string, []string) {
	enc := l.base
	if len(extraWrite) > 0 {
		enc = l.encode(extraWrite)
	}
	args := make([]string, 0, len(argv)+5)
	args = append(args, l.exe, LauncherArg, string(enc), separator, path)
	return l.exe, append(args, argv...)
}

func (l *Launcher) encode(extraWrite []string) []byte {
	w := wire{Mode: l.Mode(), ABI: l.abi, Net: l.cfg.Network, Lim: l.cfg.Limits}
	if l.cfg.Landlock() {
		w.Filter = filterWanted(l.cfg)
		w.Read = l.cfg.readDirs()
		w.Write = append(append([]string{}, l.cfg.WriteDirs...), extraWrite...)
	}
	b, err := json.Marshal(w)
	if err != nil {
		panic(err) // strings, ints and bools always marshal
	}
	return b
}

// StartError is a launch the launcher refused or could not complete. Step
// says where ("config", "rlimit", "no_new_privs", "landlock", "seccomp",
// "pdeathsig", "exec"); Msg is the launcher's message; Err is the cause (a
// syscall.Errno when one was reported, so errors.Is with
// fs.ErrPermission or fs.ErrNotExist works), or nil.
type StartError struct {
	Step string
	Msg  string
	Err  error
}

// Error returns the launcher's message, for example
// "exec /usr/bin/x: permission denied".
func (e *StartError) Error() string { return e.Msg }

// Unwrap returns the errno, or nil.
func (e *StartError) Unwrap() error { return e.Err }

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
