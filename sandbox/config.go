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
	// ModeOff starts children directly: no rlimits, no no_new_privs.
	ModeOff = "off"
	// ModeLimits sets the rlimits and no_new_privs, without Landlock.
	ModeLimits = "limits"
	// ModeLandlock confines every stage with its Landlock ruleset and
	// refuses to start when the kernel cannot enforce it.
	ModeLandlock = "landlock"
	// ModeAuto is ModeLandlock where the kernel offers the needed ABI and
	// ModeLimits elsewhere (Launcher.Mode reports which one applies).
	ModeAuto = "auto"
)

// Network policies of Config.Network (MCP_SHELL_SANDBOX_NETWORK).
const (
	// NetworkFamily denies TCP except to stages whose family's everyday
	// job is the network (argvrules.Family.Network).
	NetworkFamily = "family"
	// NetworkDeny denies TCP to every stage.
	NetworkDeny = "deny"
	// NetworkAllow leaves the network of every stage unrestricted.
	NetworkAllow = "allow"
)

// Landlock ABI versions the configuration needs (Linux kernel
// Documentation/userspace-api/landlock.rst, "Previous limitations").
const (
	// ABIFilesystem is the least ABI for the filesystem rules: ABI 3
	// (Linux 6.2) is the first to restrict truncate(2), without which a
	// file outside the writable trees could still be emptied.
	ABIFilesystem = 3
	// ABINetwork is the least ABI that restricts TCP bind(2) and
	// connect(2): ABI 4 (Linux 6.7). Needed unless every stage may use
	// the network (NetworkAllow).
	ABINetwork = 4
	// maxABI is the newest ABI go-landlock v0.11.2 knows (landlock.V11).
	maxABI = 11
)

// DefaultReadDirs are the trees of Config.ReadDirs when it is nil
// (MCP_SHELL_SANDBOX_READ_DIRS unset): the usual system directories.
// Missing ones are skipped. None on Windows, which has no kernel
// sandbox to give them to (files_windows.go).
var DefaultReadDirs = platformReadDirs

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
	// Mode is ModeOff ("" means off), ModeLimits, ModeLandlock or
	// ModeAuto (MCP_SHELL_SANDBOX).
	Mode string
	// ReadDirs are absolute trees children may read
	// (MCP_SHELL_SANDBOX_READ_DIRS); nil means DefaultReadDirs. Stages of
	// families that run other programs may also execute beneath them;
	// every other stage reads them without the program directories
	// (programDirs) and executes only its own executables. Missing
	// directories are skipped.
	ReadDirs []string
	// WriteDirs are absolute trees children may read and write: the
	// allowed directories. They must exist.
	WriteDirs []string
	// Network is NetworkFamily ("" means family), NetworkDeny or
	// NetworkAllow (MCP_SHELL_SANDBOX_NETWORK).
	Network string
	// BestEffort accepts a kernel whose Landlock ABI is below the needed
	// one and applies what it offers (MCP_SHELL_SANDBOX_BEST_EFFORT=1).
	BestEffort bool
	// Limits are applied in modes limits, landlock and auto.
	Limits Limits
	// Exec widens the executables of single programs
	// (MCP_SHELL_SANDBOX_EXEC): the key is an argv[0] as in
	// ALLOW_COMMANDS (a name, or an exact path); the values are program
	// names looked up in the child PATH or absolute paths (a directory
	// grants everything beneath it), or ExecAny.
	Exec map[string][]string
	// UserCaches lets stages use the user's own caches beneath HOME
	// (MCP_SHELL_SANDBOX_USER_CACHES). Off, a stage cannot plant a build
	// cache entry that the user's unconfined go build would trust.
	UserCaches bool
	// CacheDir is the root of the server-managed cache directories
	// (MCP_SHELL_SANDBOX_CACHE_DIR); "" means DefaultCacheDir().
	CacheDir string
	// Credentials are the families whose stages read the user's real
	// credential-bearing configuration (MCP_SHELL_SANDBOX_CREDENTIALS;
	// CredentialsAll: every one of CredentialFamilies). The others get a
	// copy without the credentials, since their stages run code they
	// fetched or the project's scripts, which could send the tokens out.
	Credentials []string
}

// CredentialsAll in Config.Credentials grants every family its real
// credential-bearing configuration.
const CredentialsAll = "*"

// ExecAny in Config.Exec lets a program execute like the families that
// run other programs (beneath ReadDirs and the writable trees).
const ExecAny = "*"

// ErrConfig reports an invalid Config: unknown mode or network policy,
// or a path that is not absolute, clean and valid UTF-8 or contains a NUL
// byte.
var ErrConfig = errors.New("invalid sandbox configuration")

// ErrUnavailable reports a kernel that cannot enforce the configuration:
// no Landlock at all, or an ABI below RequiredABI without BestEffort.
var ErrUnavailable = errors.New("landlock sandbox unavailable")

// wantsLandlock reports whether c asks for Landlock where available.
func (c Config) wantsLandlock() bool { return c.Mode == ModeLandlock || c.Mode == ModeAuto }

// RequiredABI is the least Landlock ABI that enforces c completely:
// ABIFilesystem when every stage may use the network, ABINetwork
// otherwise; 0 when c asks for no Landlock.
func (c Config) RequiredABI() int {
	switch {
	case !c.wantsLandlock():
		return 0
	case c.Network == NetworkAllow:
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

// validate checks the mode, the network policy and every path.
func (c Config) validate() error {
	switch c.Mode {
	case "", ModeOff, ModeLimits, ModeLandlock, ModeAuto:
	default:
		return fmt.Errorf("%w: mode %q is not off, limits, landlock or auto", ErrConfig, c.Mode)
	}
	switch c.Network {
	case "", NetworkFamily, NetworkDeny, NetworkAllow:
	default:
		return fmt.Errorf("%w: network %q is not family, deny or allow", ErrConfig, c.Network)
	}
	paths := append(append([]string{}, c.readDirs()...), c.WriteDirs...)
	if c.CacheDir != "" {
		paths = append(paths, c.CacheDir)
	}
	for _, list := range c.Exec {
		for _, e := range list {
			if e != ExecAny && strings.Contains(e, "/") {
				paths = append(paths, e)
			}
		}
	}
	for _, p := range paths {
		if err := checkPath(p); err != nil {
			return err
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
