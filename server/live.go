package server

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Why a running call was cancelled, as context causes. A call cancelled by
// its client through notifications/cancelled has the bare
// context.Canceled the SDK gives (clientCancelled reports it).
var (
	errShutdown     = errors.New("the server is shutting down")
	errSessionEnded = errors.New("the client closed the session")
	errDisconnected = errors.New("the client disconnected")
)

// cancelReason says why ctx's call was cancelled, for the audit record.
func cancelReason(ctx context.Context) string {
	switch cause := context.Cause(ctx); {
	case cause == nil:
		return ""
	case errors.Is(cause, context.Canceled):
		return "the client cancelled the call"
	case errors.Is(cause, context.DeadlineExceeded):
		return "the request's deadline passed"
	default:
		return cause.Error()
	}
}

// clientCancelled reports a call cancelled by its client's
// notifications/cancelled (or, at 2026-07-28 over HTTP, by its request
// going away), to which MCP says no response is sent.
func clientCancelled(ctx context.Context) bool {
	return ctx.Err() != nil && context.Cause(ctx) == context.Canceled
}

// liveCall is a running tools/call: the session it came on and how to
// cancel it.
type liveCall struct {
	session string
	cancel  context.CancelCauseFunc
	done    chan struct{}
}

// calls tracks the running calls so that ending a session or losing the
// connection that carried a call cancels it.
type calls struct {
	mu   sync.Mutex
	live map[*liveCall]struct{}
}

// start registers a call of session (its MCP session ID, "" over stdio and
// stateless HTTP) and returns its context and the function that
// unregisters it.
func (c *calls) start(ctx context.Context, session string) (context.Context, *liveCall) {
	ctx, cancel := context.WithCancelCause(ctx)
	lc := &liveCall{session: session, cancel: cancel, done: make(chan struct{})}
	c.mu.Lock()
	if c.live == nil {
		c.live = map[*liveCall]struct{}{}
	}
	c.live[lc] = struct{}{}
	c.mu.Unlock()
	return ctx, lc
}

func (c *calls) end(lc *liveCall) {
	c.mu.Lock()
	delete(c.live, lc)
	c.mu.Unlock()
	lc.cancel(nil)
	close(lc.done)
}

// running reports whether session has a running call.
func (c *calls) running(session string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for lc := range c.live {
		if lc.session == session {
			return true
		}
	}
	return false
}

// cancelSession cancels every running call of session with cause and
// returns a channel closed once they have all ended (and been audited).
func (c *calls) cancelSession(session string, cause error) <-chan struct{} {
	c.mu.Lock()
	var ended []*liveCall
	for lc := range c.live {
		if lc.session == session {
			ended = append(ended, lc)
		}
	}
	c.mu.Unlock()
	for _, lc := range ended {
		lc.cancel(cause)
	}
	all := make(chan struct{})
	go func() {
		for _, lc := range ended {
			<-lc.done
		}
		close(all)
	}()
	return all
}

// sessionID is the MCP session a request came on.
func sessionID(req mcp.Request) string {
	if r, ok := req.(*mcp.CallToolRequest); ok && r.Session != nil {
		return r.Session.ID()
	}
	return ""
}

// carrier is the HTTP request that carried calls to the server (a POST):
// when it ends before they do, they are cancelled, and a call its client
// cancelled gets no response written to it.
type carrier struct {
	ctx context.Context
	// session is the Mcp-Session-Id the POST named ("" for initialize
	// and stateless requests); done is closed when the POST has ended.
	session string
	done    chan struct{}
	// single is true when the POST carried one JSON-RPC message (not a
	// batch), so dropping its response drops nobody else's.
	single bool
	// drop is set once the only call it carries was cancelled by its
	// client: the response writer then discards what follows.
	drop atomic.Bool
}

// carrierHeader names the request header HTTPHandler sets, on every
// authenticated POST, to the key of its carrier (any value the client
// sent is replaced). The SDK hands each request's HTTP header to the tool
// call (RequestExtra.Header), which is how a call finds the POST that
// carried it.
const carrierHeader = "X-Mcp-Shell-Carrier"

// carriers are the POSTs in progress, by key.
type carriers struct {
	mu sync.Mutex
	m  map[string]*carrier
}

func (cs *carriers) add(key string, c *carrier) {
	cs.mu.Lock()
	if cs.m == nil {
		cs.m = map[string]*carrier{}
	}
	cs.m[key] = c
	cs.mu.Unlock()
}

func (cs *carriers) remove(key string) {
	cs.mu.Lock()
	c := cs.m[key]
	delete(cs.m, key)
	cs.mu.Unlock()
	if c != nil {
		close(c.done)
	}
}

// wait waits until every POST of session (every POST when all is true)
// has ended, or ctx is done.
func (cs *carriers) wait(ctx context.Context, session string, all bool) {
	cs.mu.Lock()
	var open []*carrier
	for _, c := range cs.m {
		if all || c.session == session {
			open = append(open, c)
		}
	}
	cs.mu.Unlock()
	for _, c := range open {
		select {
		case <-c.done:
		case <-ctx.Done():
			return
		}
	}
}

// of returns the carrier of req; found is false for a request that came
// by no POST (stdio). A key without a carrier means the POST has already
// ended: c is nil and found true.
func (cs *carriers) of(req mcp.Request) (c *carrier, found bool) {
	extra := req.GetExtra()
	if extra == nil || extra.Header == nil {
		return nil, false
	}
	key := extra.Header.Get(carrierHeader)
	if key == "" {
		return nil, false
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.m[key], true
}
