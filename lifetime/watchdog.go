//go:build linux

// The watchdog that outlives a SIGKILLed server: Linux only (mech_other.go has the stand-ins elsewhere).

package lifetime

import (
	"bufio"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/procfs"
)

// watchdogInputFD is the watchdog's end of the pipe from the server: EOF on
// it means the server has exited, however it exited. On watchdogReadyFD it
// writes one byte once it listens, which also proves that the binary
// dispatched WatchdogArg.
const (
	watchdogInputFD = 3
	watchdogReadyFD = 4
)

// readyTimeout bounds the watchdog's start: a Go runtime and the server's
// package initialisation take a few milliseconds; a binary that does not
// know WatchdogArg never answers.
const readyTimeout = 5 * time.Second

// feedTimeout bounds one write to the watchdog. It reads continuously, so
// a full pipe means it is stopped or stuck; the server then stops feeding
// it (and says so) rather than stall a call.
const feedTimeout = 100 * time.Millisecond

// watchdog is the server's side of the watchdog process: a copy of the
// server binary that waits for the server's end of a pipe to close and
// then kills what the server can no longer kill, the call cgroups (cgroup
// mode) or the processes the tracker recorded (subreaper mode). It exists
// for SIGKILL of the server, which runs no code of the server's: stages
// also die of their parent-death signal then, but their descendants do not.
type watchdog struct {
	p    *os.Process
	in   *os.File
	log  *slog.Logger
	done chan struct{}

	mu       sync.Mutex
	stopping bool
	failed   bool
}

// startWatchdog starts the watchdog with args after WatchdogArg, inside
// the cgroup of cgroupFD when it is not -1, in a session of its own (no
// terminal signal reaches it) and without a parent-death signal.
func (m *Manager) startWatchdog(exe string, cgroupFD int, args ...string) (*watchdog, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	readyR, readyW, err := os.Pipe()
	if err != nil {
		w.Close()
		return nil, err
	}
	defer func() {
		if readyR != nil {
			readyR.Close()
		}
	}()
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		w.Close()
		readyW.Close()
		return nil, err
	}
	defer null.Close()
	attr := &os.ProcAttr{
		Dir:   "/",
		Env:   []string{}, // nil would pass the server's environment on
		Files: []*os.File{null, null, os.Stderr, r, readyW},
		Sys:   &syscall.SysProcAttr{Setsid: true, UseCgroupFD: cgroupFD >= 0, CgroupFD: cgroupFD},
	}
	p, err := m.start(func() (p *os.Process, err error) {
		onForker(func() { p, err = os.StartProcess(exe, append([]string{exe, WatchdogArg}, args...), attr) })
		return p, err
	}, nil)
	readyW.Close()
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("starting the watchdog: %w", err)
	}
	wd := &watchdog{p: p, in: w, log: m.log, done: make(chan struct{})}
	// The answer is awaited in the background: the watchdog already holds
	// its end of the pipe, so it will see EOF whenever it gets to read.
	go wd.awaitReady(readyR, exe)
	readyR = nil // closed by awaitReady
	go func() {
		_, _ = p.Wait()
		m.release(p.Pid)
		wd.mu.Lock()
		stopping := wd.stopping
		wd.failed = true
		wd.mu.Unlock()
		if !stopping {
			m.log.Warn("the lifetime watchdog exited: a SIGKILL of the server would now leave call processes running", "pid", p.Pid)
		}
		close(wd.done)
	}()
	return wd, nil
}

// awaitReady reads the watchdog's answer. A binary that does not dispatch
// WatchdogArg never answers: it is killed and the server says so.
func (wd *watchdog) awaitReady(r *os.File, exe string) {
	defer r.Close()
	_ = r.SetReadDeadline(time.Now().Add(readyTimeout))
	if n, err := r.Read(make([]byte, 1)); n != 1 {
		wd.mu.Lock()
		wd.failed = true
		wd.mu.Unlock()
		wd.log.Warn("the lifetime watchdog did not answer and was stopped: a SIGKILL of the server would leave call processes running (does main dispatch lifetime.WatchdogArg?)", "exe", exe, "err", err)
		_ = wd.p.Kill()
	}
}

// send writes one line to the watchdog. After a failure (the watchdog is
// gone or stuck) nothing more is sent.
func (wd *watchdog) send(line string) {
	wd.mu.Lock()
	defer wd.mu.Unlock()
	if wd.failed {
		return
	}
	_ = wd.in.SetWriteDeadline(time.Now().Add(feedTimeout))
	if _, err := wd.in.WriteString(line + "\n"); err != nil {
		wd.failed = true
		wd.log.Warn("the lifetime watchdog does not read its input: a SIGKILL of the server may leave call processes running", "err", err)
	}
}

// stop closes the watchdog's input (it then cleans up and exits) and
// waits up to timeout for it to exit.
func (wd *watchdog) stop(timeout time.Duration) {
	wd.mu.Lock()
	wd.stopping = true
	wd.mu.Unlock()
	wd.in.Close()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-wd.done:
	case <-t.C:
	}
}

// RunWatchdog is the watchdog mode; args are os.Args[2:]: "cgroup <root>
// <server cgroup>" or "subreaper". It returns the exit status. It acts
// when its input reaches EOF (the server exited) or on SIGTERM, SIGINT or
// SIGHUP (a service manager stopping everything).
func RunWatchdog(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "mcp-shell-server lifetime watchdog: no mode")
		return 2
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, unix.SIGTERM, unix.SIGINT, unix.SIGHUP)
	_, _ = unix.Write(watchdogReadyFD, []byte{1})
	_ = unix.Close(watchdogReadyFD)
	st := &watchState{procs: map[int]uint64{}, sessions: map[int]uint64{}}
	eof := make(chan struct{})
	go func() {
		st.read(os.NewFile(watchdogInputFD, "lifetime watchdog input"))
		close(eof)
	}()
	select {
	case <-eof:
	case <-sigs:
	}
	switch {
	case args[0] == "cgroup" && len(args) == 3:
		cleanCgroup(args[1], args[2])
	case args[0] == "subreaper":
		st.kill()
	default:
		fmt.Fprintf(os.Stderr, "mcp-shell-server lifetime watchdog: bad arguments %q\n", args)
		return 2
	}
	return 0
}

// cleanCgroup kills every call cgroup beneath root, moves the watchdog
// back into the server's cgroup and removes root.
func cleanCgroup(root, serverCgroup string) {
	calls := path.Join(root, "calls")
	if err := killCgroup(calls); err != nil && !os.IsNotExist(err) {
		fmt.Fprintf(os.Stderr, "mcp-shell-server lifetime watchdog: %v\n", err)
	}
	_ = os.WriteFile(path.Join(serverCgroup, "cgroup.procs"), []byte(strconv.Itoa(os.Getpid())), 0)
	removeCgroupTree(root)
}

// watchState is what the server told the watchdog in subreaper mode:
// "s PID START" (a stage, whose pid is its session id), "+ PID START" (a
// descendant), "- PID" (gone).
type watchState struct {
	mu       sync.Mutex
	procs    map[int]uint64
	sessions map[int]uint64
}

func (st *watchState) read(f *os.File) {
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) < 2 {
			continue
		}
		pid, err := strconv.Atoi(w[1])
		if err != nil {
			continue
		}
		var start uint64
		if len(w) > 2 {
			start, _ = strconv.ParseUint(w[2], 10, 64)
		}
		st.mu.Lock()
		switch w[0] {
		case "s":
			st.procs[pid], st.sessions[pid] = start, start
		case "+":
			st.procs[pid] = start
		case "-":
			delete(st.procs, pid)
			delete(st.sessions, pid)
		}
		st.mu.Unlock()
	}
}

// kill stops every recorded process and every process in a recorded
// stage's session, then their descendants (stopped first so they cannot
// fork past the walk), then SIGKILLs them all.
func (st *watchState) kill() {
	st.mu.Lock()
	defer st.mu.Unlock()
	targets := map[int]int{} // pid -> pidfd
	var queue []int
	add := func(s procfs.Stat) {
		if _, ok := targets[s.Pid]; ok || s.Pid == os.Getpid() {
			return
		}
		fd := pidfdOf(s.Pid, s.Start)
		if fd < 0 {
			return
		}
		if exited(fd) {
			unix.Close(fd)
			return
		}
		signalPidfd(fd, unix.SIGSTOP)
		targets[s.Pid] = fd
		queue = append(queue, s.Pid)
	}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		s, err := procfs.ReadStat(pid) // a "Z" may still have live threads: add asks its pidfd
		if err != nil {
			continue
		}
		if start, ok := st.procs[pid]; ok && start == s.Start {
			add(s)
		} else if start, ok := st.sessions[s.Sid]; ok && start <= s.Start {
			add(s)
		}
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		waitStopped(pid)
		kids, _ := procfs.Children(pid)
		for _, k := range kids {
			if s, err := procfs.ReadStat(k); err == nil {
				add(s)
			}
		}
	}
	for _, fd := range targets {
		signalPidfd(fd, unix.SIGKILL)
		unix.Close(fd)
	}
}

// stopWait bounds the wait for a SIGSTOPped process to stop; a process in
// uninterruptible sleep stops only when it leaves it.
const stopWait = 50 * time.Millisecond

// waitStopped waits briefly until pid is stopped or gone, so that its list
// of children is final. There is no notification for another process's
// stop short of ptrace, hence the short poll.
func waitStopped(pid int) {
	deadline := time.Now().Add(stopWait)
	for time.Now().Before(deadline) {
		s, err := procfs.ReadStat(pid)
		if err != nil || s.Zombie() || s.State == 'T' || s.State == 't' {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
