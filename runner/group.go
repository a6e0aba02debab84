package runner

import (
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
)

// group is the processes of one run: the call's lifetime binding, the
// started stages in order (each leads its own session and process group,
// whose id is its pid), and a channel closed once every started stage has
// exited. Stages are observed with waitid(WNOWAIT) and reaped only at the
// end, so until then no stage pid, and so no group id, can be reused.
type group struct {
	call     *lifetime.Call
	procs    []*os.Process
	watchers sync.WaitGroup
	exited   chan struct{}
	states   []*os.ProcessState
}

// add records a started stage and begins watching for its exit.
func (g *group) add(p *os.Process) {
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

// killAll sends SIGKILL to every stage's group, to every stage directly (a
// stage may have moved itself to another group), and to every process the
// call's lifetime binding knows (the call's cgroup, or its recorded tree:
// descendants that left the stages' sessions), and returns once those have
// exited.
func (g *group) killAll() {
	g.signalGroups(syscall.SIGKILL)
	for _, p := range g.procs {
		_ = p.Signal(syscall.SIGKILL) // os.ErrProcessDone cannot happen before reap; other errors mean it is gone
	}
	g.call.Kill()
}

// terminate sends SIGTERM to the stages' groups and to every process of
// the call, waits up to grace for every stage to exit, then SIGKILLs
// everything and waits for the stages to exit. Without SIGTERM (Windows:
// canTerminate) the kill comes at once.
func (g *group) terminate(grace time.Duration) {
	if canTerminate {
		g.signalGroups(syscall.SIGTERM)
		g.call.Signal(syscall.SIGTERM)
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-g.exited:
		case <-t.C:
		}
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

// reap collects every stage's status and tells the lifetime binding.
func (g *group) reap() {
	g.states = make([]*os.ProcessState, len(g.procs))
	for i, p := range g.procs {
		if st, err := p.Wait(); err == nil {
			g.states[i] = st
		}
		g.call.Reaped(p)
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
		return nil, signalName(ws.Signal())
	}
	code := st.ExitCode()
	return &code, ""
}
