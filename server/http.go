package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/server/framing"
)

// HTTP timings. None of them lets an unauthenticated client hold a
// connection for more than headerTimeout: it is answered (401) as soon as
// its headers are in, without reading its body. An authenticated client
// holds a connection whose body has not arrived for at most bodyTimeout,
// and less when others need the slot (conns.go).
const (
	// headerTimeout bounds sending a request's headers: clients send them
	// in one write, so seconds are plenty, and a client dripping them
	// loses its connection.
	headerTimeout = 5 * time.Second
	// bodyTimeout bounds sending an authenticated request's body:
	// MCP_SHELL_HTTP_MAX_BODY_BYTES (8 MiB by default) at 280 KB/s. A
	// body late past it is answered 408 and its connection closed.
	bodyTimeout = 30 * time.Second
	// idleTimeout closes an authenticated keep-alive connection left
	// unused; unauthenticated connections are closed after their one
	// answer.
	idleTimeout = 60 * time.Second
	// sessionTimeout closes an MCP session (older protocols) nobody used
	// for that long, unless a call or a job of its own is running.
	sessionTimeout = 30 * time.Minute
)

// maxHeaderBytes caps a request's header block (http.Server
// MaxHeaderBytes; net/http reads 4 KiB more before it answers 431). The
// TypeScript SDK client (1.32.2) sends at most 393 bytes of headers, the
// go-sdk client as few; 16 KiB leaves forty times that for a long token
// and what a reverse proxy adds (nginx forwards at most 4 × 8 KiB), and
// makes the headers of the 768 connections the pools hold (512
// unauthenticated at most, 256 authenticated) about 15 MiB at worst
// rather than the default's 768 MiB.
const maxHeaderBytes = 16 << 10

// Rate of audit records for requests refused before MCP (400, 401, 403,
// 408, 413, 503), per status: a burst for a misconfigured client to show
// up whole, then a few per second, so a flood cannot fill the log nor one
// kind of refusal hide another; each record written says how many of its
// status were left out since the previous one (suppressed).
const (
	refusalBurst = 20
	refusalRate  = 5 // per second
)

// HTTPOptions configure the Streamable HTTP transport.
type HTTPOptions struct {
	// Token is the bearer token every /mcp request must carry.
	Token string
	// MaxBody caps a request body in bytes.
	MaxBody int64
	// MaxSessions caps the open MCP sessions (protocols before
	// 2026-07-28); 0 means DefaultMaxSessions.
	MaxSessions int
}

// protocolHeader and sessionHeader are the Streamable HTTP headers that
// route a request.
const (
	protocolHeader = "Mcp-Protocol-Version"
	sessionHeader  = "Mcp-Session-Id"
	// statelessFrom is the first protocol version served without sessions
	// (SEP-2575); the SDK serves it only from a stateless handler.
	statelessFrom = "2026-07-28"
)

// HTTPHandler serves Streamable HTTP at /mcp and /healthz for probes (no
// token; it reveals nothing). Every protocol version the SDK supports is
// served at the one endpoint: a request that names protocol 2026-07-28 or
// later in its Mcp-Protocol-Version header and has no session goes to a
// stateless handler (one ephemeral session per request, SEP-2575), any
// other to the stateful handler (sessions, Mcp-Session-Id). A client picks
// by what it sends: the SDK's and other 2026-07-28 clients send the header
// on every request; older clients send initialize without it.
//
// In order, a /mcp request: needs the bearer token (else 401 with
// WWW-Authenticate: Bearer and Connection: close, its body unread), which
// moves its connection to the authenticated pool (else 503 when no slot
// can be had); must pass the DNS-rebinding and cross-origin checks (else
// 403); has its body read within bodyTimeout (else 408, also when its
// slot was taken for arriving too slowly) and at most o.MaxBody bytes
// (else 413); must hold JSON-RPC messages the SDK can answer exactly
// (framing.Check: else 400 with the JSON-RPC error); and, to open a
// session, must find one free under o.MaxSessions (else 503). Every
// refusal closes the connection and is audited, rate-limited per status.
// A DELETE of a session first cancels the session's running calls and
// lets their results reach their POSTs; a POST that ends before its calls
// (the client disconnected) cancels them; a call its client cancelled
// gets no response.
func (s *Server) HTTPHandler(o HTTPOptions) http.Handler {
	h, _ := s.httpHandler(o)
	return h
}

func (s *Server) httpHandler(o HTTPOptions) (http.Handler, *front) {
	common := mcp.StreamableHTTPOptions{
		// Sessions are closed by the server's own table (sessions.go),
		// which spares those with running calls or jobs; the SDK's timer
		// would not.
		SessionTimeout:      0,
		MaxRequestBodyBytes: o.MaxBody,
		Logger:              s.opts.Log,
		// At 2026-07-28 the POST is the request: its end cancels the
		// handler (older versions: the carrier does it, see front).
		PropagateRequestCancellation: true,
	}
	stateless := common
	stateless.Stateless = true
	getServer := func(*http.Request) *mcp.Server { return s.mcp }
	s.sessions = newSessionTable(s)
	f := &front{
		s:         s,
		token:     sha256.Sum256([]byte(o.Token)),
		maxBody:   o.MaxBody,
		stateful:  mcp.NewStreamableHTTPHandler(getServer, &common),
		stateless: mcp.NewStreamableHTTPHandler(getServer, &stateless),
		origin:    http.NewCrossOriginProtection(),
		sessions:  s.sessions,
	}
	s.sessions.setMax(o.MaxSessions)
	mux := http.NewServeMux()
	mux.Handle("/mcp", f)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		closeUnlessAuthenticated(w, r)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		closeUnlessAuthenticated(w, r)
		http.NotFound(w, r)
	})
	return mux, f
}

// closeUnlessAuthenticated ends an unauthenticated connection after this
// answer: it never idles in a pool.
func closeUnlessAuthenticated(w http.ResponseWriter, r *http.Request) {
	if c := connOf(r); c != nil && !c.authenticated() {
		w.Header().Set("Connection", "close")
	}
}

// ServeStreamable serves HTTPHandler on ln until ctx is done, then stops:
// it terminates every running call's process group, lets the calls'
// cancelled results reach their POSTs, closes the sessions and the
// connections, and returns within StopDeadline less two FlushReserves.
func (s *Server) ServeStreamable(ctx context.Context, ln net.Listener, o HTTPOptions) error {
	handler, front := s.httpHandler(o)
	hs := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: headerTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ConnContext:       withConn,
		ConnState:         connState,
		ErrorLog:          slog.NewLogLogger(s.opts.Log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(newPools(ln)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	start := time.Now()
	deadline, cancel := context.WithTimeout(context.Background(), serveDeadline)
	defer cancel()
	if err := s.Shutdown(deadline); err != nil {
		s.opts.Log.Warn("calls still running at exit", "err", err)
	}
	s.sessions.stop()
	s.carriers.wait(deadline, "", true)
	// Open sessions hold event streams (GET): closing them lets the
	// connections go idle.
	for ss := range s.mcp.Sessions() {
		go ss.Close()
	}
	if err := hs.Shutdown(deadline); err != nil {
		hs.Close()
	}
	front.limits.flush(s.opts.Audit)
	s.opts.Log.Info("stopped", "why", "signal", "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// front is the /mcp endpoint in front of the SDK's handlers.
type front struct {
	s                   *Server
	token               [sha256.Size]byte
	maxBody             int64
	stateful, stateless http.Handler
	origin              *http.CrossOriginProtection
	limits              limiters
	sessions            *sessionTable
}

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if tok, presented := bearer(r); !f.valid(tok) {
		challenge := `Bearer realm="mcp-shell-server"`
		if presented {
			challenge += `, error="invalid_token"` // RFC 6750 §3.1
		}
		w.Header().Set("WWW-Authenticate", challenge)
		f.refuse(w, r, start, http.StatusUnauthorized, audit.Unauthorized, audit.KindToken, "missing or invalid bearer token", "")
		return
	}
	if reason, arg := f.refusedOrigin(r); reason != "" {
		f.refuse(w, r, start, http.StatusForbidden, audit.Unauthorized, audit.KindOrigin, reason, arg)
		return
	}
	c := connOf(r)
	r.Header.Del(carrierHeader) // ours only
	session := r.Header.Get(sessionHeader)
	switch r.Method {
	case http.MethodPost:
		body, ok := f.readBody(w, r, start, c)
		if !ok {
			return
		}
		if ref := checkMessages(body); ref != nil {
			f.refuseMessage(w, r, ref)
			return
		}
		if f.answerUnserved(w, r, body) {
			return
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		key := rand.Text()
		car := &carrier{ctx: r.Context(), session: session, done: make(chan struct{}), deferred: framing.NewDeferrals(),
			single: len(body) > 0 && bytes.TrimLeft(body, " \t\r\n")[0] != '['}
		r.Header.Set(carrierHeader, key)
		f.s.carriers.add(key, car)
		defer f.s.carriers.remove(key)
		w = &dropWriter{ResponseWriter: w, c: car}
	default:
		// No body: a GET's stream or a DELETE is served at once.
		if c != nil && (!c.acquire(r.Context(), servingSlot) || !c.served()) {
			f.refuseBusy(w, r, start)
			return
		}
		if r.Method == http.MethodDelete {
			f.endSession(session)
		}
	}
	h := f.route(r)
	if h == f.stateful {
		if session == "" && r.Method == http.MethodPost {
			// A new session: room for it first, and its id once the SDK
			// has made it.
			if !f.sessions.admit() {
				f.refuse(w, r, start, http.StatusServiceUnavailable, audit.ServerError, audit.KindBusy,
					fmt.Sprintf("too many open MCP sessions: all %d carry running calls, jobs or requests (MCP_SHELL_HTTP_MAX_SESSIONS)", f.sessions.limit()), "")
				return
			}
			defer f.sessions.admitted()
			w = &sessionWriter{ResponseWriter: w, t: f.sessions}
		} else if session != "" {
			f.sessions.enter(session)
			defer f.sessions.leave(session)
		}
	}
	h.ServeHTTP(w, r)
}

// route picks the SDK handler for r (see HTTPHandler).
func (f *front) route(r *http.Request) http.Handler {
	if r.Header.Get(sessionHeader) == "" && r.Header.Get(protocolHeader) >= statelessFrom {
		return f.stateless
	}
	return f.stateful
}

// endSession cancels a session's running calls and waits (bounded) until
// their results have reached their POSTs, so that the SDK's close, which
// waits for in-flight handlers, returns at once and no POST ends empty.
func (f *front) endSession(id string) {
	if id == "" {
		return
	}
	f.sessions.forget(id)
	ctx, cancel := context.WithTimeout(context.Background(), StopDeadline)
	defer cancel()
	select {
	case <-f.s.calls.cancelSession(id, errSessionEnded):
	case <-ctx.Done():
	}
	f.s.carriers.wait(ctx, id, false)
}

// bearer returns the request's bearer token and whether an Authorization
// header was presented at all.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", false
	}
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", true
	}
	return strings.TrimSpace(tok), true
}

// valid compares in constant time; hashing first hides the length too.
func (f *front) valid(tok string) bool {
	sum := sha256.Sum256([]byte(tok))
	return tok != "" && subtle.ConstantTimeCompare(sum[:], f.token[:]) == 1
}

// refusedOrigin applies the DNS-rebinding check (a request that reached
// a loopback address must name a loopback host) and the cross-origin
// check; it returns why r is refused and the client value to redact.
func (f *front) refusedOrigin(r *http.Request) (reason, arg string) {
	if la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && loopback(la.String()) && !loopback(r.Host) {
		return fmt.Sprintf("forbidden: Host header %q refused for a loopback listener (DNS-rebinding protection)", r.Host), r.Host
	}
	if err := f.origin.Check(r); err != nil {
		return "forbidden: cross-origin request refused (" + err.Error() + ")", r.Header.Get("Origin")
	}
	return "", ""
}

// loopback reports a host (with or without port) that is localhost or a
// loopback address.
func loopback(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = strings.Trim(hostport, "[]")
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// readBody reads an authenticated request's body within bodyTimeout, at
// most f.maxBody bytes, and gets its connection c a serving slot
// (conns.go): a first request whose body is not in within quickBody
// holds a receiving slot until it is, a further request on a kept-alive
// connection keeps its serving slot. On failure it has answered. The
// read deadline stays passed on every failure, so that net/http, which
// drains up to 256 KiB of an unread body before closing, closes the
// connection at once.
func (f *front) readBody(w http.ResponseWriter, r *http.Request, start time.Time, c *poolConn) ([]byte, bool) {
	if c == nil { // a handler used without pools (tests)
		rc := http.NewResponseController(w)
		rc.SetReadDeadline(time.Now().Add(bodyTimeout)) // not supported by test recorders: then unbounded
		body, err := io.ReadAll(io.LimitReader(r.Body, f.maxBody+1))
		if !f.bodyRead(w, r, start, nil, body, err) {
			return nil, false
		}
		rc.SetReadDeadline(time.Time{})
		return body, true
	}
	c.bodyDeadline(time.Now().Add(bodyTimeout))
	src := io.LimitReader(countingReader{r.Body, c}, f.maxBody+1)
	var body []byte
	var err error
	if c.serving() {
		c.startBody()
		body, err = io.ReadAll(src)
	} else {
		type read struct {
			body []byte
			err  error
		}
		done := make(chan read, 1)
		go func() { b, err := io.ReadAll(src); done <- read{b, err} }()
		t := time.NewTimer(quickBody)
		var got read
		select {
		case got = <-done:
		case <-t.C:
			if !c.acquire(r.Context(), receivingSlot) {
				c.Conn.SetReadDeadline(time.Now()) // ends the read
				<-done
				f.refuseBusy(w, r, start)
				return nil, false
			}
			got = <-done
		}
		t.Stop()
		body, err = got.body, got.err
	}
	if !f.bodyRead(w, r, start, c, body, err) {
		return nil, false
	}
	if !c.acquire(r.Context(), servingSlot) {
		f.refuseBusy(w, r, start)
		return nil, false
	}
	if !c.served() { // cut just as the last byte arrived
		f.refuseCut(w, r, start, len(body))
		return nil, false
	}
	return body, true
}

// bodyRead answers a body read that failed (timed out, cut, too large,
// broken) and reports whether it succeeded.
func (f *front) bodyRead(w http.ResponseWriter, r *http.Request, start time.Time, c *poolConn, body []byte, err error) bool {
	switch {
	case c != nil && c.wasCut():
		f.refuseCut(w, r, start, len(body))
	case err != nil && isTimeout(err):
		f.refuse(w, r, start, http.StatusRequestTimeout, audit.InvalidRequest, audit.KindBodyTimeout,
			fmt.Sprintf("request body not received within %v (%d bytes arrived)", bodyTimeout, len(body)), "")
	case err != nil:
		http.NewResponseController(w).SetReadDeadline(time.Now())
		w.Header().Set("Connection", "close")
		http.Error(w, "request body not received", http.StatusBadRequest)
	case int64(len(body)) > f.maxBody:
		f.refuse(w, r, start, http.StatusRequestEntityTooLarge, audit.InvalidRequest, audit.KindBodyTooLarge,
			fmt.Sprintf("request body larger than %d bytes (MCP_SHELL_HTTP_MAX_BODY_BYTES)", f.maxBody), "")
	default:
		return true
	}
	return false
}

// refuseCut answers a request whose slot was taken while its body arrived
// too slowly (conns.go).
func (f *front) refuseCut(w http.ResponseWriter, r *http.Request, start time.Time, n int) {
	f.refuse(w, r, start, http.StatusRequestTimeout, audit.InvalidRequest, audit.KindBodyTimeout,
		fmt.Sprintf("request body not received: %d bytes in %v, slower than %d bytes/s, and its connection slot was needed by another client", n, time.Since(start).Round(time.Millisecond), slowBodyRate), "")
}

// refuseBusy answers a request that found no connection slot in time.
func (f *front) refuseBusy(w http.ResponseWriter, r *http.Request, start time.Time) {
	f.refuse(w, r, start, http.StatusServiceUnavailable, audit.ServerError, audit.KindBusy,
		fmt.Sprintf("too many open connections: every authenticated connection slot was in use for %v (%d serving requests, %d receiving bodies)", slotWait, authConns, recvConns), "")
}

// countingReader counts the body bytes of c's request as they arrive, for
// the pools' slowBody.
type countingReader struct {
	r io.Reader
	c *poolConn
}

func (cr countingReader) Read(p []byte) (int, error) {
	n, err := cr.r.Read(p)
	cr.c.received.Add(int64(n))
	return n, err
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// refuse answers a request refused before MCP saw it and closes its
// connection at once (its read deadline set in the past, so net/http does
// not wait for the rest of an unread body), and audits it within the rate
// limit of its status.
func (f *front) refuse(w http.ResponseWriter, r *http.Request, start time.Time, status int, result audit.Result, kind audit.ErrorKind, reason, arg string) {
	http.NewResponseController(w).SetReadDeadline(time.Now())
	w.Header().Set("Connection", "close")
	http.Error(w, http.StatusText(status), status)
	rec := audit.Record{
		Time: start, Duration: time.Since(start), ResultType: result, ErrorKind: kind,
		Reason: reason, ReasonArg: arg, Remote: r.RemoteAddr, Status: status,
		Lifetime: string(f.s.opts.Lifetime.Mechanism()),
	}
	ok, suppressed := f.limits.allow(status, time.Now(), rec)
	if !ok {
		return
	}
	rec.Suppressed = suppressed
	f.s.opts.Audit.Log(r.Context(), rec)
}

// limiters are the refusal records' token buckets, one per HTTP status.
type limiters struct {
	mu       sync.Mutex
	byStatus map[int]*limiter
}

// allow reports whether rec, a record of status, may be written now and,
// if so, how many of that status were suppressed since the last one.
func (ls *limiters) allow(status int, now time.Time, rec audit.Record) (bool, int) {
	ls.mu.Lock()
	l := ls.byStatus[status]
	if l == nil {
		if ls.byStatus == nil {
			ls.byStatus = map[int]*limiter{}
		}
		l = &limiter{tokens: refusalBurst}
		ls.byStatus[status] = l
	}
	ls.mu.Unlock()
	return l.allow(now, rec)
}

// flush writes, for every status with refusals left out since its last
// record, one record that counts them (at shutdown: no later record would
// carry the count).
func (ls *limiters) flush(log *audit.Logger) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for status, l := range ls.byStatus {
		l.mu.Lock()
		n, rec := l.suppressed, l.lastSuppressed
		l.suppressed = 0
		l.mu.Unlock()
		if n == 0 {
			continue
		}
		rec.Time, rec.Duration, rec.Suppressed = time.Now(), 0, n
		rec.Reason = fmt.Sprintf("%d requests refused with status %d since the last record of it, the last one: %s", n, status, rec.Reason)
		log.Log(context.Background(), rec)
	}
}

// limiter is a token bucket for refusal records; lastSuppressed is the
// last record it left out.
type limiter struct {
	mu             sync.Mutex
	tokens         float64
	last           time.Time
	suppressed     int
	lastSuppressed audit.Record
}

// allow reports whether rec may be written now and, if so, how many
// were suppressed since the last one.
func (l *limiter) allow(now time.Time, rec audit.Record) (bool, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.last.IsZero() {
		l.tokens = min(refusalBurst, l.tokens+now.Sub(l.last).Seconds()*refusalRate)
	}
	l.last = now
	if l.tokens < 1 {
		l.suppressed++
		l.lastSuppressed = rec
		return false, 0
	}
	l.tokens--
	n := l.suppressed
	l.suppressed = 0
	return true, n
}

// dropWriter passes a POST's response through until its call was
// cancelled by the client; then it discards what follows.
type dropWriter struct {
	http.ResponseWriter
	c *carrier
}

func (d *dropWriter) Write(p []byte) (int, error) {
	if d.c.drop.Load() {
		return len(p), nil
	}
	// The SDK writes each message (an SSE event, a JSON body) in one
	// Write, so a placeholder is never split across two.
	if err := d.c.deferred.Splice(d.ResponseWriter, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush keeps server-sent events streaming through the wrapper.
func (d *dropWriter) Flush() {
	if f, ok := d.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (d *dropWriter) Unwrap() http.ResponseWriter { return d.ResponseWriter }
