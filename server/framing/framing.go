package framing

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxDepth is the deepest nesting of arrays and objects accepted:
// MCP messages and this server's tool arguments nest a handful of levels;
// the SDK's own decoder gives up at 1000.
const DefaultMaxDepth = 64

// DefaultMaxInFlight and DefaultMaxInFlightBytes bound the requests in
// flight: far more than a client pipelines (the SDK clients send one
// request per caller), and at most four lines of the maximal length.
const (
	DefaultMaxInFlight      = 256
	DefaultMaxInFlightBytes = 64 << 20
)

// CodeBusy answers a request past MaxInFlight or MaxInFlightBytes: a
// JSON-RPC implementation-defined server error (-32000..-32099).
const CodeBusy = -32000

// Options configure a Transport.
type Options struct {
	// MaxLine caps one message in bytes (0: mcp.DefaultMaxLineLength,
	// 16 MiB). A longer line is answered with a parse error and skipped.
	MaxLine int
	// MaxDepth caps nesting (0: DefaultMaxDepth).
	MaxDepth int
	// MaxInFlight caps the requests awaiting their response, and
	// MaxInFlightBytes the sum of their lines' lengths (0: the defaults).
	// A request past either is answered with CodeBusy and never reaches
	// the SDK, so what a client can make the server hold for requests it
	// has not answered yet is bounded (SECURITY.md, "Memory bound").
	MaxInFlight      int
	MaxInFlightBytes int
	// OnRefused, when not nil, is called (from the reading goroutine) for
	// every message answered with an error here.
	OnRefused func(Refusal)
	// Log receives diagnostics; nil is silent.
	Log *slog.Logger
}

// Refusal is a message answered with a JSON-RPC error by this layer.
type Refusal struct {
	// ID is the id the error was sent with (zero when none could be read).
	ID jsonrpc.ID
	// Method is the message's method, "" when unknown; Tool is the
	// params.name of a tools/call, when it could be read.
	Method, Tool string
	Code         int64
	Message      string
	// Quoted is a client value Message quotes (the id), for redaction.
	Quoted string
}

// Transport is the framing layer over one reader and one writer. It is
// both the mcp.Transport and the mcp.Connection it returns; it connects
// once.
type Transport struct {
	r    io.Reader
	w    io.Writer
	opts Options

	incoming chan jsonrpc.Message
	inputEnd chan struct{} // closed when the input ended
	release  chan struct{} // closed by EndInput or Close
	closed   chan struct{}
	once     sync.Once
	relOnce  sync.Once

	writeMu  sync.Mutex
	deferred *deferrals

	// mu guards inflight and inflightBytes; drained is signalled when
	// they change.
	mu            sync.Mutex
	inflight      map[jsonrpc.ID]*request
	inflightBytes int
	drained       *sync.Cond
}

type request struct {
	cancelled bool
	size      int // the line's length
}

// New returns a Transport reading messages from r and writing them to w.
func New(r io.Reader, w io.Writer, o Options) *Transport {
	if o.MaxLine == 0 {
		o.MaxLine = mcp.DefaultMaxLineLength
	}
	if o.MaxDepth == 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxInFlight == 0 {
		o.MaxInFlight = DefaultMaxInFlight
	}
	if o.MaxInFlightBytes == 0 {
		o.MaxInFlightBytes = DefaultMaxInFlightBytes
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	t := &Transport{
		r: r, w: w, opts: o,
		incoming: make(chan jsonrpc.Message),
		inputEnd: make(chan struct{}),
		release:  make(chan struct{}),
		closed:   make(chan struct{}),
		inflight: map[jsonrpc.ID]*request{},
		deferred: newDeferrals(),
	}
	t.drained = sync.NewCond(&t.mu)
	return t
}

var errConnected = errors.New("framing: transport already connected")

// Connect implements mcp.Transport: it starts reading.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	started := false
	t.once.Do(func() { started = true; go t.readLoop() })
	if !started {
		return nil, errConnected
	}
	return t, nil
}

// SessionID implements mcp.Connection: stdio has no session id.
func (t *Transport) SessionID() string { return "" }

// InputEnded is closed once the input has ended (EOF or a read error).
func (t *Transport) InputEnded() <-chan struct{} { return t.inputEnd }

// EndInput lets Read report io.EOF once the input has ended; after it,
// the SDK ends the session as soon as nothing is in flight.
func (t *Transport) EndInput() { t.relOnce.Do(func() { close(t.release) }) }

// Read implements mcp.Connection.
func (t *Transport) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg := <-t.incoming:
		return msg, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.closed:
		return nil, io.EOF
	case <-t.release:
		select {
		case <-t.inputEnd:
			return nil, io.EOF
		case msg := <-t.incoming:
			return msg, nil
		case <-t.closed:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Write implements mcp.Connection: one message, one line; a response to
// a cancelled request is dropped (and forgets its deferred value). A
// successful response is written around the result the SDK encoded
// (writeResponse); other messages go through jsonrpc.EncodeMessage.
func (t *Transport) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, isResp := msg.(*jsonrpc.Response)
	if !isResp {
		return t.encodeAndWrite(msg)
	}
	v, at, n := t.deferred.take(resp.Result)
	if !t.settle(resp.ID) {
		return nil
	}
	if resp.Error != nil || !resp.ID.IsValid() || len(resp.Result) == 0 {
		return t.encodeAndWrite(msg)
	}
	return t.writeResponse(resp, v, at, n)
}

func (t *Transport) encodeAndWrite(msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("framing: encoding a message: %w", err)
	}
	return t.writeLine(data)
}

// settle ends id's time in flight and reports whether its response is to
// be written.
func (t *Transport) settle(id jsonrpc.ID) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.inflight[id]
	if r != nil {
		t.inflightBytes -= r.size
	}
	delete(t.inflight, id)
	t.drained.Broadcast()
	return r == nil || !r.cancelled
}

func (t *Transport) writeLine(data []byte) error {
	return t.write(func() error { _, err := t.w.Write(append(data, '\n')); return err })
}

// write runs one message's writes under writeMu, unless t is closed.
func (t *Transport) write(f func() error) error {
	select {
	case <-t.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	return f()
}

// Drain waits until no request is in flight, or ctx is done.
func (t *Transport) Drain(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() {
		t.mu.Lock()
		t.drained.Broadcast()
		t.mu.Unlock()
	})
	defer stop()
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(t.inflight) > 0 {
		if ctx.Err() != nil {
			return fmt.Errorf("framing: %d requests still in flight: %w", len(t.inflight), ctx.Err())
		}
		t.drained.Wait()
	}
	return nil
}

// InFlight is how many requests await their response.
func (t *Transport) InFlight() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.inflight)
}

// Close implements mcp.Connection. It does not close the reader or the
// writer (stdin and stdout belong to the process).
func (t *Transport) Close() error {
	t.once.Do(func() {}) // a transport closed before Connect never reads
	select {
	case <-t.closed:
	default:
		close(t.closed)
	}
	t.deferred.clear()
	t.EndInput()
	return nil
}

// readLoop reads lines until the input ends.
func (t *Transport) readLoop() {
	defer close(t.inputEnd)
	br := bufio.NewReaderSize(t.r, 64<<10)
	for {
		line, tooLong, err := readLine(br, t.opts.MaxLine)
		if tooLong {
			t.refuse(jsonrpc.ID{}, "", "", jsonrpc.CodeParseError, fmt.Sprintf("parse error: message longer than %d bytes", t.opts.MaxLine))
		} else if len(line) > 0 {
			// A byte order mark is not JSON (RFC 8259 lets a parser
			// ignore it): some Windows tools write one.
			t.handleLine(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")))
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.opts.Log.Warn("reading stdin", "err", err)
			}
			return
		}
		select {
		case <-t.closed:
			return
		default:
		}
	}
}

// readLine returns the next line without its "\n" or "\r\n". A line longer
// than max is consumed and reported as tooLong, without being kept.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, rerr := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+2 { // +2: the line ending
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if rerr == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			return nil, true, rerr
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > max {
			return nil, true, rerr
		}
		return line, false, rerr
	}
}

// envelope is a message's top level, every field kept raw so that its
// presence and type can be checked.
type envelope struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// handleLine validates one line and passes it on, or answers it.
func (t *Transport) handleLine(line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	if !json.Valid(line) {
		t.refuse(jsonrpc.ID{}, "", "", jsonrpc.CodeParseError, "parse error: the line is not valid JSON")
		return
	}
	if d := depth(line); d > t.opts.MaxDepth {
		id, _ := peekID(line)
		t.refuse(id, "", "", jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: nested %d levels deep (at most %d)", d, t.opts.MaxDepth))
		return
	}
	switch line[0] {
	case '[':
		t.refuseBatch(line)
		return
	case '{':
	default:
		t.refuse(jsonrpc.ID{}, "", "", jsonrpc.CodeInvalidRequest, "invalid request: a message must be a JSON object")
		return
	}
	msg, ok := t.validate(line)
	if !ok {
		return
	}
	select {
	case t.incoming <- msg:
	case <-t.closed:
	}
}

// validate checks one object message; it answers an invalid request itself
// and reports ok false.
func (t *Transport) validate(line []byte) (jsonrpc.Message, bool) {
	var e envelope
	if err := json.Unmarshal(line, &e); err != nil {
		t.refuse(jsonrpc.ID{}, "", "", jsonrpc.CodeParseError, "parse error: "+err.Error())
		return nil, false
	}
	id, idErr := ParseID(e.ID)
	var method string
	hasMethod := e.Method != nil
	if hasMethod {
		if json.Unmarshal(e.Method, &method) != nil {
			t.refuse(validOr(id, idErr), "", "", jsonrpc.CodeInvalidRequest, "invalid request: method must be a string")
			return nil, false
		}
	}
	tool := toolName(method, e.Params)
	if string(e.JSONRPC) != `"2.0"` {
		t.refuse(validOr(id, idErr), method, tool, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
		return nil, false
	}
	if idErr != nil {
		t.refuse(jsonrpc.ID{}, method, tool, jsonrpc.CodeInvalidRequest, "invalid request: "+idErr.Error())
		return nil, false
	}
	if !hasMethod {
		if e.Result == nil && e.Error == nil {
			// Neither a request nor a response: JSON-RPC 2.0 §5 makes it
			// an invalid request, answered with its id when it has one.
			t.refuse(id, "", "", jsonrpc.CodeInvalidRequest, noMethod)
			return nil, false
		}
		if !id.IsValid() {
			t.opts.Log.Warn("dropped a JSON-RPC response without an id from the client")
			return nil, false
		}
		msg, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			t.opts.Log.Warn("dropped a JSON-RPC response from the client", "err", err)
			return nil, false
		}
		return msg, true
	}
	if method == "tools/call" && (len(e.Params) == 0 || e.Params[0] != '{') {
		t.refuse(id, method, tool, jsonrpc.CodeInvalidParams, `invalid params: tools/call needs "params" to be an object`)
		return nil, false
	}
	if e.Params != nil && e.Params[0] != '{' && e.Params[0] != '[' && string(e.Params) != "null" {
		t.refuse(id, method, tool, jsonrpc.CodeInvalidRequest, `invalid request: "params" must be an object or an array`)
		return nil, false
	}
	if id.IsValid() {
		t.mu.Lock()
		_, busy := t.inflight[id]
		full := len(t.inflight) >= t.opts.MaxInFlight || (len(t.inflight) > 0 && t.inflightBytes+len(line) > t.opts.MaxInFlightBytes)
		if !busy && !full {
			t.inflight[id] = &request{size: len(line)}
			t.inflightBytes += len(line)
		}
		n, held := len(t.inflight), t.inflightBytes
		t.mu.Unlock()
		if full && !busy {
			t.refuse(id, method, tool, CodeBusy, fmt.Sprintf("server busy: %d requests (%d bytes) are awaiting their responses, the most this server holds (at most %d, %d bytes); send this one again once some are answered", n, held, t.opts.MaxInFlight, t.opts.MaxInFlightBytes))
			return nil, false
		}
		if busy {
			t.notify(Refusal{ID: id, Method: method, Tool: tool, Code: jsonrpc.CodeInvalidRequest, Quoted: fmt.Sprint(id.Raw()),
				Message: fmt.Sprintf("invalid request: request id %v is already in use by a request in flight", id.Raw())})
			t.reply(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: request id %v is already in use by a request in flight", id.Raw()))
			return nil, false
		}
	} else if method == "notifications/cancelled" {
		t.markCancelled(e.Params)
	}
	return &jsonrpc.Request{ID: id, Method: method, Params: e.Params}, true
}

// markCancelled notes that the request a notifications/cancelled names is
// not to be answered.
func (t *Transport) markCancelled(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	id, err := ParseID(p.RequestID)
	if err != nil || !id.IsValid() {
		return
	}
	t.mu.Lock()
	if r := t.inflight[id]; r != nil {
		r.cancelled = true
	}
	t.mu.Unlock()
}

// refuseBatch answers a batch with one error per element that has an id
// (JSON-RPC 2.0 batches; MCP dropped them in 2025-06-18).
func (t *Transport) refuseBatch(line []byte) {
	var elems []json.RawMessage
	if json.Unmarshal(line, &elems) != nil || len(elems) == 0 {
		t.refuse(jsonrpc.ID{}, "", "", jsonrpc.CodeInvalidRequest, "invalid request: empty batch")
		return
	}
	const why = "invalid request: JSON-RPC batches are not supported; send one message per line"
	var replies []json.RawMessage
	for _, el := range elems {
		var e envelope
		json.Unmarshal(el, &e)
		var method string
		json.Unmarshal(e.Method, &method)
		id, err := ParseID(e.ID)
		if err != nil {
			id = jsonrpc.ID{}
		}
		t.notify(Refusal{ID: id, Method: method, Tool: toolName(method, e.Params), Code: jsonrpc.CodeInvalidRequest, Message: why})
		if id.IsValid() || e.Method == nil || err != nil {
			replies = append(replies, errorReply(id, jsonrpc.CodeInvalidRequest, why))
		}
	}
	if len(replies) == 0 {
		return // only notifications: nothing to answer
	}
	data, _ := json.Marshal(replies)
	if err := t.writeLine(data); err != nil {
		t.opts.Log.Warn("writing a batch refusal", "err", err)
	}
}

// refuse answers a message with a JSON-RPC error.
func (t *Transport) refuse(id jsonrpc.ID, method, tool string, code int64, message string) {
	t.notify(Refusal{ID: id, Method: method, Tool: tool, Code: code, Message: message})
	if method != "" && !id.IsValid() && code != jsonrpc.CodeInvalidRequest && code != jsonrpc.CodeParseError {
		return // a notification: no response
	}
	t.reply(id, code, message)
}

func (t *Transport) reply(id jsonrpc.ID, code int64, message string) {
	if err := t.writeLine(errorReply(id, code, message)); err != nil {
		t.opts.Log.Warn("writing a JSON-RPC error reply", "err", err)
	}
}

// errorReply is a JSON-RPC error response. Without a readable id it
// carries "id": null, as JSON-RPC 2.0 requires (the SDK's encoder would
// leave the member out).
func errorReply(id jsonrpc.ID, code int64, message string) []byte {
	rawID := json.RawMessage("null")
	if id.IsValid() {
		rawID, _ = json.Marshal(id.Raw())
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", rawID, jsonrpc.Error{Code: code, Message: message}})
	return data
}

func (t *Transport) notify(r Refusal) {
	t.opts.Log.Debug("refused a JSON-RPC message", "code", r.Code, "reason", r.Message)
	if t.opts.OnRefused != nil {
		t.opts.OnRefused(r)
	}
}

// noMethod is the refusal of a message with neither a method nor a
// result or error.
const noMethod = `invalid request: a message needs "method" (a request or notification) or "result" or "error" (a response)`

// maxExactID is the largest integer id accepted: every integer up to 2^53
// has its own float64, which the SDK's jsonrpc.MakeID (and a JavaScript
// client) turns ids into; 2^53+1 would be answered as 2^53 and collide
// with it.
const maxExactID = 1 << 53

// ParseID reads a JSON-RPC id as the SDK will hold it: absent (a
// notification), a string, or an integer of at most 2^53 in magnitude,
// checked on its text: "9007199254740993" is refused, not rounded; "7.0"
// is 7; exponent forms are refused. The error says why any other
// id is refused.
func ParseID(raw json.RawMessage) (jsonrpc.ID, error) {
	if raw == nil {
		return jsonrpc.ID{}, nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return jsonrpc.ID{}, err
		}
		return jsonrpc.MakeID(s)
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n, ok := exactInteger(string(raw))
		if !ok {
			return jsonrpc.ID{}, fmt.Errorf("id %s must be a string or an integer of at most 2^53 (9007199254740992), which every client decodes exactly", capID(raw))
		}
		return jsonrpc.MakeID(float64(n))
	}
	return jsonrpc.ID{}, fmt.Errorf("id must be a string or an integer, not %s", kindOf(raw))
}

// exactInteger is the integer a JSON number spells, when it is one of
// magnitude at most maxExactID: digits, optionally followed by a fraction
// of zeros ("7.0"). Exponents are refused rather than evaluated (1e999999999
// is valid JSON).
func exactInteger(num string) (int64, bool) {
	whole, frac, _ := strings.Cut(num, ".")
	if strings.Trim(frac, "0") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(whole, 10, 64)
	return n, err == nil && n >= -maxExactID && n <= maxExactID
}

// capID bounds an id quoted in a message.
func capID(raw json.RawMessage) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "..."
	}
	return string(raw)
}

func kindOf(raw json.RawMessage) string {
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "this value"
}

func validOr(id jsonrpc.ID, err error) jsonrpc.ID {
	if err != nil {
		return jsonrpc.ID{}
	}
	return id
}

// toolName is a tools/call's params.name, or "".
func toolName(method string, params json.RawMessage) string {
	if method != "tools/call" || len(params) == 0 || params[0] != '{' {
		return ""
	}
	var p struct {
		Name string `json:"name"`
	}
	json.Unmarshal(params, &p)
	return p.Name
}

// depth is the deepest nesting of arrays and objects in valid JSON data.
func depth(data []byte) int {
	d, most := 0, 0
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			d++
			most = max(most, d)
		case b == '}' || b == ']':
			d--
		}
	}
	return most
}

// peekID reads the top-level "id" of an object too deep to decode whole,
// skipping over the other members without recursion.
func peekID(data []byte) (jsonrpc.ID, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return jsonrpc.ID{}, false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return jsonrpc.ID{}, false
		}
		if key == "id" {
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return jsonrpc.ID{}, false
			}
			id, err := ParseID(raw)
			return id, err == nil
		}
		if !skipValue(dec) {
			return jsonrpc.ID{}, false
		}
	}
	return jsonrpc.ID{}, false
}

// skipValue consumes one value token by token.
func skipValue(dec *json.Decoder) bool {
	n := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			n++
		case json.Delim('}'), json.Delim(']'):
			n--
		}
		if n == 0 {
			return true
		}
	}
}

// Check applies to one message (a JSON object) the two checks of this
// layer that the SDK's own decoding lacks on every transport: an integer
// id a double cannot hold exactly (the SDK would round it and answer, or
// cancel, another request), and a message with an id but neither a method
// nor a result or error (the SDK takes it for a response and drops it).
// It returns the refusal, or nil; a message that is not an object is left
// to the SDK. The Streamable HTTP front applies it to every message of a
// POST.
func Check(msg []byte) *Refusal {
	var e envelope
	if json.Unmarshal(msg, &e) != nil {
		return nil
	}
	id, err := ParseID(e.ID)
	var method string
	json.Unmarshal(e.Method, &method)
	switch {
	case err != nil && len(e.ID) > 0 && (e.ID[0] == '-' || (e.ID[0] >= '0' && e.ID[0] <= '9')):
		return &Refusal{Method: method, Tool: toolName(method, e.Params), Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: " + err.Error(), Quoted: capID(e.ID)}
	case err == nil && e.Method == nil && e.Result == nil && e.Error == nil:
		return &Refusal{ID: id, Code: jsonrpc.CodeInvalidRequest, Message: noMethod}
	}
	return nil
}

// ErrorReply is the JSON-RPC error response to r ("id": null when r has
// none).
func ErrorReply(r *Refusal) []byte { return errorReply(r.ID, r.Code, r.Message) }
