package server

import (
	"container/list"
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Connection pools of the HTTP transport. A connection is unauthenticated
// from its accept until a request on it carries the bearer token; only
// then does it count against the authenticated pools. So strangers compete
// only with each other, and within the unauthenticated pool a flood
// pushes out its own connections first: the victim is the oldest
// connection of the remote host holding the most, and a connection
// younger than preAuthGrace (a real client between its connect and its
// first request) is pushed out only when the pool reaches preAuthHard.
//
// An authenticated connection holds a serving slot (authConns of them)
// once its request's body is in: it is busy while the request is served
// (a call, an event stream) and idle between requests. A first request
// whose body has not arrived within quickBody of its headers (an MCP
// client sends both in one write) holds a receiving slot instead
// (recvConns) until it has, so that bodies that never arrive cannot hold
// the slots requests are served in. When a pool is full a newcomer takes
// the slot of a connection that holds one without using it, and that
// connection is closed: a body that has been arriving for over bodyGrace
// at less than slowBodyRate (the oldest of the host holding the most
// slots, so that one client's drip cannot cost another its connection)
// and, for serving slots, else the connection idle the longest. A busy
// connection is never cut. A newcomer that finds no slot to take waits
// for one, first come first served, up to slotWait, then gets 503: a
// client that keeps reconnecting to hold slots with stalled bodies queues
// behind the others, and each of its connections loses its slot
// bodyGrace after getting it (408).
const (
	// preAuthConns is how many unauthenticated connections may stay open
	// once they are older than preAuthGrace. A real client presents its
	// token in its first request, a loopback round trip after
	// connecting, so only a flood ever fills this.
	preAuthConns = 64
	// preAuthGrace is how long a new connection is safe from eviction
	// while the pool holds fewer than preAuthHard: far longer than a
	// client takes to send its first request on a loaded machine, far
	// shorter than the 5 s header timeout that ends a stranger anyway.
	preAuthGrace = time.Second
	// preAuthHard bounds the unauthenticated pool whatever the ages, so
	// a flood costs at most this many descriptors (Go raises the soft
	// RLIMIT_NOFILE to the hard limit at start-up, typically far above).
	preAuthHard = 512
	// authConns is how many authenticated connections are served at once
	// (each may carry a long call or an event stream).
	authConns = 256
	// recvConns is how many first requests' bodies may be arriving at
	// once after quickBody: uploads slow enough to need a slot are rare.
	recvConns = 64
	// quickBody is how long a first request's body may take to arrive
	// without a receiving slot: a loopback or LAN round trip many times
	// over. The connection stays in the unauthenticated pool meanwhile.
	quickBody = 100 * time.Millisecond
	// bodyGrace is how long a body may take before its connection can be
	// cut to make room.
	bodyGrace = time.Second
	// slowBodyRate is the body rate, in bytes per second, under which a
	// connection past bodyGrace may be cut to make room: the rate of a
	// 128 kbit/s link. A real upload, even the largest body over a slow
	// link (8 MiB at 1 Mbit/s, 128 KiB/s), is far faster; a client
	// dripping a body to hold the slot is far slower.
	slowBodyRate = 16 << 10
	// slotWait is how long a connection waits for a slot when every one
	// is in use: long enough for a slot held by a stalled body to become
	// takeable (bodyGrace) behind the connections that came first, short
	// enough that a refused client learns it in seconds (503), not at
	// its own timeout.
	slotWait = 2 * bodyGrace
	// slotRecheck is how often waiters look again for a slot that became
	// takeable: a fraction of bodyGrace, so a stalled body is cut soon
	// after it passes it.
	slotRecheck = bodyGrace / 20
)

// pools accepts every connection (Accept never waits for a slot) and
// keeps the pools.
type pools struct {
	net.Listener
	now func() time.Time // time.Now; a fake clock in tests

	mu  sync.Mutex
	pre *list.List // of *poolConn, oldest first
	// serving and receiving are the authenticated pools.
	serving, receiving slotPool
	evicted            int // unauthenticated connections closed to make room
}

// slotPool is one authenticated pool: its connections and those waiting
// for a slot (*waiter), first come first; recheck, when set, looks again.
type slotPool struct {
	kind    slot
	size    int
	conns   map[*poolConn]struct{}
	waiters *list.List
	recheck *time.Timer
	cut     int // connections closed to make room
}

// slot is which authenticated pool a connection is in.
type slot uint8

const (
	noSlot slot = iota
	servingSlot
	receivingSlot
)

func newPools(l net.Listener) *pools {
	return &pools{Listener: l, now: time.Now, pre: list.New(),
		serving:   slotPool{kind: servingSlot, size: authConns, conns: map[*poolConn]struct{}{}, waiters: list.New()},
		receiving: slotPool{kind: receivingSlot, size: recvConns, conns: map[*poolConn]struct{}{}, waiters: list.New()},
	}
}

func (p *pools) pool(k slot) *slotPool {
	if k == servingSlot {
		return &p.serving
	}
	return &p.receiving
}

// Accept implements net.Listener.
func (p *pools) Accept() (net.Conn, error) {
	c, err := p.Listener.Accept()
	if err != nil {
		return nil, err
	}
	pc := &poolConn{Conn: c, p: p, host: remoteHost(c)}
	p.mu.Lock()
	pc.born = p.now() // under the lock: the list stays in age order
	victim := p.victim(pc.born)
	if victim != nil {
		p.pre.Remove(victim.elem)
		victim.elem = nil
		p.evicted++
	}
	pc.elem = p.pre.PushBack(pc)
	p.mu.Unlock()
	if victim != nil {
		victim.Close()
	}
	return pc, nil
}

// victim chooses the unauthenticated connection to close before one more
// joins the pool, or nil while there is room; p.mu is held. Among the
// candidates (those older than preAuthGrace, or all of them once the pool
// is at preAuthHard), it is the oldest of the host with the most
// connections in the pool, so one source cannot push out another's.
func (p *pools) victim(now time.Time) *poolConn {
	n := p.pre.Len()
	if n < preAuthConns {
		return nil
	}
	hard := n >= preAuthHard
	perHost := map[string]int{}
	for e := p.pre.Front(); e != nil; e = e.Next() {
		perHost[e.Value.(*poolConn).host]++
	}
	var best *poolConn
	for e := p.pre.Front(); e != nil; e = e.Next() {
		c := e.Value.(*poolConn)
		if !hard && now.Sub(c.born) < preAuthGrace {
			break // the list is oldest first: the rest are younger still
		}
		if best == nil || perHost[c.host] > perHost[best.host] {
			best = c
		}
	}
	return best
}

// remoteHost is the address a connection came from, without its port.
func remoteHost(c net.Conn) string {
	addr := c.RemoteAddr()
	if addr == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	return host
}

// phase is what an authenticated connection is doing with its slot.
type phase uint8

const (
	// idle: between requests (keep-alive), or reading the next
	// request's headers.
	idle phase = iota
	// receiving: its request's headers are in and its body is arriving.
	receiving
	// busy: its request is being served.
	busy
)

// poolConn is an accepted connection and its pool membership.
type poolConn struct {
	net.Conn
	p *pools
	// elem is its place among the unauthenticated connections, nil once
	// it left them; wait its place among a pool's waiters.
	elem *list.Element
	wait *list.Element
	// slot is the authenticated pool it is in; phase and since (when the
	// phase began) say whether its slot may be taken; cut is set once it
	// was, and the connection is being closed.
	slot     slot
	phase    phase
	since    time.Time
	cut      bool
	received atomic.Int64 // body bytes of the request being received
	once     sync.Once
	host     string    // remoteHost, for the per-host share
	born     time.Time // accept time, for preAuthGrace
}

// waiter is a connection waiting for a slot.
type waiter struct {
	c       *poolConn
	granted chan struct{}
}

// acquire moves c into pool k (a serving slot: busy; a receiving slot:
// receiving its body), leaving the unauthenticated pool or the receiving
// one. When k is full it takes the slot of a connection that holds one
// without using it, closing that one; when there is none it waits, in
// arrival order, up to slotWait (a slot freed, or a slow body passing
// bodyGrace). False means no slot could be had in time, or c was evicted,
// cut or closed, or ctx ended.
func (c *poolConn) acquire(ctx context.Context, k slot) bool {
	p := c.p
	p.mu.Lock()
	switch {
	case c.cut:
		p.mu.Unlock()
		return false
	case c.slot == k:
		p.mu.Unlock()
		return true
	case c.slot != noSlot:
		old := p.pool(c.slot)
		delete(old.conns, c)
		c.slot = noSlot
		defer closeAll(p.serveWaiters(old))
	case c.elem == nil:
		p.mu.Unlock()
		return false
	default:
		p.pre.Remove(c.elem)
		c.elem = nil
	}
	pl := p.pool(k)
	if pl.waiters.Len() >= pl.size {
		p.mu.Unlock()
		return false
	}
	w := &waiter{c: c, granted: make(chan struct{})}
	c.wait = pl.waiters.PushBack(w)
	closing := p.serveWaiters(pl)
	p.mu.Unlock()
	closeAll(closing)
	t := time.NewTimer(slotWait)
	defer t.Stop()
	select {
	case <-w.granted:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-w.granted:
		return true
	default:
	}
	if c.wait != nil {
		pl.waiters.Remove(c.wait)
		c.wait = nil
	}
	return false
}

// serveWaiters gives pl's slots to its waiting connections, in order,
// while one is free or can be taken, and returns the idle connections
// whose slots were taken (to be closed without p.mu). When some still
// wait it looks again after slotRecheck, by when a slow body may have
// passed bodyGrace. p.mu is held.
func (p *pools) serveWaiters(pl *slotPool) []*poolConn {
	var closing []*poolConn
	now := p.now()
	for pl.waiters.Len() > 0 {
		if len(pl.conns) >= pl.size {
			v := p.slotVictim(pl, now)
			if v == nil {
				break
			}
			delete(pl.conns, v)
			v.slot, v.cut = noSlot, true
			pl.cut++
			if v.phase == idle {
				closing = append(closing, v)
			} else {
				// Its handler answers 408 once the read fails.
				v.Conn.SetReadDeadline(time.Now())
			}
		}
		w := pl.waiters.Remove(pl.waiters.Front()).(*waiter)
		c := w.c
		c.wait, c.slot, c.since = nil, pl.kind, now
		c.phase = busy
		if pl.kind == receivingSlot {
			c.phase = receiving
		}
		pl.conns[c] = struct{}{}
		close(w.granted)
	}
	if pl.waiters.Len() > 0 && pl.recheck == nil {
		pl.recheck = time.AfterFunc(slotRecheck, func() {
			p.mu.Lock()
			pl.recheck = nil
			closing := p.serveWaiters(pl)
			p.mu.Unlock()
			closeAll(closing)
		})
	}
	return closing
}

func closeAll(cs []*poolConn) {
	for _, c := range cs {
		c.Close()
	}
}

// slotVictim chooses the connection of pl whose slot a waiter takes, or
// nil; p.mu is held. A body arriving slower than slowBodyRate for over
// bodyGrace goes first (the oldest of the host holding the most slots),
// then the connection idle the longest.
func (p *pools) slotVictim(pl *slotPool, now time.Time) *poolConn {
	perHost := map[string]int{}
	for c := range pl.conns {
		perHost[c.host]++
	}
	var slow, idlest *poolConn
	for c := range pl.conns {
		switch {
		case c.phase == receiving && c.slowBody(now):
			if slow == nil || perHost[c.host] > perHost[slow.host] || (perHost[c.host] == perHost[slow.host] && c.since.Before(slow.since)) {
				slow = c
			}
		case c.phase == idle:
			if idlest == nil || c.since.Before(idlest.since) {
				idlest = c
			}
		}
	}
	if slow != nil {
		return slow
	}
	return idlest
}

// slowBody reports a body that has been arriving for over bodyGrace at
// less than slowBodyRate on average.
func (c *poolConn) slowBody(now time.Time) bool {
	d := now.Sub(c.since)
	return d > bodyGrace && float64(c.received.Load()) < d.Seconds()*slowBodyRate
}

// serving reports whether c holds a serving slot: a further request on
// a kept-alive connection.
func (c *poolConn) serving() bool {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	return c.slot == servingSlot
}

// startBody marks a further request's body as arriving on c's serving
// slot (where it may be cut when slow, like a receiving slot's).
func (c *poolConn) startBody() {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	c.phase, c.since = receiving, c.p.now()
	c.received.Store(0)
}

// bodyDeadline bounds reading c's request body by deadline, or ends it
// at once when c was cut meanwhile.
func (c *poolConn) bodyDeadline(deadline time.Time) {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	if c.cut {
		deadline = time.Now()
	}
	c.Conn.SetReadDeadline(deadline)
}

// served marks c's request as being served on its serving slot, its read
// deadline cleared (the connection's background read must not time out
// under a long call, which would cancel it). False means c was cut
// meanwhile: its request is to be answered 408.
func (c *poolConn) served() bool {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	if c.cut {
		return false
	}
	c.phase, c.since = busy, c.p.now()
	c.Conn.SetReadDeadline(time.Time{})
	return true
}

// wasCut reports whether c's slot was taken to make room.
func (c *poolConn) wasCut() bool {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	return c.cut
}

// setIdle marks c idle between requests (http.Server.ConnState).
func (c *poolConn) setIdle() {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	c.phase, c.since = idle, c.p.now()
	c.received.Store(0)
}

// authenticated reports whether c holds a serving slot.
func (c *poolConn) authenticated() bool { return c.serving() }

// Close implements net.Conn and gives the slot back (to the first
// connection waiting for one), once.
func (c *poolConn) Close() error {
	var closing []*poolConn
	c.once.Do(func() {
		p := c.p
		p.mu.Lock()
		switch {
		case c.slot != noSlot:
			pl := p.pool(c.slot)
			delete(pl.conns, c)
			c.slot = noSlot
			closing = p.serveWaiters(pl)
		case c.wait != nil:
			// Remove is a no-op on the list that does not hold it.
			p.serving.waiters.Remove(c.wait)
			p.receiving.waiters.Remove(c.wait)
			c.wait = nil
		case c.elem != nil:
			p.pre.Remove(c.elem)
			c.elem = nil
		}
		p.mu.Unlock()
	})
	closeAll(closing)
	return c.Conn.Close()
}

// CloseWrite sends the FIN of a TCP connection, so that net/http can let
// a refused client read its answer before the connection closes (it
// waits briefly for the client's close instead of resetting a connection
// with unread bytes).
func (c *poolConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// connState is http.Server.ConnState: a connection back between requests
// is idle.
func connState(c net.Conn, state http.ConnState) {
	if pc, ok := c.(*poolConn); ok && state == http.StateIdle {
		pc.setIdle()
	}
}

// open reports the connections in each pool, for tests.
func (p *pools) open() (pre, serving, receiving int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pre.Len(), len(p.serving.conns), len(p.receiving.conns)
}

type connKey struct{}

// withConn is http.Server.ConnContext: it lets a request find its
// connection.
func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// connOf is r's pooled connection, or nil (a handler used without
// pools, in tests).
func connOf(r *http.Request) *poolConn {
	c, _ := r.Context().Value(connKey{}).(*poolConn)
	return c
}
