package framing

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Deferred is a JSON value that the transport writes itself, straight to
// its output, when it writes the response that carries it. A result of
// tens of MiB then exists once, as the handler's own data: the SDK would
// marshal it into memory, then validate and compact that copy into a
// second (the result is a json.Marshaler) and EncodeMessage a third.
type Deferred interface {
	// WriteJSON writes exactly one JSON value to w.
	WriteJSON(w *bufio.Writer) error
}

// streamBuffer is the write buffer of a deferred response: large enough
// that a pipe takes it in few writes, small next to any output cap.
const streamBuffer = 64 << 10

// writers are the write buffers of deferred responses, reused: every
// answer carrying structured content is one, and a new 64 KiB buffer per
// answer was a sixth of a small call's allocations over HTTP and most of
// the rest of its garbage beside the SDK's decoders
// (BenchmarkSpliceSmall).
var writers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, streamBuffer) }}

// deferTag starts every placeholder token; a table's tokens continue with
// a random part drawn when it is made, so no output a client can cause to
// be printed names a live token (tokens are only ever looked up, never
// trusted to be ours by their form alone).
const deferTag = "mcp-shell-deferred-"

// Deferrals are the deferred values of one output (a stdio transport, an
// HTTP response) whose placeholders have been marshalled and whose
// responses are not written yet, by token. Writing a response through
// Splice replaces each live placeholder with its value and forgets it;
// Close forgets them all and registers nothing after.
type Deferrals struct {
	mu     sync.Mutex
	prefix string
	next   uint64
	byTok  map[string]Deferred
	closed bool
}

// NewDeferrals returns an empty table with a fresh random token prefix.
func NewDeferrals() *Deferrals {
	var r [8]byte
	_, _ = rand.Read(r[:]) // crypto/rand.Read does not fail (Go 1.24)
	return &Deferrals{prefix: deferTag + hex.EncodeToString(r[:]) + "-", byTok: map[string]Deferred{}}
}

// token returns a new token, not registered yet.
func (d *Deferrals) token() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.next++
	return d.prefix + strconv.FormatUint(d.next, 10)
}

func (d *Deferrals) register(toks []string, vs []Deferred) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return // the output is gone: nothing will write them
	}
	for i, tok := range toks {
		d.byTok[tok] = vs[i]
	}
}

// span is a live placeholder in an encoded message: its value, and its
// offset and length (quotes included).
type span struct {
	v     Deferred
	at, n int
}

// take finds the live placeholders in an encoded message, in order, and
// forgets their values. A placeholder is a string that is a member's value
// (right after a colon: inside a JSON string every quote is escaped, so a
// colon and a quote there are never a member's start) and names a live
// token.
func (d *Deferrals) take(msg []byte) []span {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.byTok) == 0 {
		return nil
	}
	var spans []span
	pat := []byte(`:"` + d.prefix)
	for off := 0; ; {
		i := bytes.Index(msg[off:], pat)
		if i < 0 {
			return spans
		}
		at := off + i + 1
		end := bytes.IndexByte(msg[at+1:], '"')
		if end < 0 {
			return spans
		}
		off = at + 1 + end + 1
		tok := string(msg[at+1 : at+1+end])
		if v, ok := d.byTok[tok]; ok {
			delete(d.byTok, tok)
			spans = append(spans, span{v: v, at: at, n: end + 2})
		}
	}
}

// Close forgets every value and makes later placeholders register
// nothing.
func (d *Deferrals) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	clear(d.byTok)
}

// Live is how many values wait for their responses (tests).
func (d *Deferrals) Live() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.byTok)
}

// placeholder is what the SDK marshals in place of a Deferred: a token
// string, registered (with the texts deferred along with it) the first
// time it is marshalled, so a result that a middleware replaced, and so
// never marshalled, leaves nothing behind.
type placeholder struct {
	d    *Deferrals
	v    Deferred
	once sync.Once
	tok  string
	// texts are deferred along with v: their tokens stand as strings in
	// the same result, which the SDK marshals in the same pass.
	textToks []string
	texts    []Deferred
}

func (p *placeholder) MarshalJSON() ([]byte, error) {
	p.once.Do(func() {
		p.tok = p.d.token()
		p.d.register(append([]string{p.tok}, p.textToks...), append([]Deferred{p.v}, p.texts...))
	})
	return []byte(strconv.Quote(p.tok)), nil
}

// Defer returns a stand-in for v to put in a result (for instance
// mcp.CallToolResult.StructuredContent): Splice replaces it with v's
// JSON, written in place as the response goes out.
func (d *Deferrals) Defer(v Deferred) json.Marshaler {
	return &placeholder{d: d, v: v}
}

// DeferWith is Defer of v with texts deferred along with it: it returns
// v's stand-in and, for each text, a token to put in the result as that
// string's value (for instance mcp.TextContent.Text), which Splice
// replaces with the text's JSON. Every value is registered when the
// stand-in is marshalled, so the stand-in must be marshalled in the same
// result as the tokens, after them or before.
func (d *Deferrals) DeferWith(v Deferred, texts ...Deferred) (json.Marshaler, []string) {
	p := &placeholder{d: d, v: v, texts: texts}
	for range texts {
		p.textToks = append(p.textToks, d.token())
	}
	return p, p.textToks
}

// Splice writes msg to w with its live placeholders replaced by their
// values, through a write buffer. A message without one is written as it
// is, in one write.
func (d *Deferrals) Splice(w io.Writer, msg []byte) error {
	return d.splice(w, nil, msg, nil)
}

// splice writes head, msg with its placeholders replaced, and tail.
func (d *Deferrals) splice(w io.Writer, head, msg, tail []byte) error {
	spans := d.take(msg)
	if len(spans) == 0 {
		if head == nil && tail == nil {
			_, err := w.Write(msg)
			return err
		}
		line := make([]byte, 0, len(head)+len(msg)+len(tail))
		_, err := w.Write(append(append(append(line, head...), msg...), tail...))
		return err
	}
	bw := writers.Get().(*bufio.Writer)
	bw.Reset(w)
	defer func() {
		bw.Reset(nil) // keeps neither w nor a write error
		writers.Put(bw)
	}()
	bw.Write(head)
	off := 0
	for _, s := range spans {
		bw.Write(msg[off:s.at])
		if err := s.v.WriteJSON(bw); err != nil {
			return fmt.Errorf("framing: writing a deferred value: %w", err)
		}
		off = s.at + s.n
	}
	bw.Write(msg[off:])
	bw.Write(tail)
	return bw.Flush() // a bufio.Writer keeps its first error
}

// Defer is t's Deferrals' Defer.
func (t *Transport) Defer(v Deferred) json.Marshaler { return t.deferred.Defer(v) }

// Deferrals returns the table t writes its responses through.
func (t *Transport) Deferrals() *Deferrals { return t.deferred }

type ctxKey struct{}

type deferKey struct{}

// NewContext returns ctx carrying t and its Deferrals. Handlers run in
// contexts derived from the one given to mcp.Server.Connect, so a server
// connecting t with it lets its handlers find t (FromContext) and defer
// their large values (DeferralsFrom).
func NewContext(ctx context.Context, t *Transport) context.Context {
	return WithDeferrals(context.WithValue(ctx, ctxKey{}, t), t.deferred)
}

// FromContext returns the Transport carried by ctx, or nil.
func FromContext(ctx context.Context) *Transport {
	t, _ := ctx.Value(ctxKey{}).(*Transport)
	return t
}

// WithDeferrals returns ctx carrying d: the table of the output the
// responses of handlers running in ctx are written through.
func WithDeferrals(ctx context.Context, d *Deferrals) context.Context {
	return context.WithValue(ctx, deferKey{}, d)
}

// DeferralsFrom returns the Deferrals carried by ctx, or nil (an output
// that writes what the SDK encoded as it is: nothing may be deferred).
func DeferralsFrom(ctx context.Context) *Deferrals {
	d, _ := ctx.Value(deferKey{}).(*Deferrals)
	return d
}

// writeResponse writes a successful response around its result as the
// SDK encoded it, without EncodeMessage: the result is the output of the
// SDK's json.Encoder, compact and valid already, and validating and
// compacting it once more was a full pass over every answer. Deferred
// values are written in place of their placeholders through a buffer, so
// the message is several writes, all under writeMu.
func (t *Transport) writeResponse(resp *jsonrpc.Response) error {
	id, err := json.Marshal(resp.ID.Raw())
	if err != nil {
		return fmt.Errorf("framing: encoding a response id: %w", err)
	}
	head := append(append([]byte(`{"jsonrpc":"2.0","id":`), id...), `,"result":`...)
	return t.write(func() error { return t.deferred.splice(t.w, head, resp.Result, []byte("}\n")) })
}
