package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/server/framing"
)

// protocolMiddleware gives a JSON-RPC code to the errors the SDK's own
// method handlers return as plain Go errors, which its encoder would send
// with code 0 (go-sdk v1.8.0 jsonrpc2 toWireError): a second initialize
// ("duplicate initialize received") becomes -32600, invalid request, and is
// audited as a protocol error; any other becomes -32603, internal error.
// Errors that carry a code, and tools/call (answered as tool results), are
// left alone.
func (s *Server) protocolMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		var coded *jsonrpc.Error
		if err == nil || method == "tools/call" || errors.As(err, &coded) || errors.Is(err, context.Canceled) {
			return res, err
		}
		code := int64(jsonrpc.CodeInternalError)
		if method == "initialize" {
			code = jsonrpc.CodeInvalidRequest
			s.auditProtocol(framing.Refusal{Method: method, Code: code, Message: err.Error()})
		}
		return res, &jsonrpc.Error{Code: code, Message: err.Error()}
	}
}

// protocolRecord is the record of a message answered with a JSON-RPC
// error before a tool handler saw it (by the stdio framing layer, the
// HTTP front or the SDK): result invalid_request, error_type protocol,
// with the client's address and the HTTP status over HTTP.
func (s *Server) protocolRecord(r framing.Refusal, remote string, status int) audit.Record {
	what := "a message"
	if r.Method != "" {
		what = r.Method
	}
	return audit.Record{
		Time: time.Now(), ResultType: audit.InvalidRequest, ErrorKind: audit.KindProtocol, Tool: r.Tool,
		Reason:    fmt.Sprintf("%s refused by the JSON-RPC layer (error %d): %s", what, r.Code, r.Message),
		ReasonArg: r.Quoted, Remote: remote, Status: status,
		Lifetime: string(s.opts.Lifetime.Mechanism()),
	}
}

// auditProtocol writes r's record, best-effort like other records not
// tied to an admitted call.
func (s *Server) auditProtocol(r framing.Refusal) {
	s.opts.Audit.Log(context.Background(), s.protocolRecord(r, "", 0))
}

// checkMessages applies framing.Check to the message or each message of
// a batch in an HTTP body; it returns the first refusal, or nil (a body
// that is not JSON is the SDK's to answer).
func checkMessages(body []byte) *framing.Refusal {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '[' {
		return framing.Check(body)
	}
	var batch []json.RawMessage
	if json.Unmarshal(body, &batch) != nil {
		return nil
	}
	for _, m := range batch {
		if r := framing.Check(m); r != nil {
			return r
		}
	}
	return nil
}

// refuseMessage answers a POST whose message framing.Check refused: HTTP
// 400 with the JSON-RPC error (what the SDK answers a body it cannot
// decode with), audited within the rate limit.
func (f *front) refuseMessage(w http.ResponseWriter, r *http.Request, ref *framing.Refusal) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(framing.ErrorReply(ref))
	rec := f.s.protocolRecord(*ref, r.RemoteAddr, http.StatusBadRequest)
	if ok, suppressed := f.limits.allow(http.StatusBadRequest, time.Now(), rec); ok {
		rec.Suppressed = suppressed
		f.s.opts.Audit.Log(r.Context(), rec)
	}
}
