//go:build linux

// The pool of restricted threads is Linux-only, like the per-thread
// restrictions it keeps (thread.go); elsewhere thread_other.go starts each
// stage directly.

package sandbox

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// A restricted thread serves every later stage whose restrictions are the
// same, instead of a new thread per stage: creating and destroying a
// locked OS thread, building the ruleset, landlock_restrict_self and the
// seccomp filter cost about 0.3 ms of server CPU per stage, more than the
// rest of a confined start (bench/README.md, "Where a small call's time
// goes"). A thread's restrictions can only grow, so a thread is reused
// only for exactly its own: the key is the whole policy and
// the identity (device, inode) of every path the ruleset names that was
// not held open at start-up, so that a path replaced on disk (a package
// upgrade, a directory recreated) gets a new thread rather than a
// ruleset naming the old inode. A thread that is not in the pool serves
// nobody; a retired one exits once every stage it started has exited (it
// is their parent thread, whose end would deliver PR_SET_PDEATHSIG).

// maxIdleThreads bounds the restricted threads kept between stages: one
// per call that runs at once under the default concurrency bound. A new
// one beyond it retires the oldest.
const maxIdleThreads = 64

// threadPool is the launcher's idle restricted threads, oldest first.
type threadPool struct {
	mu   sync.Mutex
	idle []*thread
}

// thread is one restricted OS thread and the goroutine locked to it.
type thread struct {
	key    string
	reqs   chan startReq
	retire chan struct{}
}

type startReq struct {
	ctx  context.Context
	path string
	argv []string
	attr *os.ProcAttr
	pl   applied
	done chan startResult
}

type startResult struct {
	p   *os.Process
	err error
	// reusable: the thread is restricted as its key says and may serve
	// later stages (false when restricting it failed).
	reusable bool
}

// start starts path on an idle thread restricted as pl says, or on a new
// one, and gives the thread back to the pool. The thread ends the start
// once ctx is done (startRestricted), so the answer always comes.
func (tp *threadPool) start(ctx context.Context, path string, argv []string, attr *os.ProcAttr, pl applied) (*os.Process, error) {
	key := threadKey(pl)
	req := startReq{ctx: ctx, path: path, argv: argv, attr: attr, pl: pl, done: make(chan startResult, 1)}
	t := tp.take(key)
	if t == nil {
		t = &thread{key: key, reqs: make(chan startReq), retire: make(chan struct{})}
		go t.run(pl, req)
	} else {
		t.reqs <- req
	}
	r := <-req.done
	if r.reusable {
		tp.put(t)
	}
	return r.p, r.err
}

// take removes and returns an idle thread with key, or nil.
func (tp *threadPool) take(key string) *thread {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	for i := len(tp.idle) - 1; i >= 0; i-- {
		if t := tp.idle[i]; t.key == key {
			tp.idle = append(tp.idle[:i], tp.idle[i+1:]...)
			return t
		}
	}
	return nil
}

// put keeps t for a later stage, retiring the oldest idle thread when the
// pool is full.
func (tp *threadPool) put(t *thread) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if len(tp.idle) >= maxIdleThreads {
		close(tp.idle[0].retire)
		tp.idle = tp.idle[1:]
	}
	tp.idle = append(tp.idle, t)
}

// run is the thread's goroutine: it locks its thread for good, restricts
// it, and starts stages until it is retired and its last stage has
// exited. Returning while locked ends the thread, so no other goroutine
// ever runs restricted.
func (t *thread) run(pl applied, first startReq) {
	runtime.LockOSThread()
	if err := restrictThread(pl); err != nil {
		first.done <- startResult{err: err}
		return
	}
	live := 0
	// Each stage is waited for on another goroutine (and thread), so that
	// this one stays free for the next start: parked on a channel, not in
	// waitid, since a locked thread blocked in a system call would keep
	// its P until sysmon retakes it.
	exited := make(chan struct{})
	serve := func(r startReq) {
		p, err := startRestricted(r.ctx, r.path, r.argv, r.attr, r.pl)
		if err == nil {
			live++
			go func() {
				waitExited(p.Pid)
				exited <- struct{}{}
			}()
		}
		r.done <- startResult{p: p, err: err, reusable: true}
	}
	serve(first)
	retire := t.retire
	for retire != nil || live > 0 {
		select {
		case r := <-t.reqs:
			serve(r)
		case <-exited:
			live--
		case <-retire:
			retire = nil
		}
	}
}

// threadKey identifies a thread's restrictions (see the comment at the
// top of this file): its seccomp filter's kind, every field of the policy, each list as its length
// and its entries ended by NUL (which no path holds, so no two policies
// share a key), then the identity of each path not held open.
func threadKey(pl applied) string {
	b := make([]byte, 0, 512)
	if f := pl.filter; f != nil {
		b = append(b, "filter "...)
		b = strconv.AppendBool(b, f.network)
		b = append(b, ' ')
		b = strconv.AppendBool(b, f.unixSockets)
		b = append(b, ' ')
	}
	if !pl.landlock {
		return string(append(b, "no_new_privs"...))
	}
	p := pl.policy
	b = strconv.AppendInt(b, int64(p.ABI), 10)
	b = append(b, ' ')
	b = strconv.AppendBool(b, p.Net)
	b = append(b, ' ')
	b = strconv.AppendBool(b, p.Run)
	for _, list := range [][]string{p.Read, p.Exec, p.Write, p.Sockets} {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(len(list)), 10)
		b = append(b, ':')
		for _, s := range list {
			b = append(b, s...)
			b = append(b, 0)
		}
	}
	for _, list := range [][]string{p.Read, p.Exec, p.Write} {
		for _, path := range list {
			if p.held.has(path) {
				continue
			}
			var st unix.Stat_t
			if unix.Stat(path, &st) != nil {
				b = append(b, "\x00-"...)
				continue
			}
			b = append(b, 0)
			b = strconv.AppendUint(b, st.Dev, 16)
			b = append(b, ':')
			b = strconv.AppendUint(b, st.Ino, 16)
		}
	}
	return string(b)
}
