package framing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// batchesIn is the one MCP revision whose receivers must accept JSON-RPC
// batches (2025-03-26, basic/index "Batching"); 2024-11-05 is silent and
// 2025-06-18 removed them, so the others keep answering a batch with one
// error per request.
const batchesIn = "2025-03-26"

// batch is the requests of one batch line awaiting their responses: once
// the last has settled, the responses (and the errors this layer answered
// for its invalid elements) are written as one JSON array, as JSON-RPC 2.0
// §6 asks.
type batch struct {
	pending map[jsonrpc.ID]bool
	replies []json.RawMessage
}

// noteInitialize remembers the id of an initialize request, whose
// response says which revision the session speaks (negotiated).
func (t *Transport) noteInitialize(method string, id jsonrpc.ID) {
	if method == "initialize" && id.IsValid() {
		t.mu.Lock()
		t.initID = id
		t.mu.Unlock()
	}
}

// noteNegotiated reads the protocol version out of the successful
// response to the initialize request.
func (t *Transport) noteNegotiated(resp *jsonrpc.Response) {
	t.mu.Lock()
	isInit := t.initID.IsValid() && resp.ID == t.initID
	t.mu.Unlock()
	if !isInit || resp.Error != nil {
		return
	}
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(resp.Result, &r) == nil {
		t.negotiated.Store(r.ProtocolVersion)
	}
}

// Negotiated is the protocol version the session's initialize response
// named, or "" before it was written.
func (t *Transport) Negotiated() string {
	v, _ := t.negotiated.Load().(string)
	return v
}

// handleBatch serves a batch line at 2025-03-26: every element is
// validated as a line of its own would be (the errors are collected, not
// written), the valid ones go to the SDK in order, and the answers go out
// together once every request of the batch has been answered (or
// cancelled). Any other revision gets refuseBatch.
func (t *Transport) handleBatch(line []byte) {
	if t.Negotiated() != batchesIn {
		t.refuseBatch(line)
		return
	}
	var elems []json.RawMessage
	if json.Unmarshal(line, &elems) != nil || len(elems) == 0 {
		t.refuse(jsonrpc.ID{}, "", "", jsonrpc.CodeInvalidRequest, "invalid request: empty batch")
		return
	}
	b := &batch{pending: map[jsonrpc.ID]bool{}}
	var msgs []jsonrpc.Message
	t.collect = &b.replies // reply() adds to the batch's answer
	for _, el := range elems {
		el = bytes.TrimSpace(el)
		if len(el) == 0 || el[0] != '{' {
			t.refuse(jsonrpc.ID{}, "", "", jsonrpc.CodeInvalidRequest, "invalid request: a batch element must be a JSON object")
			continue
		}
		msg, ok := t.validate(el)
		if !ok {
			continue
		}
		if req, isReq := msg.(*jsonrpc.Request); isReq && req.ID.IsValid() {
			b.pending[req.ID] = true
		}
		msgs = append(msgs, msg)
	}
	t.collect = nil
	if len(b.pending) > 0 {
		t.mu.Lock()
		for id := range b.pending {
			t.batches[id] = b
		}
		t.mu.Unlock()
	} else {
		t.writeBatch(b.replies)
	}
	for _, msg := range msgs {
		select {
		case t.incoming <- msg:
		case <-t.closed:
			return
		}
	}
}

// inBatch takes a response to a batch's request: it adds it (unless its
// request was cancelled: send is false) to the batch's answer, which it
// writes once complete. It reports whether id belonged to a batch.
func (t *Transport) inBatch(id jsonrpc.ID, answer func() ([]byte, error), send bool) (bool, error) {
	t.mu.Lock()
	b := t.batches[id]
	delete(t.batches, id)
	t.mu.Unlock()
	if b == nil {
		return false, nil
	}
	var data []byte
	var err error
	if send {
		data, err = answer()
	}
	t.mu.Lock()
	if err == nil && data != nil {
		b.replies = append(b.replies, data)
	}
	delete(b.pending, id)
	done := len(b.pending) == 0
	t.mu.Unlock()
	if done {
		return true, t.writeBatch(b.replies)
	}
	return true, err
}

// writeBatch writes a batch's answer as one line; a batch of
// notifications only has none.
func (t *Transport) writeBatch(replies []json.RawMessage) error {
	if len(replies) == 0 {
		return nil
	}
	data, err := json.Marshal(replies)
	if err != nil {
		return fmt.Errorf("framing: encoding a batch answer: %w", err)
	}
	return t.writeLine(data)
}

// encodeResponse is a response as Write would write it, in memory, its
// deferred values spliced in: a batch's answer is one array, so its
// members cannot stream.
func (t *Transport) encodeResponse(resp *jsonrpc.Response) ([]byte, error) {
	if resp.Error != nil || !resp.ID.IsValid() || len(resp.Result) == 0 {
		return jsonrpc.EncodeMessage(t.coded(resp))
	}
	id, err := json.Marshal(resp.ID.Raw())
	if err != nil {
		return nil, fmt.Errorf("framing: encoding a response id: %w", err)
	}
	head := append(append([]byte(`{"jsonrpc":"2.0","id":`), id...), `,"result":`...)
	var buf bytes.Buffer
	if err := t.deferred.splice(&buf, head, resp.Result, []byte("}")); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// coded is resp with an error that carries a JSON-RPC code. The SDK sends
// the plain Go errors of its own handlers with code 0 (go-sdk v1.8.0
// jsonrpc2 toWireError), which no JSON-RPC code range holds and clients
// cannot classify: such an error gets the code Options.ErrorCode gives it
// (by default -32603, internal error).
func (t *Transport) coded(resp *jsonrpc.Response) *jsonrpc.Response {
	if resp.Error == nil {
		return resp
	}
	var wire *jsonrpc.Error
	if errors.As(resp.Error, &wire) && wire.Code != 0 {
		return resp
	}
	code := int64(jsonrpc.CodeInternalError)
	if t.opts.ErrorCode != nil {
		code = t.opts.ErrorCode(resp.Error)
	}
	c := *resp
	c.Error = &jsonrpc.Error{Code: code, Message: resp.Error.Error()}
	return &c
}
