package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/outputs"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// Retained outputs are MCP resources: shell-output://ID/stdout and
// shell-output://ID/stderr, one resource template. They are not listed
// (resources/list stays empty: adding and removing a resource per call
// would send every session a list_changed notification per call).

const outputTemplate = "shell-output://{id}/{stream}"

func outputURI(id, stream string) string { return "shell-output://" + id + "/" + stream }

// parseOutputURI splits a shell-output URI; ok is false for anything that
// is not exactly shell-output://ID/stdout or /stderr with a well-formed ID.
func parseOutputURI(uri string) (id, stream string, ok bool) {
	rest, found := strings.CutPrefix(uri, "shell-output://")
	if !found {
		return "", "", false
	}
	id, stream, _ = strings.Cut(rest, "/")
	if _, known := outputs.StreamIndex(stream); !known || !outputs.ValidID(id) {
		return "", "", false
	}
	return id, stream, true
}

// resourceReadLimit bounds one resources/read. A read has no paging, and
// one larger message risks clients' limits (the TypeScript SDK's stdio
// buffer is 10 MiB, and a binary output travels base64, a third larger);
// read_output pages the rest.
const resourceReadLimit = 1 << 20

// updateInterval is the least time between two resources/updated
// notifications of one subscribed stream: a subscriber learns of new
// output within a quarter second, and a job writing megabytes a second
// cannot flood its session.
const updateInterval = 250 * time.Millisecond

func (s *Server) addOutputResources() {
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: outputTemplate,
		Name:        "shell-output",
		Title:       "Retained command output",
		Description: "The retained stdout or stderr of a call or job (the output_id or job_id of its result). A read returns at most the first MiB; read_output pages by offset. Subscribers are notified while a job writes.",
		MIMEType:    "text/plain",
	}, s.readResource)
}

// readResource answers resources/read of one retained stream.
func (s *Server) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, stream, ok := parseOutputURI(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	out, err := s.bg.store.Get(id)
	if err != nil {
		return nil, resourceGone(uri, err)
	}
	i, _ := outputs.StreamIndex(stream)
	c, err := out.Read(i, 0, resourceReadLimit)
	if err != nil {
		return nil, resourceGone(uri, err)
	}
	rc := &mcp.ResourceContents{URI: uri}
	size := c.Info.Streams[i].Size
	if utf8.Valid(c.Data) {
		rc.MIMEType, rc.Text = "text/plain", string(c.Data)
		if size > int64(len(c.Data)) {
			rc.Text += fmt.Sprintf("\n[... %d more bytes retained; read_output {\"id\":%q,\"stream\":%q,\"offset\":%d} pages them]\n", size-int64(len(c.Data)), id, stream, len(c.Data))
		}
	} else {
		rc.MIMEType, rc.Blob = "application/octet-stream", c.Data
	}
	res := &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{rc}}
	// One server's output, for the client that asked: no shared cache
	// (ttlMs stays 0, stale at once: a job's output grows).
	res.CacheScope = "private"
	return res, nil
}

// resourceGone is the "resource not found" error (the SDK's code and
// data) of an output that is not there, saying why when it was deleted
// (expired, evicted; outputs.NotFoundError).
func resourceGone(uri string, err error) error {
	e := mcp.ResourceNotFoundError(uri)
	var nf *outputs.NotFoundError
	if je, ok := e.(*jsonrpc.Error); ok && errors.As(err, &nf) && nf.Reason != "" {
		je.Message = "Resource not found: " + nf.Error() + "; run the command again to get it back"
	}
	return e
}

// readAuditMiddleware writes one record per resources/read: the output's
// id, the stream and the byte count, never the content.
func (s *Server) readAuditMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "resources/read" {
			return next(ctx, method, req)
		}
		start := time.Now()
		var uri string
		if rr, ok := req.(*mcp.ReadResourceRequest); ok && rr.Params != nil {
			uri = rr.Params.URI
		}
		id, stream, _ := parseOutputURI(uri)
		o := outcome{kind: answered, read: &readNote{id: id, stream: stream}, start: start}
		// A read is answered only with room for its record, as a
		// read_output is.
		ticket, admitErr := s.opts.Audit.Admit()
		if admitErr != nil {
			o.kind, o.err, o.elapsed = auditRefused, admitErr, time.Since(start)
			s.opts.Audit.Log(ctx, auditRecord(call{tool: "resources/read"}, o))
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the server cannot write this read's audit record right now, so the resource was not read"}
		}
		res, err := next(ctx, method, req)
		o.elapsed = time.Since(start)
		if r, ok := res.(*mcp.ReadResourceResult); ok && err == nil {
			for _, c := range r.Contents {
				o.read.bytes += int64(len(c.Text) + len(c.Blob))
			}
		} else {
			o.kind, o.err = refused, refusal.New(CodeUnknownID, -1, "", "resource not found: %s", uri)
			if err != nil {
				o.err = refusal.New(CodeUnknownID, -1, "", "%s", err.Error())
			}
		}
		o.lifetime = s.opts.Lifetime.Mechanism()
		ticket.Log(ctx, auditRecord(call{tool: "resources/read"}, o))
		return res, err
	}
}

// subscriptions are the shell-output URIs sessions subscribed to, and the
// throttled notifications of their changes.
type subscriptions struct {
	s      *Server
	mu     sync.Mutex
	closed bool
	uris   map[string]*subscribed
}

// subscribed is one URI's subscribers and its pending notification.
type subscribed struct {
	sessions map[*mcp.ServerSession]bool
	timer    *time.Timer
	last     time.Time
	// gone: the output was deleted; the entry goes after the last
	// notification.
	gone bool
}

func newSubscriptions(s *Server) *subscriptions {
	return &subscriptions{s: s, uris: map[string]*subscribed{}}
}

// subscribe admits a subscription to an existing output's stream; anything
// else is "resource not found".
func (u *subscriptions) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	id, _, ok := parseOutputURI(uri)
	if !ok {
		return mcp.ResourceNotFoundError(uri)
	}
	if _, err := u.s.bg.store.Get(id); err != nil {
		return mcp.ResourceNotFoundError(uri)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	e := u.uris[uri]
	if e == nil {
		e = &subscribed{sessions: map[*mcp.ServerSession]bool{}}
		u.uris[uri] = e
	}
	e.sessions[req.Session] = true
	return nil
}

func (u *subscriptions) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if e := u.uris[req.Params.URI]; e != nil {
		delete(e.sessions, req.Session)
		if len(e.sessions) == 0 && e.timer == nil {
			delete(u.uris, req.Params.URI)
		}
	}
	return nil
}

// changed is the store's hook: an output grew, finished or was deleted.
// It only schedules; the notification is sent from a timer.
func (u *subscriptions) changed(id string, gone bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.closed || len(u.uris) == 0 {
		return
	}
	for _, stream := range outputs.Streams {
		uri := outputURI(id, stream)
		e := u.uris[uri]
		if e == nil {
			continue
		}
		e.gone = e.gone || gone
		if e.timer == nil {
			wait := max(0, updateInterval-time.Since(e.last))
			e.timer = time.AfterFunc(wait, func() { u.fire(uri) })
		}
	}
}

// fire sends one resources/updated for uri to its subscribers (the SDK
// keeps its own per-session subscription list).
func (u *subscriptions) fire(uri string) {
	u.mu.Lock()
	e := u.uris[uri]
	if u.closed || e == nil {
		u.mu.Unlock()
		return
	}
	e.timer, e.last = nil, time.Now()
	if e.gone || len(e.sessions) == 0 {
		delete(u.uris, uri)
	}
	u.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = u.s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
}

func (u *subscriptions) close() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.closed = true
	for _, e := range u.uris {
		if e.timer != nil {
			e.timer.Stop()
		}
	}
	u.uris = map[string]*subscribed{}
}
