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
)

// HTTP timings. None of them lets an unauthenticated client hold a
// connection for more than headerTimeout: it is answered (401) as soon as
// its headers are in, without reading its body.
const (
	// headerTimeout bounds sending a request's headers: clients send them
	// in one write, so seconds are plenty, and a client dripping them
	// loses its connection.
	headerTimeout = 5 * time.Second
	// bodyTimeout bounds sending an authenticated request's body:
	// MCP_SHELL_HTTP_MAX_BODY_BYTES (8 MiB by default) at 280 KB/s.
	bodyTimeout = 30 * time.Second
	// idleTimeout closes an authenticated keep-alive connection left
	// unused; unauthenticated connections are closed after their one
	// answer.
	idleTimeout = 60 * time.Second
	// sessionTimeout closes an MCP session (older protocols) nobody used
	// for that long.
	sessionTimeout = 30 * time.Minute
)

// Rate of audit records for requests refused before MCP (401, 403, 413):
// a burst for a misconfigured client to show up whole, then a few per
// second, so a flood cannot fill the log; each record written says how
// many were left out since the previous one (suppressed).
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
// moves its connection to the authenticated pool; must pass the
// DNS-rebinding and cross-origin checks (else 403); has its body read
// within bodyTimeout and at most o.MaxBody bytes (else 413). 401, 403 and
// 413 are audited, rate-limited. A DELETE of a session first cancels the
// session's running calls and lets their results reach their POSTs; a
// POST that ends before its calls (the client disconnected) cancels them;
// a call its client cancelled gets no response.
func (s *Server) HTTPHandler(o HTTPOptions) http.Handler {
	common := mcp.StreamableHTTPOptions{
		SessionTimeout:      sessionTimeout,
		MaxRequestBodyBytes: o.MaxBody,
		Logger:              s.opts.Log,
		// At 2026-07-28 the POST is the request: its end cancels the
		// handler (older versions: the carrier does it, see front).
		PropagateRequestCancellation: true,
	}
	stateless := common
	stateless.Stateless = true
	getServer := func(*http.Request) *mcp.Server { return s.mcp }
	f := &front{
		s:         s,
		token:     sha256.Sum256([]byte(o.Token)),
		maxBody:   o.MaxBody,
		stateful:  mcp.NewStreamableHTTPHandler(getServer, &common),
		stateless: mcp.NewStreamableHTTPHandler(getServer, &stateless),
		origin:    http.NewCrossOriginProtection(),
		limit:     limiter{tokens: refusalBurst},
	}
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
	return mux
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
	hs := &http.Server{
		Handler:           s.HTTPHandler(o),
		ReadHeaderTimeout: headerTimeout,
		IdleTimeout:       idleTimeout,
		ConnContext:       withConn,
		ErrorLog:          slog.NewLogLogger(s.opts.Log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(newPools(ln)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	deadline, cancel := context.WithTimeout(context.Background(), serveDeadline)
	defer cancel()
	if err := s.Shutdown(deadline); err != nil {
		s.opts.Log.Warn("calls still running at exit", "err", err)
	}
	s.carriers.wait(deadline, "", true)
	// Open sessions hold event streams (GET): closing them lets the
	// connections go idle.
	for ss := range s.mcp.Sessions() {
		go ss.Close()
	}
	if err := hs.Shutdown(deadline); err != nil {
		hs.Close()
	}
	return nil
}

// front is the /mcp endpoint in front of the SDK's handlers.
type front struct {
	s                   *Server
	token               [sha256.Size]byte
	maxBody             int64
	stateful, stateless http.Handler
	origin              *http.CrossOriginProtection
	limit               limiter
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
	if c := connOf(r); c != nil && !c.promote() {
		w.Header().Set("Connection", "close")
		http.Error(w, "too many open connections", http.StatusServiceUnavailable)
		return
	}
	if reason, arg := f.refusedOrigin(r); reason != "" {
		f.refuse(w, r, start, http.StatusForbidden, audit.Unauthorized, audit.KindOrigin, reason, arg)
		return
	}
	r.Header.Del(carrierHeader) // ours only
	switch r.Method {
	case http.MethodPost:
		body, ok := f.readBody(w, r, start)
		if !ok || f.answerUnserved(w, r, body) {
			return
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		key := rand.Text()
		c := &carrier{ctx: r.Context(), session: r.Header.Get(sessionHeader), done: make(chan struct{}),
			single: len(body) > 0 && bytes.TrimLeft(body, " \t\r\n")[0] != '['}
		r.Header.Set(carrierHeader, key)
		f.s.carriers.add(key, c)
		defer f.s.carriers.remove(key)
		w = &dropWriter{ResponseWriter: w, c: c}
	case http.MethodDelete:
		f.endSession(r.Header.Get(sessionHeader))
	}
	f.route(r).ServeHTTP(w, r)
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
// most f.maxBody bytes; on failure it has answered.
func (f *front) readBody(w http.ResponseWriter, r *http.Request, start time.Time) ([]byte, bool) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(bodyTimeout)) // not supported by test recorders: then unbounded
	body, err := io.ReadAll(io.LimitReader(r.Body, f.maxBody+1))
	// Cleared before the call runs: the connection's background read must
	// not time out under a long call (that would cancel it).
	rc.SetReadDeadline(time.Time{})
	switch {
	case err != nil:
		w.Header().Set("Connection", "close")
		status := http.StatusBadRequest
		if isTimeout(err) {
			status = http.StatusRequestTimeout
		}
		http.Error(w, "request body not received", status)
		return nil, false
	case int64(len(body)) > f.maxBody:
		f.refuse(w, r, start, http.StatusRequestEntityTooLarge, audit.InvalidRequest, audit.KindBodyTooLarge,
			fmt.Sprintf("request body larger than %d bytes (MCP_SHELL_HTTP_MAX_BODY_BYTES)", f.maxBody), "")
		return nil, false
	}
	return body, true
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// refuse answers a request refused before MCP saw it and closes its
// connection (its body is not read), and audits it within the rate limit.
func (f *front) refuse(w http.ResponseWriter, r *http.Request, start time.Time, status int, result audit.Result, kind audit.ErrorKind, reason, arg string) {
	w.Header().Set("Connection", "close")
	http.Error(w, http.StatusText(status), status)
	ok, suppressed := f.limit.allow(time.Now())
	if !ok {
		return
	}
	f.s.opts.Audit.Log(r.Context(), audit.Record{
		Time: start, Duration: time.Since(start), ResultType: result, ErrorKind: kind,
		Reason: reason, ReasonArg: arg, Remote: r.RemoteAddr, Status: status, Suppressed: suppressed,
		Lifetime: string(f.s.opts.Lifetime.Mechanism()),
	})
}

// limiter is a token bucket for refusal records.
type limiter struct {
	mu         sync.Mutex
	tokens     float64
	last       time.Time
	suppressed int
}

// allow reports whether a record may be written now and, if so, how many
// were suppressed since the last one.
func (l *limiter) allow(now time.Time) (bool, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.last.IsZero() {
		l.tokens = min(refusalBurst, l.tokens+now.Sub(l.last).Seconds()*refusalRate)
	}
	l.last = now
	if l.tokens < 1 {
		l.suppressed++
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
	return d.ResponseWriter.Write(p)
}

// Flush keeps server-sent events streaming through the wrapper.
func (d *dropWriter) Flush() {
	if f, ok := d.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (d *dropWriter) Unwrap() http.ResponseWriter { return d.ResponseWriter }
