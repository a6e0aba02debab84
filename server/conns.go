package server

import (
	"container/list"
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// Connection pools of the HTTP transport. A connection is unauthenticated
// from its accept until a request on it carries the bearer token; only
// then does it count against the authenticated pool. So strangers compete
// only with each other, and within the unauthenticated pool a flood
// pushes out its own connections first: the victim is the oldest
// connection of the remote host holding the most, and a connection
// younger than preAuthGrace (a real client between its connect and its
// first request) is pushed out only when the pool reaches preAuthHard.
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
	// authConns is how many authenticated connections stay open at once
	// (each may carry a long call or an event stream); a request that
	// would exceed it gets 503.
	authConns = 256
)

// pools accepts every connection (Accept never waits for a slot) and
// keeps the two pools.
type pools struct {
	net.Listener
	now func() time.Time // time.Now; a fake clock in tests

	mu      sync.Mutex
	pre     *list.List // of *poolConn, oldest first
	authed  int
	evicted int // unauthenticated connections closed to make room
}

func newPools(l net.Listener) *pools {
	return &pools{Listener: l, now: time.Now, pre: list.New()}
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

// poolConn is an accepted connection and its pool membership.
type poolConn struct {
	net.Conn
	p *pools
	// elem is its place among the unauthenticated connections, nil once
	// it left them (promoted, evicted or closed).
	elem   *list.Element
	authed bool
	once   sync.Once
	host   string    // remoteHost, for the per-host share
	born   time.Time // accept time, for preAuthGrace
}

// promote moves c to the authenticated pool; false means that pool is
// full (or c was already evicted).
func (c *poolConn) promote() bool {
	p := c.p
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case c.authed:
		return true
	case c.elem == nil || p.authed >= authConns:
		return false
	}
	p.pre.Remove(c.elem)
	c.elem, c.authed = nil, true
	p.authed++
	return true
}

// authenticated reports whether c was promoted.
func (c *poolConn) authenticated() bool {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	return c.authed
}

// Close implements net.Conn and gives the slot back, once.
func (c *poolConn) Close() error {
	c.once.Do(func() {
		p := c.p
		p.mu.Lock()
		if c.authed {
			p.authed--
		} else if c.elem != nil {
			p.pre.Remove(c.elem)
			c.elem = nil
		}
		p.mu.Unlock()
	})
	return c.Conn.Close()
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
