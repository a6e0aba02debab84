package server

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"
)

// fakeConn is a connection from a given address that records its Close.
type fakeConn struct {
	net.Conn
	addr     net.Addr
	mu       sync.Mutex
	closed   bool
	deadline time.Time
}

func (c *fakeConn) RemoteAddr() net.Addr { return c.addr }
func (c *fakeConn) SetReadDeadline(d time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.deadline = d
	return nil
}
func (c *fakeConn) readDeadline() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.deadline
}
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
	if pre, _, _ := p.open(); pre != preAuthConns*2+1 || legit.isClosed() {
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
	if pre, _, _ := p.open(); pre > preAuthHard {
		t.Errorf("pool %d over the hard bound %d", pre, preAuthHard)
	}
	if legit2.isClosed() {
		t.Error("the flood pushed out another host's young connection")
	}
}

// TestAuthenticatedSlots: a body that stalls past bodyGrace loses its
// receiving slot to a newcomer (its read is cut), an idle kept-alive
// connection loses its serving slot, a busy one never does, and a
// newcomer that finds nothing to take waits and then gives up.
func TestAuthenticatedSlots(t *testing.T) {
	t.Parallel()
	l := fakeListener{next: make(chan net.Conn, 1)}
	p := newPools(l)
	var mu sync.Mutex
	clock := time.Unix(1700000000, 0)
	p.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	advance := func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }
	accept := func(host string) (*poolConn, *fakeConn) {
		t.Helper()
		c := &fakeConn{addr: &net.TCPAddr{IP: net.ParseIP(host), Port: 40000}}
		l.next <- c
		pc, err := p.Accept()
		if err != nil {
			t.Fatal(err)
		}
		return pc.(*poolConn), c
	}
	ctx := context.Background()

	var drips []*fakeConn
	for range recvConns {
		pc, fc := accept("198.51.100.1")
		if !pc.acquire(ctx, receivingSlot) {
			t.Fatal("no receiving slot in an empty pool")
		}
		drips = append(drips, fc)
	}
	advance(2 * bodyGrace)
	pc, _ := accept("192.0.2.7")
	if !pc.acquire(ctx, receivingSlot) {
		t.Fatal("a newcomer found no receiving slot though every body had stalled")
	}
	cut := 0
	for _, d := range drips {
		if !d.readDeadline().IsZero() {
			cut++
		}
	}
	if cut != 1 {
		t.Errorf("%d stalled bodies cut, want 1", cut)
	}

	var busy []*poolConn
	for range authConns {
		pc, _ := accept("203.0.113.5")
		if !pc.acquire(ctx, servingSlot) || !pc.served() {
			t.Fatal("no serving slot in an empty pool")
		}
		busy = append(busy, pc)
	}
	advance(time.Hour)
	late, _ := accept("203.0.113.6")
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if late.acquire(short, servingSlot) {
		t.Error("a busy connection lost its serving slot")
	}
	busy[7].setIdle()
	idler := busy[7].Conn.(*fakeConn)
	again, _ := accept("203.0.113.6")
	if !again.acquire(ctx, servingSlot) || !idler.isClosed() {
		t.Errorf("the idle connection was not closed for the newcomer (closed %v)", idler.isClosed())
	}
	if _, serving, receiving := p.open(); serving != authConns || receiving != recvConns {
		t.Errorf("pools hold %d serving, %d receiving", serving, receiving)
	}
}
