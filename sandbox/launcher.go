package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Launcher starts the stages of every call under the configured
// confinement. It is built once at start-up and safe for concurrent use.
type Launcher struct {
	cfg  Config
	mode string // effective mode: ModeOff, ModeLimits or ModeLandlock
	abi  int
	// fallback says why ModeAuto runs without Landlock ("" otherwise).
	fallback  string
	rlimits   []rlimit
	leafRead  []string
	held      *heldPaths
	cacheRoot string
	filter    bool // the socket filter exists for this architecture
	exe       string
	profiles  profiles
	// reexec is decided once (method): false starts stages from a
	// restricted thread, true through the re-executed launcher.
	methodOnce sync.Once
	reexec     atomic.Bool
	dirsMade   sync.Map // cache directories created so far
	rootOnce   sync.Once
	rootErr    error
	dirs       callDirs   // the calls' private temporary directories
	threads    threadPool // restricted threads between stages
}

// NewLauncher validates and probes cfg (see Probe; its errors are
// returned unchanged, except that ModeAuto falls back to ModeLimits when
// the kernel cannot enforce the Landlock part) and prepares what every
// launch shares: the rlimits, the read trees of leaf stages and the cache
// root.
func NewLauncher(cfg Config) (*Launcher, error) {
	l := &Launcher{cfg: cfg, mode: cfg.Mode, filter: filterAvailable()}
	if l.mode == "" {
		l.mode = ModeOff
	}
	abi, err := Probe(cfg)
	switch {
	case cfg.Mode == ModeAuto && errors.Is(err, ErrUnavailable):
		l.mode, l.fallback = ModeLimits, strings.TrimPrefix(err.Error(), ErrUnavailable.Error()+": ")
	case err != nil:
		return nil, err
	case cfg.Mode == ModeAuto:
		l.mode = ModeLandlock
	}
	l.abi = abi
	if err := limitsAvailable(); l.mode == ModeLimits && err != nil {
		if cfg.Mode != ModeAuto {
			return nil, fmt.Errorf("%w: MCP_SHELL_SANDBOX=%s but %w", ErrUnavailable, cfg.Mode, err)
		}
		l.mode, l.fallback = ModeOff, l.fallback+"; "+err.Error()
	}
	if l.mode == ModeOff {
		return l, nil
	}
	if l.rlimits, err = rlimits(cfg.Limits); err != nil {
		return nil, err
	}
	if l.cacheRoot = cfg.CacheDir; l.cacheRoot == "" {
		l.cacheRoot = DefaultCacheDir()
	}
	l.leafRead = leafReads(cfg.readDirs())
	if l.mode == ModeLandlock {
		l.held = holdPaths(l.leafRead, cfg.readDirs(), deviceRW, deviceRO, []string{"/"})
	}
	l.exe, _ = os.Executable()
	go l.method() // probes off the start-up path
	return l, nil
}

// cacheRootDir returns the cache root, created (mode 0700) the first time a
// stage needs it: Config.CacheDir, or DefaultCacheDir, or, when that
// cannot be created (a read-only home), the one beneath the temporary
// directory, which must then be this user's alone.
func (l *Launcher) cacheRootDir() (string, error) {
	l.rootOnce.Do(func() {
		switch {
		case l.cfg.CacheDir != "":
			l.rootErr = os.MkdirAll(l.cacheRoot, 0o700)
		case l.cacheRoot != tempCacheDir() && os.MkdirAll(l.cacheRoot, 0o700) == nil:
		default:
			l.cacheRoot = tempCacheDir()
			l.rootErr = ownDir(l.cacheRoot)
		}
	})
	if l.rootErr != nil {
		return "", fail("config", "creating the cache directory %s (MCP_SHELL_SANDBOX_CACHE_DIR): %w", l.cacheRoot, l.rootErr)
	}
	return l.cacheRoot, nil
}

func tempCacheDir() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("mcp-shell-server-cache-%d", os.Getuid()))
}

// DefaultCacheDir is the cache root when Config.CacheDir is empty:
// mcp-shell-server beneath os.UserCacheDir ($XDG_CACHE_HOME or
// ~/.cache), or mcp-shell-server-cache-UID beneath the temporary
// directory when the server has no home (or, at start-up, when the
// former cannot be created).
func DefaultCacheDir() string {
	if d, err := os.UserCacheDir(); err == nil && filepath.IsAbs(d) {
		return filepath.Join(d, "mcp-shell-server")
	}
	return tempCacheDir()
}

// Mode returns the effective mode, ModeOff, ModeLimits or ModeLandlock
// (for the start-up line and the audit record): ModeAuto resolves to one
// of the last two.
func (l *Launcher) Mode() string { return l.mode }

// ABI returns the Landlock ABI every launch applies; 0 without Landlock.
func (l *Launcher) ABI() int {
	if l.mode != ModeLandlock {
		return 0
	}
	return l.abi
}

// Confined reports whether launches apply a Landlock ruleset, and so
// whether a call needs a private temporary directory.
func (l *Launcher) Confined() bool { return l.mode == ModeLandlock }

// Fallback says why ModeAuto runs without Landlock, or "".
func (l *Launcher) Fallback() string { return l.fallback }

// CallDir returns an empty private temporary directory (mode 0700,
// beneath os.TempDir()) for one confined call, which its stages may
// write; the caller gives it back with ReleaseCallDir once every process
// of the call is gone. A directory a call leaves empty serves a later
// call (see calldir.go).
func (l *Launcher) CallDir() (string, error) { return l.dirs.get() }

// ReleaseCallDir takes back a directory CallDir returned: kept for a
// later call when it is empty, removed in the background otherwise.
func (l *Launcher) ReleaseCallDir(dir string) { l.dirs.release(dir) }

// Close removes the directories kept for later calls and waits for the
// background removals. The launcher stays usable. Safe on a nil
// Launcher.
func (l *Launcher) Close() {
	if l != nil {
		l.dirs.close()
	}
}

// CacheDir returns the root of the server-managed cache directories
// (created at first use), "" in mode off.
func (l *Launcher) CacheDir() string { return l.cacheRoot }

// Start starts one stage with attr (its Sys, when set, is kept and only
// gains Ptrace) and returns the running process: its execve has
// succeeded. The environment gains the stage's cache variables. The
// error is a *StartError (the stage was not started; nothing is left to
// reap).
func (l *Launcher) Start(st Stage, attr *os.ProcAttr) (*os.Process, error) {
	if l.mode == ModeOff {
		p, err := os.StartProcess(st.Path, st.Argv, attr)
		if err != nil {
			return nil, execError(st.Path, err)
		}
		return p, nil
	}
	pl, err := l.plan(st, attr.Env)
	if err != nil {
		return nil, startError(err)
	}
	a := *attr
	a.Env = pl.env
	if l.method() {
		return l.startReexec(st.Path, st.Argv, &a, pl)
	}
	return l.threads.start(st.Path, st.Argv, &a, pl)
}

// plan is what one launch applies.
type plan struct {
	landlock bool
	policy   policy
	filter   bool
	rlimits  []rlimit
	env      []string
}

// plan derives the stage's ruleset from its program's profile, and its
// environment from its family's caches.
func (l *Launcher) plan(st Stage, env []string) (plan, error) {
	pl := plan{rlimits: l.rlimits, env: env}
	prof := l.profiles.get(st.Argv[0], st.Path, envPath(env), l.cfg.Exec)
	write := append(slices.Clone(l.cfg.WriteDirs), st.Writable...)
	if prof.fam == nil || len(prof.fam.Caches) == 0 {
		return l.confinePlan(pl, prof, st, env, write), nil
	}
	root, err := l.cacheRootDir()
	if err != nil {
		return pl, err
	}
	for _, c := range caches(prof.fam, env, root) {
		if err := l.makeDir(c.dir); err != nil {
			return pl, err
		}
		if c.env != "" {
			pl.env = append(slices.Clip(pl.env), c.env)
		}
		write = append(write, c.dir)
	}
	return l.confinePlan(pl, prof, st, env, write), nil
}

// confinePlan adds the stage's Landlock policy in mode landlock.
func (l *Launcher) confinePlan(pl plan, prof profile, st Stage, env, write []string) plan {
	if l.mode != ModeLandlock {
		return pl
	}
	net := network(l.cfg.Network, prof.fam, st.Argv)
	pl.landlock, pl.filter = true, !net && l.filter
	read := l.leafRead
	if prof.run {
		read = l.cfg.readDirs()
	}
	if home := homeConfig(prof.fam, env); home != nil {
		read = append(slices.Clip(read), home...)
	}
	pl.policy = policy{ABI: l.abi, Net: net, Read: read, Exec: prof.exec, Write: write, Run: prof.run, held: l.held}
	return pl
}

// makeDir creates a cache directory (mode 0700) the first time a stage
// needs it.
func (l *Launcher) makeDir(dir string) error {
	if _, ok := l.dirsMade.Load(dir); ok {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail("config", "creating the cache directory (MCP_SHELL_SANDBOX_CACHE_DIR): %w", err)
	}
	l.dirsMade.Store(dir, true)
	return nil
}

// method reports whether stages start through the re-executed launcher,
// waiting for the start-up probe the first time.
func (l *Launcher) method() bool {
	l.methodOnce.Do(func() { l.reexec.Store(len(l.rlimits) > 0 && !traceWorks()) })
	return l.reexec.Load()
}

// Method names how stages start, for the start-up line: "thread" (from a
// restricted thread of the server), "reexec" (through the re-executed
// server binary) or "direct" (mode off).
func (l *Launcher) Method() string {
	switch {
	case l.mode == ModeOff:
		return "direct"
	case l.method():
		return "reexec"
	default:
		return "thread"
	}
}

// envPath returns the first PATH in env, the one the child's getenv sees.
func envPath(env []string) string {
	v, _ := lookupEnv(env, "PATH")
	return v
}

// setMethod fixes how stages start (tests of both methods).
func (l *Launcher) setMethod(reexec bool) {
	l.methodOnce.Do(func() {})
	l.reexec.Store(reexec)
}
