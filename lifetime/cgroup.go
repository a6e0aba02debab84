//go:build linux

// The cgroup v2 mechanism: Linux only (mech_other.go has the stand-ins elsewhere).

package lifetime

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// cgroupWait bounds how long killing a cgroup waits for its processes to
// exit. SIGKILLed processes exit within milliseconds; only one stuck in
// uninterruptible sleep (a dead NFS server, a FUSE daemon) takes longer,
// and waiting for it forever would hang the call.
const cgroupWait = 5 * time.Second

// cgroupTree is the server's own cgroup v2 subtree:
//
//	<server's cgroup>/mcp-shell-server-<pid>-<random>/
//	    watchdog/      the watchdog process (see watchdog.go)
//	    calls/<n>/     one per running call
//
// No controller is enabled anywhere in it: only cgroup.procs,
// cgroup.events and cgroup.kill are used, which every cgroup v2 has, so
// the "no internal processes" rule never applies.
type cgroupTree struct {
	own   string // the server's cgroup directory
	root  string // own/mcp-shell-server-...
	calls string // root/calls
	rel   string // root as /proc/<pid>/cgroup names it (for membership)
	seq   atomic.Uint64
	// idle are call cgroups that ended empty, kept for later calls: a
	// mkdir and an rmdir in cgroupfs cost about as much as the rest of a
	// call's cgroup work (BenchmarkCgroupCallOverhead).
	mu   sync.Mutex
	idle []*cgroupCall
}

// maxIdleCgroups bounds the call cgroups kept for reuse: one per call
// that can run at once under the default concurrency bound, which is
// what a burst needs; more would only hold descriptors.
const maxIdleCgroups = 64

// findCgroup2 returns the directory of the server's own cgroup v2 and its
// path in /proc/self/cgroup notation, from the "0::" line of
// /proc/self/cgroup and the cgroup2 mounts of /proc/self/mountinfo.
func findCgroup2() (dir, rel string, err error) {
	cg, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", "", err
	}
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", "", err
	}
	return locateCgroup2(cg, mi)
}

// locateCgroup2 is findCgroup2 on the two files' contents.
func locateCgroup2(cgroupFile, mountinfo []byte) (dir, rel string, err error) {
	for line := range strings.SplitSeq(string(cgroupFile), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			rel = p
		}
	}
	if rel == "" || !strings.HasPrefix(rel, "/") {
		return "", "", errors.New("the process is in no cgroup v2 hierarchy (no 0:: line in /proc/self/cgroup)")
	}
	sc := bufio.NewScanner(bytes.NewReader(mountinfo))
	for sc.Scan() {
		// id parent major:minor root mountpoint options [optional...] - fstype source superoptions
		f := strings.Fields(sc.Text())
		sep := -1
		for i, w := range f {
			if w == "-" {
				sep = i
				break
			}
		}
		if sep < 5 || sep+1 >= len(f) || f[sep+1] != "cgroup2" {
			continue
		}
		root, mnt := unescapeMount(f[3]), unescapeMount(f[4])
		if sub, ok := within(rel, root); ok {
			return path.Join(mnt, sub), rel, nil
		}
	}
	return "", "", fmt.Errorf("no cgroup2 mount shows the server's cgroup %s", rel)
}

// within returns p relative to root when p is root or beneath it.
func within(p, root string) (string, bool) {
	if root == "/" {
		return p, true
	}
	if p == root {
		return "/", true
	}
	if rest, ok := strings.CutPrefix(p, root+"/"); ok {
		return "/" + rest, true
	}
	return "", false
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// newCgroupTree creates the server's subtree beneath its own cgroup. It
// fails when the hierarchy is not writable (not root and not delegated,
// a read-only cgroupfs in a container) or the kernel has no cgroup.kill
// (Linux < 5.14).
func newCgroupTree() (*cgroupTree, error) {
	own, rel, err := findCgroup2()
	if err != nil {
		return nil, err
	}
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	name := fmt.Sprintf("mcp-shell-server-%d-%s", os.Getpid(), hex.EncodeToString(rnd[:]))
	t := &cgroupTree{own: own, root: path.Join(own, name), rel: path.Join(rel, name)}
	t.calls = path.Join(t.root, "calls")
	for _, d := range []string{t.root, t.calls, t.watchdogDir()} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.remove()
			return nil, err
		}
	}
	if _, err := os.Stat(path.Join(t.calls, "cgroup.kill")); err != nil {
		t.remove()
		return nil, fmt.Errorf("no cgroup.kill (Linux 5.14+): %w", err)
	}
	return t, nil
}

func (t *cgroupTree) watchdogDir() string { return path.Join(t.root, "watchdog") }

// remove deletes what is left of the subtree (empty cgroups only; errors
// are ignored, a cgroup still in use stays).
func (t *cgroupTree) remove() {
	t.mu.Lock()
	idle := t.idle
	t.idle = nil
	t.mu.Unlock()
	for _, c := range idle {
		c.remove()
	}
	removeCgroupTree(t.root)
}

// removeCgroupTree removes dir and the cgroups beneath it, deepest first.
func removeCgroupTree(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.IsDir() {
			removeCgroupTree(path.Join(dir, e.Name()))
		}
	}
	_ = unix.Rmdir(dir)
}

// cgroupCall is one call's cgroup.
type cgroupCall struct {
	dir    string
	rel    string // as /proc/<pid>/cgroup shows it
	fd     int    // the directory, for clone3 CLONE_INTO_CGROUP
	events int    // cgroup.events, read with pread: one system call per check
	killed atomic.Bool
}

// newCall returns an idle call cgroup, or creates calls/<n>.
func (t *cgroupTree) newCall() (*cgroupCall, error) {
	t.mu.Lock()
	if n := len(t.idle); n > 0 {
		c := t.idle[n-1]
		t.idle = t.idle[:n-1]
		t.mu.Unlock()
		return c, nil
	}
	t.mu.Unlock()
	n := strconv.FormatUint(t.seq.Add(1), 10)
	c := &cgroupCall{dir: path.Join(t.calls, n), rel: path.Join(t.rel, "calls", n), fd: -1, events: -1}
	if err := os.Mkdir(c.dir, 0o755); err != nil {
		return nil, err
	}
	var err error
	if c.fd, err = unix.Open(c.dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err == nil {
		c.events, err = unix.Open(path.Join(c.dir, "cgroup.events"), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		c.remove()
		return nil, err
	}
	return c, nil
}

// release ends a call's use of c: kept for a later call when it is
// empty (nothing can enter an empty call cgroup but a stage the server
// creates in it) and cgroup.kill was never written to it, removed
// otherwise. A cgroup once killed is never reused: on Linux 6.18 (and
// since cgroup.kill counts kills per cgroup) a process created into it
// with CLONE_INTO_CGROUP is SIGKILLed at birth, as if the old kill were
// still running (TestPID1NoZombiesE2E caught it: the first stage of every
// call reusing a killed cgroup died of SIGKILL within a millisecond).
func (t *cgroupTree) release(c *cgroupCall) {
	if !c.killed.Load() && c.empty() {
		t.mu.Lock()
		if len(t.idle) < maxIdleCgroups {
			t.idle = append(t.idle, c)
			t.mu.Unlock()
			return
		}
		t.mu.Unlock()
	}
	c.remove()
}

// empty reports whether cgroup.events says "populated 0"; false when it
// cannot be read.
func (c *cgroupCall) empty() bool {
	var buf [256]byte
	n, err := unix.Pread(c.events, buf[:], 0)
	return err == nil && populated(buf[:n]) == "0"
}

// signal sends sig to every process in the cgroup. Each pid read from
// cgroup.procs is opened as a pidfd and checked to be in the cgroup after
// opening, so a pid that exited and was reused meanwhile is not signalled.
func (c *cgroupCall) signal(sig unix.Signal) {
	for _, pid := range cgroupProcs(c.dir) {
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue
		}
		if inCgroup(pid, c.rel) {
			signalPidfd(fd, sig)
		}
		unix.Close(fd)
	}
}

// kill SIGKILLs every process in the cgroup and waits until none is left.
// An empty cgroup (the usual case: every stage has exited) needs no
// kill: nothing can enter it but a stage the server creates.
func (c *cgroupCall) kill() error {
	if c.empty() {
		return nil
	}
	c.killed.Store(true)
	return killCgroup(c.dir)
}

// remove closes the descriptors and deletes the (empty) cgroup.
func (c *cgroupCall) remove() {
	for _, fd := range []*int{&c.fd, &c.events} {
		if *fd >= 0 {
			unix.Close(*fd)
			*fd = -1
		}
	}
	_ = unix.Rmdir(c.dir)
}

// cgroupProcs lists cgroup.procs of dir.
func cgroupProcs(dir string) []int {
	b, err := os.ReadFile(path.Join(dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var out []int
	for _, w := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(w); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// inCgroup reports whether pid's cgroup v2 is rel.
func inCgroup(pid int, rel string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return false
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			return p == rel
		}
	}
	return false
}

// killCgroup writes cgroup.kill (which SIGKILLs every process in dir and
// its descendants, including ones forked while it runs) and waits, on
// cgroup.events, until the subtree has no live process. Zombies do not
// count: a killed process leaves the cgroup when it exits, before it is
// reaped.
func killCgroup(dir string) error {
	if err := os.WriteFile(path.Join(dir, "cgroup.kill"), []byte("1"), 0); err != nil {
		return err
	}
	return waitEmpty(dir, cgroupWait)
}

// waitEmpty waits until cgroup.events says "populated 0". The file
// signals a change with POLLPRI (cgroup-v2.rst, "cgroup.events").
func waitEmpty(dir string, timeout time.Duration) error {
	fd, err := unix.Open(path.Join(dir, "cgroup.events"), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	deadline := time.Now().Add(timeout)
	buf := make([]byte, 256)
	for {
		if _, err := unix.Seek(fd, 0, 0); err != nil {
			return err
		}
		n, err := unix.Read(fd, buf)
		if err != nil {
			return err
		}
		if populated(buf[:n]) == "0" {
			return nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return fmt.Errorf("%s: processes still running %v after cgroup.kill", dir, timeout)
		}
		_, err = unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLPRI}}, int(left.Milliseconds())+1)
		if err != nil && err != unix.EINTR {
			return err
		}
	}
}

// populated returns the value of the "populated" key of cgroup.events.
func populated(events []byte) string {
	for line := range strings.SplitSeq(string(events), "\n") {
		if v, ok := strings.CutPrefix(line, "populated "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
