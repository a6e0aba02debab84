package lifetime

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Mechanism names how the descendants of a call are bound to it. It is
// the start-up line's and the audit record's "lifetime" value.
type Mechanism string

// Mechanisms, best first.
const (
	// Cgroup: every call runs in a cgroup v2 of its own, beneath the
	// server's cgroup; cgroup.kill ends all its processes, wherever they
	// moved in the process tree or which session they started.
	Cgroup Mechanism = "cgroup"
	// Subreaper: the server is a child subreaper (PID 1 is one by nature),
	// so orphaned descendants of calls re-parent to it; each call's tree is
	// recorded as it is seen and killed when the call ends.
	Subreaper Mechanism = "subreaper"
	// Session: neither; only each stage's session (its process group) is
	// killed, and a descendant that leaves it with setsid(2) or setpgid(2)
	// is not. The mechanism without Setup, and where prctl fails.
	Session Mechanism = "session"
	// Pgroup: macOS, which has neither cgroups, a subreaper nor a
	// parent-death signal: as Session, each stage's process group is
	// killed, and nothing else.
	Pgroup Mechanism = "pgroup"
	// Job: Windows; every call's processes are in a Job Object of its own
	// (KILL_ON_JOB_CLOSE), whose termination ends all of them, including
	// descendants, and which dies with the server's handle.
	Job Mechanism = "job"
)

// Options configure Setup.
type Options struct {
	// Mechanism "" chooses: Cgroup where the server can create cgroups
	// beneath its own, Subreaper otherwise. Cgroup or Subreaper require that
	// one, and Setup fails when it is not available.
	Mechanism Mechanism
	// Exe is the binary re-executed as the watchdog; "" means
	// os.Executable(). It must call RunWatchdog on WatchdogArg.
	Exe string
	// Log receives diagnostics; nil discards them.
	Log *slog.Logger
}

// Manager is the process's lifetime mechanism. One per process: Setup
// installs it, Default returns it.
type Manager struct {
	mech    Mechanism
	reason  string // why a better mechanism is not in force
	pid1    bool
	reaping bool // orphans are handed to the server: reap them
	log     *slog.Logger

	cg *cgroupTree // Cgroup
	tr *tracker    // Subreaper
	wd *watchdog   // nil in Session mode

	// forkMu is held while a child is forked and registered, by the reaper
	// and by the tracker's walks, so that neither takes a child for an
	// orphan. Taken before the tracker's lock.
	forkMu sync.Mutex
	// ownedMu guards owned; it is taken last and never held while taking
	// another lock.
	ownedMu sync.Mutex
	owned   map[int]struct{} // children whose owner waits for them

	closed atomic.Bool
}

var (
	current  atomic.Pointer[Manager]
	fallback = sync.OnceValue(func() *Manager { return newManager(platformMechanism, nil) })
)

func newManager(mech Mechanism, log *slog.Logger) *Manager {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Manager{mech: mech, log: log, owned: map[int]struct{}{}, pid1: os.Getpid() == 1}
}

// Default returns the Manager Setup installed, or else one with the
// platform's own mechanism, platformMechanism: Session on Linux (stages
// still get their own session and the parent-death signal, and are forked
// on the forker thread), Pgroup on macOS, Job on Windows.
func Default() *Manager {
	if m := current.Load(); m != nil {
		return m
	}
	return fallback()
}

// WatchdogArg is os.Args[1] of the hidden watchdog mode. main (and every
// test binary that calls Setup) must run RunWatchdog(os.Args[2:]) when it
// sees it, before anything else.
const WatchdogArg = "__mcp-shell-server-lifetime-watchdog"

// ErrAlreadySetUp is returned by a second Setup.
var ErrAlreadySetUp = errors.New("lifetime: Setup already ran in this process")

// ErrClosed is returned by NewCall after Close.
var ErrClosed = errors.New("the server is shutting down")

// Setup chooses and installs the process's lifetime mechanism (see the
// package doc). It fails only when o.Mechanism requires one that is not
// available, or on a second call; otherwise it falls back and says why in
// Reason.
func Setup(o Options) (*Manager, error) {
	m := newManager(platformMechanism, o.Log)
	var why []string
	exe := o.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			exe = ""
			why = append(why, "no watchdog: finding the server binary: "+err.Error())
		}
	}
	want := o.Mechanism
	if want == "" || want == Cgroup {
		if err := m.setupCgroup(exe); err != nil {
			if want == Cgroup {
				return nil, fmt.Errorf("lifetime mechanism cgroup: %w", err)
			}
			why = append(why, "no cgroup: "+err.Error())
		}
	}
	if m.mech == platformMechanism && (want == "" || want == Subreaper) {
		wdErr, err := m.setupSubreaper(exe)
		switch {
		case err != nil && want == Subreaper:
			return nil, fmt.Errorf("lifetime mechanism subreaper: %w", err)
		case err != nil:
			why = append(why, "no subreaper: "+err.Error())
		case wdErr != nil:
			why = append(why, "no watchdog: "+wdErr.Error())
		}
	}
	if want == Session {
		why = append(why, "chosen by the caller")
	}
	m.reason = strings.Join(why, "; ")
	m.reaping = m.pid1 || m.mech == Subreaper // before m is published: read without a lock
	if !current.CompareAndSwap(nil, m) {
		m.Close()
		return nil, ErrAlreadySetUp
	}
	if m.reaping {
		go m.reapLoop()
	}
	return m, nil
}

// Mechanism returns the mechanism in force.
func (m *Manager) Mechanism() Mechanism { return m.mech }

// Reason says why a better mechanism is not in force ("" for Cgroup).
func (m *Manager) Reason() string { return m.reason }

// LogAttrs describe the mechanism for the start-up line.
func (m *Manager) LogAttrs() []any {
	attrs := []any{"mechanism", string(m.mech), "pid1", m.pid1, "reaper", m.reaping}
	if m.cg != nil {
		attrs = append(attrs, "cgroup", m.cg.calls)
	}
	if m.wd != nil {
		attrs = append(attrs, "watchdog_pid", m.wd.p.Pid)
	}
	if m.reason != "" {
		attrs = append(attrs, "reason", m.reason)
	}
	return attrs
}

// Refresh walks the recorded process trees now (Subreaper mode; no-op
// otherwise). The manager walks them every scanPeriod on its own; Refresh
// gives a caller (a test) a point after which every process alive
// beforehand is recorded.
func (m *Manager) Refresh() {
	if m.tr != nil {
		m.tr.scan()
	}
}

// Close kills every process of every call, stops the watchdog and
// removes the cgroups. NewCall fails afterwards. Calls still running see
// their processes die.
func (m *Manager) Close() {
	if m.closed.Swap(true) {
		return
	}
	switch {
	case m.cg != nil:
		if err := killCgroup(m.cg.calls); err != nil {
			m.log.Warn("killing the call cgroups at exit", "err", err)
		}
	case m.tr != nil:
		m.tr.kill(nil, m.reap)
	}
	if m.wd != nil {
		m.wd.stop(2 * time.Second)
	}
	if m.cg != nil {
		m.cg.remove()
	}
	m.reap()
}

// start forks a child on the forker thread and registers it as owned;
// onStarted runs before the reaper can look at the child.
func (m *Manager) start(start func() (*os.Process, error), onStarted func(pid int)) (p *os.Process, err error) {
	m.forkMu.Lock()
	defer m.forkMu.Unlock()
	p, err = start()
	if err != nil {
		return nil, err
	}
	m.ownedMu.Lock()
	m.owned[p.Pid] = struct{}{}
	m.ownedMu.Unlock()
	if onStarted != nil {
		onStarted(p.Pid)
	}
	return p, nil
}

func (m *Manager) isOwned(pid int) bool {
	m.ownedMu.Lock()
	defer m.ownedMu.Unlock()
	_, ok := m.owned[pid]
	return ok
}

func (m *Manager) release(pid int) {
	m.ownedMu.Lock()
	delete(m.owned, pid)
	m.ownedMu.Unlock()
}

// Call binds the processes of one call. Its methods are safe for
// concurrent use.
type Call struct {
	m          *Manager
	cg         *cgroupCall // Cgroup
	os         callOS      // Job (Windows); empty elsewhere
	startTicks uint64      // Subreaper: when the call began, in procfs.Stat.Start units
	end        sync.Once
}

// NewCall begins a call. In Cgroup mode it creates the call's cgroup; an
// error then means the call must not run.
func (m *Manager) NewCall() (*Call, error) {
	if m.closed.Load() {
		return nil, ErrClosed
	}
	c := &Call{m: m}
	switch m.mech {
	case Cgroup:
		cg, err := m.cg.newCall()
		if err != nil {
			return nil, fmt.Errorf("creating the call's cgroup: %w", err)
		}
		c.cg = cg
	case Subreaper:
		m.tr.begin(c)
	}
	if err := c.os.open(); err != nil {
		return nil, err
	}
	return c, nil
}

// Mechanism returns the mechanism binding this call.
func (c *Call) Mechanism() Mechanism { return c.m.mech }

// CgroupFD returns the call's cgroup directory descriptor for
// SysProcAttr.CgroupFD (with UseCgroupFD), or -1 when the call has no
// cgroup.
func (c *Call) CgroupFD() int {
	if c.cg == nil {
		return -1
	}
	return c.cg.fd
}

// Start forks a stage of the call on the forker thread (see forker.go for
// why the parent-death signal needs it) and registers it, so that the
// reaper leaves it to the caller, who must reap it (os.Process.Wait) and
// then call Reaped. attr.Sys is the caller's: the package sets nothing in
// it.
func (c *Call) Start(path string, argv []string, attr *os.ProcAttr) (*os.Process, error) {
	return c.StartWith(func() (p *os.Process, err error) {
		onForker(func() { p, err = os.StartProcess(path, argv, attr) })
		return p, err
	})
}

// StartWith is Start with another way of forking (the sandbox's
// restricted thread): start must fork from a thread that lives until the
// process exits, since attr's parent-death signal refers to that thread.
func (c *Call) StartWith(start func() (*os.Process, error)) (*os.Process, error) {
	var onStarted func(int)
	if c.m.tr != nil {
		onStarted = func(pid int) { c.m.tr.addStage(c, pid) }
	}
	return c.m.start(c.os.bind(start), onStarted)
}

// Reaped tells the manager that the caller has reaped p, a process from
// Start.
func (c *Call) Reaped(p *os.Process) { c.m.release(p.Pid) }

// Signal sends sig to every process of the call the mechanism can see:
// the whole cgroup, or the recorded tree. In Session mode it does nothing
// (the caller signals the stages' sessions).
func (c *Call) Signal(sig syscall.Signal) {
	switch {
	case c.cg != nil:
		c.cg.signal(sig)
	case c.m.tr != nil:
		c.m.tr.signal(c, sig)
	}
}

// Kill SIGKILLs every process of the call and returns once they have
// exited, or after a bound when one is stuck in the kernel. In Session
// mode it does nothing.
func (c *Call) Kill() {
	switch {
	case c.cg != nil:
		if err := c.cg.kill(); err != nil {
			c.m.log.Warn("killing a call's cgroup", "err", err)
		}
	case c.m.tr != nil:
		c.m.tr.kill(c, c.m.reap)
	}
	c.os.kill()
	c.m.reap() // orphans the kill left as zombies of the server
}

// End kills what is left of the call and releases its cgroup. Call it
// once every stage has been reaped; later calls do nothing.
func (c *Call) End() {
	c.end.Do(func() {
		c.Kill()
		switch {
		case c.cg != nil:
			c.m.cg.release(c.cg)
		case c.m.tr != nil:
			c.m.tr.end(c)
		}
		c.os.close()
	})
}
