//go:build linux

// The subreaper's process-tree tracker (procfs walks, pidfds): Linux only (mech_other.go has the stand-ins elsewhere).

package lifetime

import (
	"log/slog"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/procfs"
)

// scanPeriod is how often the tracker walks the trees of running calls in
// subreaper mode. A descendant is bound to its call exactly once a walk
// has seen it; one that leaves its session and loses its parent within a
// period is bound by start time instead (see attribute). 50 ms keeps that
// window short while a walk of a few processes costs microseconds.
const scanPeriod = 50 * time.Millisecond

// killRounds bounds the kill loop of one call: each round SIGKILLs every
// known process of the call, and processes forked just before their parent
// died surface, re-parented to the server, in the next. A round can only
// find processes that existed before the previous one's SIGKILL, so the
// loop ends; the bound only stops a runaway.
const killRounds = 64

// tracker binds processes to calls where no cgroup can (subreaper mode).
// The server is a child subreaper, so every orphaned descendant of a call
// becomes the server's child instead of init's; the tracker records each
// call's process tree as it is seen, so that it knows which call such an
// orphan came from.
type tracker struct {
	self int
	// selfSid is the server's session. Every stage starts in a session of
	// its own, and a process can only inherit its session or start a new
	// one, so a child of the server in this session is one the server
	// started for itself (the sandbox's start-up check of ptrace), never a
	// call's: the walk leaves it alone.
	selfSid int
	// forkMu is the Manager's: a walk holds it so that no child is
	// between fork and registration while the server's children are read
	// (it would look like an orphan). Taken before mu.
	forkMu *sync.Mutex
	owned  func(pid int) bool // stages and the watchdog (the Manager's registry)
	feed   func(line string)  // to the watchdog; nil without one
	log    *slog.Logger

	mu      sync.Mutex
	procs   map[int]*tracked
	running map[*Call]struct{}
	stop    chan struct{} // stops the periodic walk; nil while no call runs
}

// tracked is one recorded process.
type tracked struct {
	start uint64
	stage bool    // started by the runner: its pid is also its session id
	calls []*Call // one call; several when an orphan could not be told apart
}

func newTracker(forkMu *sync.Mutex, owned func(int) bool, log *slog.Logger) *tracker {
	sid, _ := unix.Getsid(0)
	return &tracker{self: os.Getpid(), selfSid: sid, forkMu: forkMu, owned: owned, log: log, procs: map[int]*tracked{}, running: map[*Call]struct{}{}}
}

// begin registers a running call.
func (t *tracker) begin(c *Call) {
	c.startTicks = bootTicks()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.running[c] = struct{}{}
	if t.stop == nil {
		t.stop = make(chan struct{})
		go t.walkEvery(t.stop)
	}
}

func (t *tracker) walkEvery(stop <-chan struct{}) {
	tk := time.NewTicker(scanPeriod)
	defer tk.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tk.C:
			t.scan()
		}
	}
}

// addStage records a stage the runner started for c.
func (t *tracker) addStage(c *Call, pid int) {
	st, err := procfs.ReadStat(pid)
	if err != nil {
		return // cannot happen for an unreaped child; the kill loop still has the group
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.record(pid, &tracked{start: st.Start, stage: true, calls: []*Call{c}})
}

// record adds a process and tells the watchdog. Callers hold t.mu.
func (t *tracker) record(pid int, r *tracked) {
	t.procs[pid] = r
	if t.feed != nil {
		kind := "+"
		if r.stage {
			kind = "s"
		}
		t.feed(kind + " " + strconv.Itoa(pid) + " " + strconv.FormatUint(r.start, 10))
	}
}

// forget drops a record. Callers hold t.mu.
func (t *tracker) forget(pid int) {
	delete(t.procs, pid)
	if t.feed != nil {
		t.feed("- " + strconv.Itoa(pid))
	}
}

// end unregisters c and drops what only c owned.
func (t *tracker) end(c *Call) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.running, c)
	for pid, r := range t.procs {
		if i := slices.Index(r.calls, c); i >= 0 {
			r.calls = slices.Delete(r.calls, i, i+1)
			if len(r.calls) == 0 {
				t.forget(pid)
			}
		}
	}
	if len(t.running) == 0 && t.stop != nil {
		close(t.stop)
		t.stop = nil
	}
}

// scan walks the recorded trees and the server's own children: new
// descendants of a recorded process join its calls, orphans re-parented
// to the server are attributed, records of processes that are gone are
// dropped, and an orphan no running call can own is killed.
func (t *tracker) scan() {
	t.forkMu.Lock()
	defer t.forkMu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	var queue []int
	kids, _ := procfs.Children(t.self)
	for _, pid := range kids {
		if t.owned(pid) {
			continue
		}
		// A zombie is recorded too: /proc shows a process whose first
		// thread has exited as a zombie while its other threads still run,
		// so only its pidfd tells when it is gone (see members).
		st, err := procfs.ReadStat(pid)
		if err != nil || t.known(pid, st.Start) || st.Sid == t.selfSid {
			continue
		}
		calls := t.attribute(st)
		if len(calls) == 0 {
			if fd := pidfdOf(pid, st.Start); fd >= 0 {
				if !exited(fd) {
					signalPidfd(fd, unix.SIGKILL)
					t.log.Warn("killed a process that belongs to no running call", "pid", pid, "session", st.Sid)
				}
				unix.Close(fd)
			}
			continue
		}
		t.record(pid, &tracked{start: st.Start, calls: calls})
		queue = append(queue, pid)
	}
	for pid := range t.procs {
		queue = append(queue, pid)
	}
	seen := map[int]bool{}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		r := t.procs[pid]
		if r == nil || seen[pid] {
			continue
		}
		seen[pid] = true
		st, err := procfs.ReadStat(pid)
		if err != nil || st.Start != r.start {
			if !r.stage { // a stage's record lives until its call ends: its pid names the session
				t.forget(pid)
			}
			continue
		}
		kids, _ := procfs.Children(pid) // every thread's, so also those of a zombie leader's live threads
		for _, k := range kids {
			kst, err := procfs.ReadStat(k)
			if err != nil || t.known(k, kst.Start) {
				continue
			}
			t.record(k, &tracked{start: kst.Start, calls: slices.Clone(r.calls)})
			queue = append(queue, k)
		}
	}
}

// known reports whether the process pid that started at start is
// recorded (a record of an earlier process with a reused pid is not it).
// Callers hold t.mu.
func (t *tracker) known(pid int, start uint64) bool {
	r := t.procs[pid]
	return r != nil && r.start == start
}

// attribute decides which running calls an orphan the walks have not seen
// belongs to. It is the call whose stage leads the orphan's session or
// process group (a descendant that did not call setsid). Otherwise it is
// every call that had started when the orphan was born: it then dies with
// the first of them to end, earlier than its own call's end perhaps, never
// later. Callers hold t.mu.
func (t *tracker) attribute(st procfs.Stat) []*Call {
	for _, id := range []int{st.Sid, st.Pgrp} {
		if r := t.procs[id]; r != nil && r.stage {
			return slices.Clone(r.calls)
		}
	}
	var out []*Call
	for c := range t.running {
		if c.startTicks <= st.Start {
			out = append(out, c)
		}
	}
	return out
}

// members returns pidfds of the live recorded processes of c (every
// process when c is nil). The caller closes them.
func (t *tracker) members(c *Call) []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	var fds []int
	for pid, r := range t.procs {
		if c != nil && !slices.Contains(r.calls, c) {
			continue
		}
		if fd := pidfdOf(pid, r.start); fd >= 0 {
			fds = append(fds, fd)
		}
	}
	return fds
}

// signal sends sig to every process of c the tracker knows.
func (t *tracker) signal(c *Call, sig unix.Signal) {
	t.scan()
	for _, fd := range t.members(c) {
		signalPidfd(fd, sig)
		unix.Close(fd)
	}
}

// kill SIGKILLs every process of c (every process of every call when c is
// nil) until none is left: killed processes' children re-parent to the
// server, are attributed by the next scan and killed in the next round.
// reap collects the server's orphaned zombies between rounds.
func (t *tracker) kill(c *Call, reap func()) {
	for range killRounds {
		t.scan()
		fds := t.members(c)
		alive := fds[:0]
		for _, fd := range fds {
			if exited(fd) {
				unix.Close(fd)
				continue
			}
			alive = append(alive, fd)
		}
		if len(alive) == 0 {
			return
		}
		for _, fd := range alive {
			signalPidfd(fd, unix.SIGKILL)
		}
		waitPidfds(alive, cgroupWait)
		for _, fd := range alive {
			unix.Close(fd)
		}
		reap()
	}
	t.log.Warn("processes of a call still appear after the kill rounds", "rounds", killRounds)
}

// exited reports whether the process behind fd has exited (a pidfd polls
// readable once it has).
func exited(fd int) bool {
	n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 0)
	return err == nil && n > 0
}

// waitPidfds waits until every process behind fds has exited, or timeout.
func waitPidfds(fds []int, timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	pfds := make([]unix.PollFd, len(fds))
	for i, fd := range fds {
		pfds[i] = unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}
	}
	for {
		pending := pfds[:0]
		for _, p := range pfds {
			if p.Revents&(unix.POLLIN|unix.POLLHUP|unix.POLLERR) == 0 {
				p.Revents = 0
				pending = append(pending, p)
			}
		}
		pfds = pending
		left := time.Until(deadline)
		if len(pfds) == 0 || left <= 0 {
			return
		}
		if _, err := unix.Poll(pfds, int(left.Milliseconds())+1); err != nil && err != unix.EINTR {
			return
		}
	}
}
