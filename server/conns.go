package server

import (
	"container/list"
	"context"
	"net"
	"net/http"
	"sync"
)

// Connection pools of the HTTP transport. A connection is unauthenticated
// from its accept until a request on it carries the bearer token; only
// then does it count against the authenticated pool. So strangers compete
// only with each other: the newest unauthenticated connection pushes out
// the oldest, and none of them holds a slot an authenticated client needs.
const (
	// preAuthConns is how many unauthenticated connections stay open at
	// once. A real client presents its token in its first request, a
	// loopback round trip after connecting, so only a flood ever fills
	// this; with more, the oldest is closed.
	preAuthConns = 64
	// authConns is how many authenticated connections stay open at once
	// (each may carry a long call or an event stream); a request that
	// would exceed it gets 503.
	authConns = 256
)

// pools accepts every connection (Accept never waits for a slot) and
// keeps the two pools.
type pools struct {
	net.Listener

	mu      sync.Mutex
	pre     *list.List // of *poolConn, oldest first
	authed  int
	evicted int // unauthenticated connections closed to make room
}

func newPools(l net.Listener) *pools {
	return &pools{Listener: l, pre: list.New()}
}

// Accept implements net.Listener.
func (p *pools) Accept() (net.Conn, error) {
	c, err := p.Listener.Accept()
	if err != nil {
		return nil, err
	}
	pc := &poolConn{Conn: c, p: p}
	var oldest *poolConn
	p.mu.Lock()
	if p.pre.Len() >= preAuthConns {
		oldest = p.pre.Remove(p.pre.Front()).(*poolConn)
		oldest.elem = nil
		p.evicted++
	}
	pc.elem = p.pre.PushBack(pc)
	p.mu.Unlock()
	if oldest != nil {
		oldest.Close()
	}
	return pc, nil
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

// open reports the connections in each pool, for tests.
func (p *pools) open() (pre, authed int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pre.Len(), p.authed
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
