package runner

import (
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// group is the process group of one run: the started stages in order, the
// group id (the first stage's pid), and a channel closed once every started
// stage has exited. Stages are observed with waitid(WNOWAIT) and reaped
// only at the end, so until then no pid or the group id can be reused.
type group struct {
	procs    []*os.Process
	pgid     int
	watchers sync.WaitGroup
	exited   chan struct{}
	states   []*os.ProcessState
}

// add records a started stage and begins watching for its exit.
func (g *group) add(p *os.Process) {
	if len(g.procs) == 0 {
		g.pgid = p.Pid
	}
	g.procs = append(g.procs, p)
	g.watchers.Go(func() { waitExited(p.Pid) })
}

// watch closes g.exited once every stage added so far has exited.
func (g *group) watch() {
	g.exited = make(chan struct{})
	go func() {
		g.watchers.Wait()
		close(g.exited)
	}()
}

// waitExited blocks until pid has exited without reaping it.
func waitExited(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return // nil, or ECHILD if it is gone already
		}
	}
}

// signalGroup sends sig to the whole group. The pgid > 0 guard matters:
// kill(0, sig) would signal the server's own group.
func (g *group) signalGroup(sig syscall.Signal) {
	if g.pgid > 0 {
		_ = unix.Kill(-g.pgid, sig) // ESRCH: the group is already empty
	}
}

// killAll sends SIGKILL to the group and to every stage directly (a stage
// may have moved itself to another group).
func (g *group) killAll() {
	g.signalGroup(unix.SIGKILL)
	for _, p := range g.procs {
		_ = p.Signal(unix.SIGKILL) // os.ErrProcessDone cannot happen before reap; other errors mean it is gone
	}
}

// terminate sends SIGTERM to the group, waits up to grace for every stage
// to exit, then SIGKILLs everything and waits for the stages to exit.
func (g *group) terminate(grace time.Duration) {
	g.signalGroup(unix.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-g.exited:
	case <-t.C:
	}
	g.killAll()
	<-g.exited
}

// abort kills and reaps the stages started so far (launch failure).
func (g *group) abort() {
	g.killAll()
	g.watchers.Wait()
	g.reap()
}

// reap collects every stage's status, the group leader last so that its
// zombie holds the group id until the end.
func (g *group) reap() {
	g.states = make([]*os.ProcessState, len(g.procs))
	for i := len(g.procs) - 1; i >= 0; i-- {
		if st, err := g.procs[i].Wait(); err == nil {
			g.states[i] = st
		}
	}
}

// fill copies the stage statuses into res: per stage, and the last stage's
// as the call's ExitCode/Signal.
func (g *group) fill(res *Result) {
	for i, st := range g.states {
		res.Stages[i].ExitCode, res.Stages[i].Signal = status(st)
	}
	if n := len(res.Stages); n > 0 {
		res.ExitCode, res.Signal = res.Stages[n-1].ExitCode, res.Stages[n-1].Signal
	}
}

// status maps a wait status to an exit code or a signal name.
func status(st *os.ProcessState) (*int, string) {
	if st == nil {
		return nil, ""
	}
	ws, ok := st.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		return nil, unix.SignalName(ws.Signal())
	}
	code := st.ExitCode()
	return &code, ""
}
