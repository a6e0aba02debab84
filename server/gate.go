package server

import (
	"sync"
	"sync/atomic"
)

// gate admits tool calls until Shutdown closes it and lets Shutdown wait
// for the calls it admitted, up to their audit record.
type gate struct {
	closed atomic.Bool
	// mu orders every admission's Add before close returns. A WaitGroup
	// Add that starts from zero must happen before Wait; without the lock
	// a call could pass the flag just before close and Add while Shutdown
	// already waits.
	mu      sync.Mutex
	running sync.WaitGroup
}

// enter admits a call, or reports false once the gate is closed. An
// admitted call must leave.
func (g *gate) enter() bool {
	if g.closed.Load() {
		return false // closed for good: no need to lock
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed.Load() {
		return false
	}
	g.running.Add(1)
	return true
}

func (g *gate) leave() { g.running.Done() }

// closing reports whether Shutdown has begun.
func (g *gate) closing() bool { return g.closed.Load() }

// close admits no more calls; it may be called more than once.
func (g *gate) close() {
	g.mu.Lock()
	g.closed.Store(true)
	g.mu.Unlock()
}

// wait returns once every admitted call has left.
func (g *gate) wait() { g.running.Wait() }
