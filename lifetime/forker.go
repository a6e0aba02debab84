package lifetime

import (
	"runtime"
	"sync"
)

// The forker is one goroutine locked to one OS thread for the life of the
// process; every child is forked on it.
//
// Why: the parent-death signal (PR_SET_PDEATHSIG, SysProcAttr.Pdeathsig)
// is delivered when the *thread* that forked the child exits, not when the
// process does (prctl(2); kernel/exit.c forget_original_parent signals the
// children of each exiting task). The Go runtime runs os.StartProcess on
// whatever thread the goroutine happens to be on and destroys a thread
// when a goroutine exits while locked to it (runtime.LockOSThread), so a
// stage forked on such a thread would be SIGKILLed in the middle of its
// call. Re-checking getppid(2) after setting the signal (which the syscall
// package already does) only covers a parent that died before the prctl;
// the subreaper and the cgroup do not stop the signal. A thread that never
// exits does: this goroutine never returns and never unlocks, so its
// thread ends only with the process, which is exactly when the signal
// should fire. Forks are serialised by syscall.ForkLock anyway, so one
// thread costs no parallelism.
var forker struct {
	once sync.Once
	reqs chan func()
}

// onForker runs f on the forker thread and returns when it has returned.
// A panic in f is re-raised in the caller: the forker itself must never
// die, or its thread would exit and every child forked on it would get
// its parent-death signal.
func onForker(f func()) {
	forker.once.Do(func() {
		forker.reqs = make(chan func())
		go func() {
			runtime.LockOSThread() // never unlocked: see above
			for req := range forker.reqs {
				req()
			}
		}()
	})
	var panicked any
	done := make(chan struct{})
	forker.reqs <- func() {
		defer close(done)
		defer func() { panicked = recover() }()
		f()
	}
	<-done
	if panicked != nil {
		panic(panicked)
	}
}
