package sandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Modes of Config.Mode (MCP_SHELL_SANDBOX).
const (
	// ModeOff runs children without Landlock; the launcher still sets the
	// rlimits and no_new_privs.
	ModeOff = "off"
	// ModeLandlock confines every child with a Landlock ruleset.
	ModeLandlock = "landlock"
)

// Landlock ABI versions the configuration needs (Linux kernel
// Documentation/userspace-api/landlock.rst, "Previous limitations").
const (
	// ABIFilesystem is the least ABI for the filesystem rules: ABI 3
	// (Linux 6.2) is the first to restrict truncate(2), without which a
	// file outside the writable trees could still be emptied.
	ABIFilesystem = 3
	// ABINetwork is the least ABI that restricts TCP bind(2) and
	// connect(2): ABI 4 (Linux 6.7). Needed unless Config.Network.
	ABINetwork = 4
	// maxABI is the newest ABI go-landlock v0.11.2 knows (landlock.V11).
	maxABI = 11
)

// DefaultReadDirs are the read-and-execute trees when Config.ReadDirs is
// nil (MCP_SHELL_SANDBOX_READ_DIRS unset): the usual system directories.
// Missing ones are skipped.
var DefaultReadDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}

// deviceRW and deviceRO are device files every child may use; missing ones
// are skipped. No ioctl right is granted on them.
var (
	deviceRW = []string{"/dev/null", "/dev/zero", "/dev/full"}
	deviceRO = []string{"/dev/random", "/dev/urandom"}
)

// Limits are the rlimits of every child (setrlimit(2)); 0 leaves the
// server's limit in place. A value above the server's hard limit is
// lowered to it, because an unprivileged process cannot raise a hard
// limit. Soft and hard limit are both set, so the child cannot raise them
// again (for CPU the hard limit is one second above the soft one, so the
// child gets SIGXCPU before SIGKILL).
type Limits struct {
	// CPUSeconds is RLIMIT_CPU in seconds of CPU time per process.
	CPUSeconds uint64 `json:"cpu,omitempty"`
	// ASBytes is RLIMIT_AS in bytes of virtual address space per process.
	ASBytes uint64 `json:"as,omitempty"`
	// NProc is RLIMIT_NPROC: processes (threads included) of the real
	// user ID, counted across the whole user, not per call. The kernel
	// ignores it for uid 0 and for CAP_SYS_RESOURCE or CAP_SYS_ADMIN.
	NProc uint64 `json:"nproc,omitempty"`
	// FSizeBytes is RLIMIT_FSIZE in bytes: the largest file a process may
	// write; a write past it raises SIGXFSZ (EFBIG if ignored).
	FSizeBytes uint64 `json:"fsize,omitempty"`
	// NoFile is RLIMIT_NOFILE: the highest descriptor number plus one.
	NoFile uint64 `json:"nofile,omitempty"`
}

// DefaultLimits returns the documented defaults: CPU 0 (inherit; the
// call's wall-clock timeout bounds it), AS 0 (inherit: Go, Java and Node
// reserve large address ranges they never touch, so an AS cap breaks them
// long before it limits memory), NPROC 4096 (parallel builds fit), FSIZE
// 1 GiB, NOFILE 1024.
func DefaultLimits() Limits {
	return Limits{NProc: 4096, FSizeBytes: 1 << 30, NoFile: 1024}
}

// Config is the sandbox configuration, fixed at start-up.
type Config struct {
	// Mode is ModeOff ("" means off) or ModeLandlock (MCP_SHELL_SANDBOX).
	Mode string
	// ReadDirs are absolute trees children may read and execute
	// (MCP_SHELL_SANDBOX_READ_DIRS); nil means DefaultReadDirs. Missing
	// directories are skipped.
	ReadDirs []string
	// WriteDirs are absolute trees children may read and write: the
	// allowed directories. They must exist.
	WriteDirs []string
	// Network keeps TCP (and, on newer ABIs, UDP and pathname UNIX
	// sockets) unrestricted (MCP_SHELL_SANDBOX_NETWORK=allow).
	Network bool
	// BestEffort accepts a kernel whose Landlock ABI is below the needed
	// one and applies what it offers (MCP_SHELL_SANDBOX_BEST_EFFORT=1).
	BestEffort bool
	// Limits are applied in every mode.
	Limits Limits
}

// ErrConfig reports an invalid Config: unknown mode or a path that is not
// absolute, clean and valid UTF-8 or contains a NUL byte.
var ErrConfig = errors.New("invalid sandbox configuration")

// ErrUnavailable reports a kernel that cannot enforce the configuration:
// no Landlock at all, or an ABI below RequiredABI without BestEffort.
var ErrUnavailable = errors.New("landlock sandbox unavailable")

// Landlock reports whether c asks for Landlock confinement.
func (c Config) Landlock() bool { return c.Mode == ModeLandlock }

// RequiredABI is the least Landlock ABI that enforces c completely:
// ABINetwork when TCP is denied, ABIFilesystem otherwise, 0 in mode off.
func (c Config) RequiredABI() int {
	switch {
	case !c.Landlock():
		return 0
	case c.Network:
		return ABIFilesystem
	default:
		return ABINetwork
	}
}

func (c Config) readDirs() []string {
	if c.ReadDirs == nil {
		return DefaultReadDirs
	}
	return c.ReadDirs
}

// validate checks the mode and every path.
func (c Config) validate() error {
	if c.Mode != "" && c.Mode != ModeOff && c.Mode != ModeLandlock {
		return fmt.Errorf("%w: mode %q is not %q or %q", ErrConfig, c.Mode, ModeOff, ModeLandlock)
	}
	for _, list := range [][]string{c.readDirs(), c.WriteDirs} {
		for _, p := range list {
			if err := checkPath(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkPath requires an absolute, clean, valid UTF-8 path without NUL
// (the launcher configuration travels as JSON, which cannot carry other
// bytes unchanged).
func checkPath(p string) error {
	if strings.IndexByte(p, 0) >= 0 || !utf8.ValidString(p) || !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return fmt.Errorf("%w: path %q must be absolute, clean and valid UTF-8", ErrConfig, p)
	}
	return nil
}
