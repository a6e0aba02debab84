package framing

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Deferred is a JSON value that the transport writes itself, straight to
// its output, when it writes the response that carries it. A result of
// tens of MiB then exists once, as the handler's own data: the SDK would
// marshal it into memory, then validate and compact that copy into a
// second (the result is a json.Marshaler) and EncodeMessage a third
// (52% of a 64 MiB call's CPU and most of its peak memory, measured).
type Deferred interface {
	// WriteJSON writes exactly one JSON value to w.
	WriteJSON(w *bufio.Writer) error
}

// streamBuffer is the write buffer of a deferred response: large enough
// that a pipe takes it in few writes, small next to any output cap.
const streamBuffer = 64 << 10

// deferTag starts every placeholder token; a transport's tokens continue
// with a random part drawn at New, so no output a client can cause to be
// printed names a live token (tokens are only ever looked up, never
// trusted to be ours by their form alone).
const deferTag = "mcp-shell-deferred-"

// deferrals are the values whose placeholders have been marshalled and
// whose responses are not written yet, by token.
type deferrals struct {
	mu     sync.Mutex
	prefix string
	next   uint64
	byTok  map[string]Deferred
}

func newDeferrals() *deferrals {
	var r [8]byte
	_, _ = rand.Read(r[:]) // crypto/rand.Read does not fail (Go 1.24)
	return &deferrals{prefix: deferTag + hex.EncodeToString(r[:]) + "-", byTok: map[string]Deferred{}}
}

func (d *deferrals) add(v Deferred) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.next++
	tok := d.prefix + strconv.FormatUint(d.next, 10)
	d.byTok[tok] = v
	return tok
}

// take finds the placeholder in a response's result and removes its
// value: the value and the placeholder's offset and length in result, or
// nil. The placeholder is the last string in result that names a live
// token (structuredContent follows content in a CallToolResult, and a
// quote inside a text is escaped, so a text cannot end a token's match).
func (d *deferrals) take(result []byte) (Deferred, int, int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.byTok) == 0 {
		return nil, 0, 0
	}
	at := bytes.LastIndex(result, []byte(`"`+d.prefix))
	if at < 0 {
		return nil, 0, 0
	}
	end := bytes.IndexByte(result[at+1:], '"')
	if end < 0 {
		return nil, 0, 0
	}
	tok := string(result[at+1 : at+1+end])
	v, ok := d.byTok[tok]
	if !ok {
		return nil, 0, 0
	}
	delete(d.byTok, tok)
	return v, at, end + 2
}

func (d *deferrals) clear() {
	d.mu.Lock()
	defer d.mu.Unlock()
	clear(d.byTok)
}

// placeholder is what the SDK marshals in place of a Deferred: a token
// string, registered the first time it is marshalled, so a result that a
// middleware replaced, and so never marshalled, leaves nothing behind.
type placeholder struct {
	d    *deferrals
	v    Deferred
	once sync.Once
	tok  string
}

func (p *placeholder) MarshalJSON() ([]byte, error) {
	p.once.Do(func() { p.tok = p.d.add(p.v) })
	return []byte(strconv.Quote(p.tok)), nil
}

// Defer returns a stand-in for v to put in a result (for instance
// mcp.CallToolResult.StructuredContent): Write replaces it with v's JSON,
// written in place as the response goes out. A response dropped (its
// request was cancelled) forgets v.
func (t *Transport) Defer(v Deferred) json.Marshaler {
	return &placeholder{d: t.deferred, v: v}
}

type ctxKey struct{}

// NewContext returns ctx carrying t. Handlers run in contexts derived from
// the one given to mcp.Server.Connect, so a server connecting t with it
// lets its handlers find t (FromContext) and defer their large values.
func NewContext(ctx context.Context, t *Transport) context.Context {
	return context.WithValue(ctx, ctxKey{}, t)
}

// FromContext returns the Transport carried by ctx, or nil (another
// transport: the SDK encodes everything itself).
func FromContext(ctx context.Context) *Transport {
	t, _ := ctx.Value(ctxKey{}).(*Transport)
	return t
}

// writeResponse writes a successful response around its result as the
// SDK encoded it, without EncodeMessage: the result is the output of the
// SDK's json.Encoder, compact and valid already, and validating and
// compacting it once more was a full pass over every answer. A deferred
// value is written in place of its placeholder through a buffer, so the
// message is several writes, all under writeMu.
func (t *Transport) writeResponse(resp *jsonrpc.Response, v Deferred, at, n int) error {
	id, err := json.Marshal(resp.ID.Raw())
	if err != nil {
		return fmt.Errorf("framing: encoding a response id: %w", err)
	}
	head := append(append([]byte(`{"jsonrpc":"2.0","id":`), id...), `,"result":`...)
	if v == nil {
		line := make([]byte, 0, len(head)+len(resp.Result)+2)
		line = append(append(append(line, head...), resp.Result...), "}\n"...)
		return t.write(func() error { _, err := t.w.Write(line); return err })
	}
	return t.write(func() error {
		bw := bufio.NewWriterSize(t.w, streamBuffer)
		bw.Write(head)
		bw.Write(resp.Result[:at])
		if err := v.WriteJSON(bw); err != nil {
			return fmt.Errorf("framing: writing a deferred result: %w", err)
		}
		bw.Write(resp.Result[at+n:])
		bw.WriteString("}\n")
		return bw.Flush() // a bufio.Writer keeps its first error
	})
}
