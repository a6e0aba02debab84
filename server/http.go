package server

import (
	"context"
	"crypto/subtle"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
)

// HTTPHandler serves Streamable HTTP: the MCP endpoint at /mcp behind a
// bearer token (compared in constant time), and /healthz for container
// probes (no token; it reveals nothing). Request bodies are limited to
// maxBody bytes; DNS-rebinding and cross-origin protection stay on.
// A request to /mcp without a valid token gets 401 and an audit record.
func (s *Server) HTTPHandler(token string, maxBody int64) http.Handler {
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		SessionTimeout:               30 * time.Minute,
		MaxRequestBodyBytes:          maxBody,
		Logger:                       s.opts.Log,
		PropagateRequestCancellation: true,
	})
	verify := func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
		if subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Expiration: time.Now().Add(time.Hour)}, nil
	}
	protected := auth.RequireBearerToken(verify, nil)(mcpHandler)
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.auditUnauthorized(protected))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	return http.NewCrossOriginProtection().Handler(mux)
}

// statusWriter remembers the response status.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Flush keeps server-sent events streaming through the wrapper.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (s *Server) auditUnauthorized(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status == http.StatusUnauthorized || sw.status == http.StatusForbidden {
			reason, kind := "missing or invalid bearer token", audit.KindToken
			if sw.status == http.StatusForbidden {
				reason, kind = "forbidden: Host or Origin header refused (DNS-rebinding or cross-origin protection)", audit.KindOrigin
			}
			s.opts.Audit.Log(r.Context(), audit.Record{
				Time: start, Duration: time.Since(start), ResultType: audit.Unauthorized,
				Reason: reason, Remote: r.RemoteAddr, ErrorKind: kind,
				Lifetime: string(lifetime.Default().Mechanism()),
			})
		}
	})
}
