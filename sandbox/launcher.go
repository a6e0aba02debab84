package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// Launcher starts the stages of every call under the confinement their
// plan states (plan.Confinement, decided by its Rules). It is built once
// at start-up and safe for concurrent use.
type Launcher struct {
	*Rules
	rlimits []rlimit
	held    *heldPaths
	filter  bool // the seccomp filter exists for this architecture
	// scope is the ruleset every stage restricts itself with inside its
	// thread's domain (scopeRuleset); nil without Landlock. It stays open
	// for the process's life.
	scope *os.File
	// readOnly gives every restricted thread a read-only mount namespace
	// but for its stage's writable trees (mountns_linux.go);
	// readOnlyWhyNot says why not.
	readOnly       bool
	readOnlyWhyNot string
	exe            string
	// reexec is decided once (decideMethod), then methodSet is closed:
	// false starts stages from a restricted thread, true through the
	// re-executed launcher.
	methodOnce sync.Once
	methodSet  chan struct{}
	reexec     atomic.Bool
	dirsMade   sync.Map // cache directories created so far
	dirs       callDirs // the calls' private temporary directories
	threads    threadPool
}

// NewLauncher builds the Rules for cfg (NewRules) and prepares what
// every launch shares: the rlimits and the descriptors of the paths every
// ruleset names.
func NewLauncher(cfg Config) (*Launcher, error) {
	rules, err := NewRules(cfg)
	if err != nil {
		return nil, err
	}
	l := &Launcher{Rules: rules, filter: filterAvailable()}
	if l.mode == ModeOff {
		return l, nil
	}
	if l.rlimits, err = rlimits(cfg.Limits); err != nil {
		return nil, err
	}
	if l.mode == ModeLandlock {
		l.held = holdPaths(l.leafRead, cfg.readDirs(), cfg.WriteDirs, deviceRW, deviceRO, []string{"/"})
		fd, err := scopeRuleset(l.abi)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		l.scope = os.NewFile(uintptr(fd), "landlock-stage-scope")
		if err := probeReadOnlyWorld(); err != nil {
			l.readOnlyWhyNot = err.Error()
		} else {
			l.readOnly = true
		}
	}
	l.exe, _ = os.Executable()
	l.decideMethod() // probes off the start-up path
	return l, nil
}

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

// Filtered reports whether every stage runs under the seccomp allowlist.
func (l *Launcher) Filtered() bool { return l.mode != ModeOff && l.filter }

// ReadOnlyMounts reports whether stages see every mount but their
// writable trees read-only (so that no metadata outside them can change),
// and why not when they do not.
func (l *Launcher) ReadOnlyMounts() (bool, string) { return l.readOnly, l.readOnlyWhyNot }

// Start starts one stage of a plan with attr, whose Env must be the
// stage's (plan.Stage.Env) and whose Sys, when set, is kept and only
// gains Ptrace, and returns the running process: its execve of
// st.Program.ExecPath has succeeded. The error is a *StartError (the
// stage was not started; nothing is left to reap).
func (l *Launcher) Start(st *plan.Stage, attr *os.ProcAttr) (*os.Process, error) {
	return l.StartContext(context.Background(), st, attr)
}

// StartContext is Start bounded by ctx: once ctx is done, the stage being
// started is killed wherever its start is (waiting for the start-up check
// of ptrace, forked, stopped for its confinement, in the re-executed
// launcher) and the error is a *StartError with Step "deadline" wrapping
// context.Cause(ctx). A stage whose start ends after ctx is done is never
// handed out.
func (l *Launcher) StartContext(ctx context.Context, st *plan.Stage, attr *os.ProcAttr) (*os.Process, error) {
	path := st.Program.ExecPath()
	if l.mode == ModeOff {
		p, err := os.StartProcess(path, st.Argv, attr)
		if err != nil {
			return nil, execError(path, err)
		}
		return p, nil
	}
	ln, err := l.applied(st.Confinement)
	if err != nil {
		return nil, startError(err)
	}
	if ln.readOnly {
		if ln.dir, err = os.Readlink(attr.Dir); err != nil || !filepath.IsAbs(ln.dir) {
			ln.dir = attr.Dir // a plain path: resolved again in the thread's namespace
		}
	}
	select {
	case <-l.decideMethod():
	case <-ctx.Done():
		return nil, cutShort(ctx, "waiting for the start-up check of ptrace")
	}
	if l.reexec.Load() {
		return l.startReexec(ctx, path, st.Argv, attr, ln)
	}
	return l.threads.start(ctx, path, st.Argv, attr, ln)
}

// applied is what one start applies: the thread's (or the re-executed
// launcher's) Landlock ruleset, and what the stage itself installs (its
// nested domain, its seccomp filter; nil: none).
type applied struct {
	landlock bool
	policy   policy
	filter   *filterKind
	rlimits  []rlimit
	scope    *os.File // the scoping ruleset, nil without Landlock
	readOnly bool     // a read-only world but for policy.Write
	dir      string   // the working directory's path (readOnly)
}

// traced reports whether the stage stops after its execve for its
// tracer to finish confining it.
func (a applied) traced() bool { return len(a.rlimits) > 0 || a.scope != nil || a.filter != nil }

// applied turns a stage's confinement into what its start applies,
// creating its cache directories first.
func (l *Launcher) applied(c plan.Confinement) (applied, error) {
	ln := applied{rlimits: l.rlimits}
	for _, d := range c.Create {
		if err := l.makeDir(d); err != nil {
			return ln, err
		}
	}
	if l.filter {
		// Without Landlock the network is not the sandbox's to withhold
		// (mode limits promises rlimits and no_new_privs); the filter
		// still takes away the calls no stage needs.
		ln.filter = &filterKind{network: true, unixSockets: true}
	}
	if l.mode != ModeLandlock {
		return ln, nil
	}
	if ln.filter != nil {
		// From ABI 9 Landlock itself restricts pathname UNIX sockets.
		// Below ABI 9 nothing restricts which pathname socket a
		// socket(AF_UNIX) reaches (ssh-agent, gpg-agent, the session
		// bus), so only a stage its family's agents need it for gets
		// one: the network does not imply it.
		ln.filter = &filterKind{network: c.Network, unixSockets: l.abi >= 9 || len(c.Sockets) > 0}
	}
	ln.landlock, ln.scope, ln.readOnly = true, l.scope, l.readOnly
	ln.policy = policy{ABI: l.abi, Net: c.Network, Read: c.Read, Exec: c.Exec, Write: c.Write, Run: c.RunAny, Sockets: c.Sockets, held: l.held}
	return ln, nil
}

// makeDir creates a cache directory (mode 0700) the first time a stage
// needs it; beneath the temporary directory the cache root must be this
// user's alone (another user could have created it first, to plant build
// caches).
func (l *Launcher) makeDir(dir string) error {
	if _, ok := l.dirsMade.Load(dir); ok {
		return nil
	}
	if root := tempCacheDir(); l.cacheRoot == root && strings.HasPrefix(dir, root+string(filepath.Separator)) {
		if err := ownDir(root); err != nil {
			return fail("config", "creating the cache directory %s (MCP_SHELL_SANDBOX_CACHE_DIR): %w", root, err)
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail("config", "creating the cache directory %s (MCP_SHELL_SANDBOX_CACHE_DIR): %w", dir, err)
	}
	l.dirsMade.Store(dir, true)
	return nil
}

// decideMethod starts, the first time, the check that decides whether
// stages start through the re-executed launcher (off the caller's path),
// and returns a channel closed once reexec holds the answer.
func (l *Launcher) decideMethod() <-chan struct{} {
	l.methodOnce.Do(func() {
		l.methodSet = make(chan struct{})
		go func() {
			defer close(l.methodSet)
			traced := len(l.rlimits) > 0 || l.filter || l.mode == ModeLandlock
			l.reexec.Store(traced && (!injectSupported || !traceWorks()))
		}()
	})
	return l.methodSet
}

// method reports whether stages start through the re-executed launcher,
// waiting for the start-up check the first time.
func (l *Launcher) method() bool {
	<-l.decideMethod()
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
