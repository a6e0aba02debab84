//go:build linux

// Tests of the cgroup, subreaper and watchdog mechanisms: Linux only.

package lifetime

import (
	"errors"
	"os"
	"path"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/procfs"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/proctest"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// TestBootTicks: bootTicks counts in the unit of a process's start time.
func TestBootTicks(t *testing.T) {
	self, err := procfs.ReadStat(os.Getpid())
	if now := bootTicks(); err != nil || self.Start == 0 || self.Start > now {
		t.Errorf("own start %d, boot ticks now %d (%v)", self.Start, now, err)
	}
}

func TestLocateCgroup2(t *testing.T) {
	const hybrid = "25 19 0:22 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro\n" +
		"30 25 0:26 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n" +
		"35 25 0:31 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	tests := []struct {
		name, cgroup, mountinfo string
		dir, rel                string // "" dir: an error
	}{
		{"hybrid, root cgroup", "4:memory:/x\n0::/\n", hybrid, "/sys/fs/cgroup/unified", "/"},
		{"hybrid, nested", "0::/user.slice/app.scope\n", hybrid, "/sys/fs/cgroup/unified/user.slice/app.scope", "/user.slice/app.scope"},
		{"unified, mount of a subtree", "0::/docker/abc/svc\n",
			"40 1 0:30 /docker/abc /sys/fs/cgroup rw shared:9 - cgroup2 cgroup2 rw,nsdelegate\n", "/sys/fs/cgroup/svc", "/docker/abc/svc"},
		{"mount point with a space", "0::/a\n", "40 1 0:30 / /mnt/cg\\040two rw - cgroup2 none rw\n", "/mnt/cg two/a", "/a"},
		{"cgroup outside the mounted subtree", "0::/other\n", "40 1 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "", ""},
		{"v1 only", "4:memory:/x\n", "30 25 0:26 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n", "", ""},
		{"no cgroup2 mount", "0::/\n", "30 25 0:26 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, rel, err := locateCgroup2([]byte(tc.cgroup), []byte(tc.mountinfo))
			if tc.dir == "" {
				if err == nil {
					t.Errorf("got %q %q, want an error", dir, rel)
				}
				return
			}
			if err != nil || dir != tc.dir || rel != tc.rel {
				t.Errorf("got %q %q %v, want %q %q", dir, rel, err, tc.dir, tc.rel)
			}
		})
	}
}

func requireSleep(t *testing.T) string {
	t.Helper()
	return testenv.Program(t, "sleep")
}

// startSleeper starts "sleep 100" with sys on the calling goroutine's
// thread, and kills it when the test ends.
func startSleeper(t *testing.T, sleep string, sys *syscall.SysProcAttr) *os.Process {
	t.Helper()
	p, err := os.StartProcess(sleep, []string{"sleep", "100"}, &os.ProcAttr{Files: []*os.File{nil, nil, os.Stderr}, Sys: sys})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Kill(); p.Wait() })
	return p
}

// onDyingThread runs f on a goroutine locked to a thread that the runtime
// destroys when f returns, and returns once that thread is gone.
func onDyingThread(t *testing.T, f func()) {
	t.Helper()
	tid := make(chan int)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		f()
		tid <- unix.Gettid()
	}()
	n := <-tid
	if n == os.Getpid() {
		t.Skip("the goroutine ran on the main thread, which the runtime parks instead of ending")
	}
	waitThreadGone(t, n)
}

// waitThreadGone waits until thread tid of this process has exited: on a
// thread pidfd (PIDFD_THREAD, Linux 6.9), which becomes readable then, or
// else by watching /proc/self/task.
func waitThreadGone(t *testing.T, tid int) {
	t.Helper()
	const pidfdThread = unix.O_EXCL // PIDFD_THREAD
	if fd, err := unix.PidfdOpen(tid, pidfdThread); err == nil {
		defer unix.Close(fd)
		if !proctest.WaitExit(fd, 10*time.Second) {
			t.Fatalf("thread %d still running", tid)
		}
		return
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if _, err := os.Stat("/proc/self/task/" + strconv.Itoa(tid)); errors.Is(err, os.ErrNotExist) {
			return
		}
	}
	t.Fatalf("thread %d still listed", tid)
}

// TestForkerOutlivesThreads: the parent-death signal fires when the thread
// that forked exits (first half: the danger is real, a stage forked on a
// thread that ends is SIGKILLed while the server runs on); a child forked
// through Call.Start is not touched by the end of its caller's thread.
func TestForkerOutlivesThreads(t *testing.T) {
	sleep := requireSleep(t)
	sys := func() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }

	var direct *os.Process
	onDyingThread(t, func() { direct = startSleeper(t, sleep, sys()) })
	wantKilled(t, direct, "forked on a thread that exited (its parent-death signal)")
	if t.Failed() {
		return
	}

	c, err := Default().NewCall()
	if err != nil {
		t.Fatal(err)
	}
	defer c.End()
	var viaForker *os.Process
	onDyingThread(t, func() {
		viaForker, err = c.Start(sleep, []string{"sleep", "100"}, &os.ProcAttr{Files: []*os.File{nil, nil, os.Stderr}, Sys: sys()})
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { viaForker.Kill(); viaForker.Wait(); c.Reaped(viaForker) }()
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, viaForker.Pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil); err != nil || siginfoPid(&info) != 0 {
		t.Fatalf("forked through Call.Start, the child died with its caller's thread (waitid %v, pid %d)", err, siginfoPid(&info))
	}
}

// wantKilled waits for p, a child of the test, and checks that SIGKILL
// ended it.
func wantKilled(t *testing.T, p *os.Process, what string) {
	t.Helper()
	st, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if ws := st.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("%s: %v, want killed by SIGKILL", what, st)
	}
}

// newTestTree creates a cgroup subtree, or skips.
func newTestTree(t *testing.T) *cgroupTree {
	t.Helper()
	tree, err := newCgroupTree()
	if err != nil {
		proctest.Unavailable(t, "cgroup", "no writable cgroup v2: %v", err)
	}
	t.Cleanup(tree.remove)
	return tree
}

// TestCgroupCall: a process created inside a call's cgroup is listed in
// it, receives Signal, dies of kill (which returns once it has exited) and
// leaves a cgroup that can be removed.
func TestCgroupCall(t *testing.T) {
	sleep := requireSleep(t)
	tree := newTestTree(t)
	c, err := tree.newCall()
	if err != nil {
		t.Fatal(err)
	}
	p := startSleeper(t, sleep, &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: c.fd, Setsid: true})
	if procs := cgroupProcs(c.dir); len(procs) != 1 || procs[0] != p.Pid || !inCgroup(p.Pid, c.rel) {
		t.Fatalf("cgroup.procs %v, inCgroup %v; want [%d]", procs, inCgroup(p.Pid, c.rel), p.Pid)
	}
	c.signal(unix.SIGSTOP)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		if st, _ := procfs.ReadStat(p.Pid); st.State == 'T' {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("signal did not reach the process in the cgroup")
		}
	}
	if err := c.kill(); err != nil {
		t.Fatal(err)
	}
	if st, _ := procfs.ReadStat(p.Pid); !st.Zombie() {
		t.Fatalf("after kill the process is %c, want a zombie", st.State)
	}
	c.remove()
	if _, err := os.Stat(c.dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the call's cgroup is still there: %v", err)
	}
}

// TestWatchdogCgroup: when the server's end of the watchdog's pipe closes
// (as when the server is SIGKILLed), the watchdog kills every call cgroup
// and removes the server's subtree.
func TestWatchdogCgroup(t *testing.T) {
	sleep := requireSleep(t)
	tree := newTestTree(t)
	m := newManager(Cgroup, nil)
	fd, err := unix.Open(tree.watchdogDir(), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	wd, err := m.startWatchdog(os.Args[0], fd, "cgroup", tree.root, tree.own)
	unix.Close(fd)
	if err != nil {
		t.Fatal(err)
	}
	c, err := tree.newCall()
	if err != nil {
		t.Fatal(err)
	}
	p := startSleeper(t, sleep, &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: c.fd, Setsid: true})
	unix.Close(c.fd)
	wd.stop(10 * time.Second)
	wantKilled(t, p, "the call's process, once the watchdog's input closed")
	select {
	case <-wd.done:
	default:
		t.Fatal("the watchdog did not exit")
	}
	if _, err := os.Stat(tree.root); !errors.Is(err, os.ErrNotExist) {
		ents, _ := os.ReadDir(tree.root)
		t.Errorf("the subtree %s is still there (%v): %v", tree.root, err, ents)
	}
}

// TestWatchdogSubreaper: the watchdog kills the processes it was told
// about and every process in a reported stage's session, including one it
// was never told about.
func TestWatchdogSubreaper(t *testing.T) {
	sh := testenv.Program(t, "sh")
	requireSleep(t)
	m := newManager(Subreaper, nil)
	wd, err := m.startWatchdog(os.Args[0], -1, "subreaper")
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stage, err := os.StartProcess(sh, []string{"sh", "-c", "sleep 100 & echo $!; wait"}, &os.ProcAttr{Files: []*os.File{nil, w, os.Stderr}, Sys: &syscall.SysProcAttr{Setsid: true}})
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stage.Kill(); stage.Wait() })
	b := make([]byte, 32)
	n, _ := r.Read(b)
	r.Close()
	bg, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil {
		t.Fatalf("background pid %q", b[:n])
	}
	st, err := procfs.ReadStat(stage.Pid)
	if err != nil {
		t.Fatal(err)
	}
	wd.send("s " + strconv.Itoa(stage.Pid) + " " + strconv.FormatUint(st.Start, 10))
	bgfd, err := unix.PidfdOpen(bg, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(bgfd)
	wd.stop(10 * time.Second)
	wantKilled(t, stage, "the reported stage, once the watchdog's input closed")
	if !proctest.WaitExit(bgfd, 5*time.Second) {
		unix.Kill(bg, unix.SIGKILL)
		t.Errorf("the unreported process in the stage's session survived the watchdog")
	}
}

// TestRemoveCgroupTree removes nested empty cgroups deepest first.
func TestRemoveCgroupTree(t *testing.T) {
	tree := newTestTree(t)
	deep := path.Join(tree.calls, "7", "x")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	tree.remove()
	if _, err := os.Stat(tree.root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s still there: %v", tree.root, err)
	}
}

// TestWatchdogMustAnswer: a binary that does not dispatch WatchdogArg is
// stopped instead of being left to run as the watchdog.
func TestWatchdogMustAnswer(t *testing.T) {
	sleep := requireSleep(t)
	m := newManager(Subreaper, nil)
	wd, err := m.startWatchdog(sleep, -1, "100") // "sleep WatchdogArg 100" never answers
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-wd.done:
	case <-time.After(2 * readyTimeout):
		t.Fatal("the silent watchdog was not stopped")
	}
	if len(m.owned) != 0 {
		t.Errorf("the stopped watchdog is still registered: %v", m.owned)
	}
}

// TestCgroupReuse: a call cgroup released empty serves the next call; one
// released with a process still in it, or once killed, is not handed out
// again.
func TestCgroupReuse(t *testing.T) {
	sleep := requireSleep(t)
	tree := newTestTree(t)
	empty, err := tree.newCall()
	if err != nil {
		t.Fatal(err)
	}
	tree.release(empty)
	again, err := tree.newCall()
	if err != nil {
		t.Fatal(err)
	}
	if again.dir != empty.dir {
		t.Errorf("after an empty release got %s, want the idle %s", again.dir, empty.dir)
	}
	p := startSleeper(t, sleep, &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: again.fd})
	if again.empty() {
		t.Fatal("the cgroup with a sleeper in it reads as empty")
	}
	tree.release(again) // populated: not kept
	next, err := tree.newCall()
	if err != nil {
		t.Fatal(err)
	}
	if next.dir == again.dir {
		t.Fatalf("a populated cgroup %s was handed out again", again.dir)
	}
	if err := killCgroup(again.dir); err != nil {
		t.Fatal(err)
	}
	wantKilled(t, p, "the sleeper of the released cgroup")
	// A cgroup that was killed is not reused, even once empty.
	startSleeper(t, sleep, &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: next.fd})
	if err := next.kill(); err != nil {
		t.Fatal(err)
	}
	if !next.empty() {
		t.Fatal("the killed cgroup is not empty")
	}
	tree.release(next)
	if last, err := tree.newCall(); err != nil || last.dir == next.dir {
		t.Fatalf("after a killed release got %v (%v), want a new cgroup, not %s", last, err, next.dir)
	}
}
