package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/server/framing"
)

// The capabilities that offer the client's methods.
const (
	capNone        = "" // lifecycle and tools: always served
	capResources   = "resources"
	capSubscribe   = "resources.subscribe"
	capPrompts     = "prompts"
	capCompletions = "completions"
	capLogging     = "logging"
)

// methods are the requests the SDK serves (go-sdk v1.8.0 mcp/server.go,
// serverMethodInfos), each with the capability a server advertises to
// offer it (MCP 2025-11-25, server/*: "Servers that support X MUST declare
// the X capability"). A method whose capability this server does not
// advertise is answered method not found, as one it does not know at all
// is: the SDK would answer logging/setLevel and an empty prompts/list
// although initialize never offered them.
var methods = map[string]string{
	"initialize":               capNone,
	"ping":                     capNone,
	"server/discover":          capNone,
	"subscriptions/listen":     capNone,
	"tools/list":               capNone,
	"tools/call":               capNone,
	"resources/list":           capResources,
	"resources/templates/list": capResources,
	"resources/read":           capResources,
	"resources/subscribe":      capSubscribe,
	"resources/unsubscribe":    capSubscribe,
	"prompts/list":             capPrompts,
	"prompts/get":              capPrompts,
	"completion/complete":      capCompletions,
	"logging/setLevel":         capLogging,
}

// notifications are the notifications the SDK takes from a client (the
// same table).
var notifications = map[string]bool{
	"notifications/cancelled":          true,
	"notifications/initialized":        true,
	"notifications/progress":           true,
	"notifications/roots/list_changed": true,
}

// offers reports whether caps advertises capability c.
func offers(caps *mcp.ServerCapabilities, c string) bool {
	switch c {
	case capNone:
		return true
	case capResources:
		return caps.Resources != nil
	case capSubscribe:
		return caps.Resources != nil && caps.Resources.Subscribe
	case capPrompts:
		return caps.Prompts != nil
	case capCompletions:
		return caps.Completions != nil
	case capLogging:
		//lint:ignore SA1019 sessions at revisions before 2026-07-28 still negotiate logging
		return caps.Logging != nil
	}
	return false
}

// notOffered is the error of a method whose capability is not advertised.
func notOffered(method, capability string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("method not found: %q (this server does not offer the %s capability)", method, capability)}
}

// offeredMiddleware answers, before the SDK's own handler, a method whose
// capability the server does not advertise (methods).
func (s *Server) offeredMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if c, known := methods[method]; known && !offers(s.caps, c) {
			return nil, notOffered(method, c)
		}
		return next(ctx, method, req)
	}
}

// beforeInitialize is the text of the SDK's error for a request that
// precedes initialize (go-sdk v1.8.0 ServerSession.handle: "method %q is
// invalid during session initialization"), which it sends with code 0.
const beforeInitialize = "is invalid during session initialization"

// errorCode is the JSON-RPC code of an SDK error that has none: a request
// before initialize is an invalid request (-32600: not valid in the
// session's state; the client must initialize first), anything else an
// internal error.
func errorCode(err error) int64 {
	if strings.Contains(err.Error(), beforeInitialize) {
		return jsonrpc.CodeInvalidRequest
	}
	return jsonrpc.CodeInternalError
}

// answerUnserved answers, in front of the stateful SDK handler, a POST of
// one message that handler would answer outside JSON-RPC: a request of a
// method it does not serve (HTTP 400 text/plain "JSON RPC not handled")
// gets a JSON-RPC method-not-found error, a notification it does not know
// 202 (JSON-RPC ignores it), and a request without Mcp-Session-Id other
// than initialize and ping gets HTTP 400 with a JSON-RPC invalid-request
// error saying to initialize first (the SDK would open a session for it
// and answer with code 0), audited like framing.Check's refusals. It reports whether it answered. Batches, and
// what the stateless handler serves (2026-07-28, which answers unknown
// methods with -32601 itself), are left to the SDK.
func (f *front) answerUnserved(w http.ResponseWriter, r *http.Request, body []byte) bool {
	if f.route(r) != f.stateful {
		return false
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
		Params struct {
			Meta map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if t := bytes.TrimSpace(body); len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &m) != nil || m.Method == nil {
		return false
	}
	method, call := *m.Method, m.ID != nil && string(m.ID) != "null"
	_, known := methods[method]
	switch {
	case !call && !known && !notifications[method]:
		w.WriteHeader(http.StatusAccepted)
		return true
	case call && !known:
		writeRPCError(w, http.StatusOK, m.ID, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("method not found: %q", method)})
		return true
	case call && r.Header.Get(sessionHeader) == "" && method != "initialize" && method != "ping" && m.Params.Meta[mcp.MetaKeyProtocolVersion] == nil:
		id, _ := framing.ParseID(m.ID) // framing.Check passed it
		f.refuseMessage(w, r, &framing.Refusal{ID: id, Method: method, Code: jsonrpc.CodeInvalidRequest,
			Message: fmt.Sprintf("invalid request: %q without an Mcp-Session-Id header; send initialize first and then the session id it returns", method)})
		return true
	}
	return false
}

// writeRPCError answers with one JSON-RPC error response.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, e *jsonrpc.Error) {
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", id, e})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(data)
}
