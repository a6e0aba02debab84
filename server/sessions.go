package server

import (
	"net/http"
	"sync"
	"time"
)

// DefaultMaxSessions is the session cap when HTTPOptions.MaxSessions is 0
// (package config documents the figure it comes from).
const DefaultMaxSessions = 1024

// sessionSweep is how often sessions idle past sessionTimeout are looked
// for: a session lives at most this much longer than its timeout.
const sessionSweep = time.Minute

// sessionTable bounds the MCP sessions of the Streamable HTTP transport
// (protocols before 2026-07-28; the stateless protocol has none). The SDK
// keeps every session it opened until it is closed, at about 20 KiB each,
// so opening sessions and abandoning them would grow memory without
// bound. The table counts the sessions the SDK opened, the HTTP requests
// naming each and when each was last used, and the jobs each started; it
// closes, through the SDK, a session:
//
//   - when a new one would exceed the cap: the least recently used idle
//     session (no request in progress, no running call or job), so a
//     client that abandons sessions pays with its own oldest ones first;
//     with none idle the new session is refused (503);
//   - when it has been idle for sessionTimeout (checked every
//     sessionSweep): the SDK's own idle timer would also close a session
//     whose job still runs.
//
// The client of a closed session gets 404 for its id and starts a new
// one, as the Streamable HTTP transport specifies. A nil table does
// nothing (stdio).
type sessionTable struct {
	s *Server

	mu   sync.Mutex
	max  int
	open map[string]*sessionUse
	// pending counts new sessions admitted whose POST has not ended.
	pending int
	// jobs counts the running jobs each session started.
	jobs    map[string]int
	sweep   *time.Timer
	stopped bool
}

// sessionUse is one open session's use.
type sessionUse struct {
	last     time.Time
	requests int
}

func newSessionTable(s *Server) *sessionTable {
	return &sessionTable{s: s, max: DefaultMaxSessions, open: map[string]*sessionUse{}, jobs: map[string]int{}}
}

// setMax sets the cap (0: DefaultMaxSessions) and starts the idle sweep.
func (t *sessionTable) setMax(n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n <= 0 {
		n = DefaultMaxSessions
	}
	t.max = n
	if t.sweep == nil {
		t.sweep = time.AfterFunc(sessionSweep, t.sweepIdle)
	}
}

func (t *sessionTable) limit() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.max
}

// stop ends the idle sweep.
func (t *sessionTable) stop() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = true
	if t.sweep != nil {
		t.sweep.Stop()
	}
}

// admit makes room for one new session, closing the least recently used
// idle one when the table is full; false means every session is in use.
// An admitted session is counted until admitted is called.
func (t *sessionTable) admit() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.open)+t.pending >= t.max {
		t.prune()
	}
	for len(t.open)+t.pending >= t.max {
		id := t.leastRecentIdle()
		if id == "" {
			return false
		}
		t.closeLocked(id)
	}
	t.pending++
	return true
}

// admitted ends an admitted session's POST (registered or not).
func (t *sessionTable) admitted() {
	t.mu.Lock()
	t.pending--
	t.mu.Unlock()
}

// register counts the session the SDK opened for an admitted POST.
func (t *sessionTable) register(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.open[id]; !ok {
		t.open[id] = &sessionUse{last: time.Now()}
	}
}

// enter and leave bracket an HTTP request that names session id.
func (t *sessionTable) enter(id string) { t.use(id, 1) }
func (t *sessionTable) leave(id string) { t.use(id, -1) }

func (t *sessionTable) use(id string, d int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if u := t.open[id]; u != nil {
		u.requests += d
		u.last = time.Now()
	}
}

// forget drops a session the client deleted.
func (t *sessionTable) forget(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.open, id)
}

// jobStarted and jobEnded count a session's running jobs (a job outlives
// its request; its session stays open for its notifications).
func (t *sessionTable) jobStarted(id string) { t.jobDelta(id, 1) }
func (t *sessionTable) jobEnded(id string)   { t.jobDelta(id, -1) }

func (t *sessionTable) jobDelta(id string, d int) {
	if t == nil || id == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.jobs[id] += d; t.jobs[id] <= 0 {
		delete(t.jobs, id)
	}
}

// idle reports whether session id may be closed; t.mu is held.
func (t *sessionTable) idle(id string, u *sessionUse) bool {
	return u.requests == 0 && t.jobs[id] == 0 && !t.s.calls.running(id)
}

// leastRecentIdle is the idle session used longest ago, or ""; t.mu is
// held.
func (t *sessionTable) leastRecentIdle() string {
	var best string
	var at time.Time
	for id, u := range t.open {
		if t.idle(id, u) && (best == "" || u.last.Before(at)) {
			best, at = id, u.last
		}
	}
	return best
}

// prune drops the sessions the SDK closed on its own (a failed
// initialize, a broken stream); t.mu is held.
func (t *sessionTable) prune() {
	live := map[string]bool{}
	for ss := range t.s.mcp.Sessions() {
		live[ss.ID()] = true
	}
	for id := range t.open {
		if !live[id] {
			delete(t.open, id)
		}
	}
}

// closeLocked closes session id through the SDK and forgets it; t.mu is
// held. The SDK's close runs apart: it waits for the session's handlers,
// and an idle session has none.
func (t *sessionTable) closeLocked(id string) {
	delete(t.open, id)
	for ss := range t.s.mcp.Sessions() {
		if ss.ID() == id {
			go ss.Close()
			return
		}
	}
}

// sweepIdle closes the sessions idle for longer than sessionTimeout and
// schedules the next sweep.
func (t *sessionTable) sweepIdle() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	cutoff := time.Now().Add(-sessionTimeout)
	for id, u := range t.open {
		if u.last.Before(cutoff) && t.idle(id, u) {
			t.closeLocked(id)
		}
	}
	t.sweep.Reset(sessionSweep)
}

// sessionWriter registers the session the SDK opens for a POST without a
// session id, from the Mcp-Session-Id header of its answer.
type sessionWriter struct {
	http.ResponseWriter
	t    *sessionTable
	seen bool
}

func (w *sessionWriter) WriteHeader(code int) {
	w.note()
	w.ResponseWriter.WriteHeader(code)
}

func (w *sessionWriter) Write(p []byte) (int, error) {
	w.note()
	return w.ResponseWriter.Write(p)
}

func (w *sessionWriter) note() {
	if w.seen {
		return
	}
	w.seen = true
	if id := w.Header().Get(sessionHeader); id != "" {
		w.t.register(id)
	}
}

// Flush keeps server-sent events streaming through the wrapper.
func (w *sessionWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *sessionWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
