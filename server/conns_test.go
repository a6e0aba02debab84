package server

import (
	"net"
	"sync"
	"testing"
	"time"
)

// fakeConn is a connection from a given address that records its Close.
type fakeConn struct {
	net.Conn
	addr   net.Addr
	mu     sync.Mutex
	closed bool
}

func (c *fakeConn) RemoteAddr() net.Addr { return c.addr }
func (c *fakeConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	return nil
}
func (c *fakeConn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// fakeListener hands out the connections pushed into it.
type fakeListener struct {
	net.Listener
	next chan net.Conn
}

func (l fakeListener) Accept() (net.Conn, error) { return <-l.next, nil }

// TestPreAuthEviction: a flood from one host pushes out its own
// connections, never a younger one while the pool is below its hard
// bound, and never another host's while the flooding host has more.
func TestPreAuthEviction(t *testing.T) {
	t.Parallel()
	l := fakeListener{next: make(chan net.Conn, 1)}
	p := newPools(l)
	clock := time.Unix(1700000000, 0)
	p.now = func() time.Time { return clock }
	accept := func(host string) *fakeConn {
		t.Helper()
		c := &fakeConn{addr: &net.TCPAddr{IP: net.ParseIP(host), Port: 40000}}
		l.next <- c
		if _, err := p.Accept(); err != nil {
			t.Fatal(err)
		}
		return c
	}

	legit := accept("192.0.2.7") // connected, not yet sent its request
	var flood []*fakeConn
	for range preAuthConns * 2 {
		flood = append(flood, accept("198.51.100.1"))
	}
	if pre, _ := p.open(); pre != preAuthConns*2+1 || legit.isClosed() {
		t.Fatalf("young connections were evicted: pool %d, legit closed %v", pre, legit.isClosed())
	}

	clock = clock.Add(2 * preAuthGrace) // everyone is old now
	accept("198.51.100.1")
	if legit.isClosed() || !flood[0].isClosed() {
		t.Errorf("victim: legit closed %v, oldest flood closed %v; want the flood's oldest", legit.isClosed(), flood[0].isClosed())
	}

	// An old unauthenticated connection is a stranger's whatever its
	// host; a young one of another host survives a flood that reaches
	// the hard bound, because the flooding host holds the most.
	legit2 := accept("192.0.2.8")
	for range preAuthHard * 2 {
		accept("198.51.100.1")
	}
	if pre, _ := p.open(); pre > preAuthHard {
		t.Errorf("pool %d over the hard bound %d", pre, preAuthHard)
	}
	if legit2.isClosed() {
		t.Error("the flood pushed out another host's young connection")
	}
}

// open reports the connections in each pool.
func (p *pools) open() (pre, authed int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pre.Len(), p.authed
}
