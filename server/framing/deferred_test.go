package framing

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

type fixedJSON string

func (f fixedJSON) WriteJSON(w *bufio.Writer) error { _, err := w.WriteString(string(f)); return err }

// result is a result as the SDK encodes it: text first, then the value
// that may be a placeholder.
func result(t *testing.T, text string, sc any) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(struct {
		Text string `json:"text"`
		SC   any    `json:"structuredContent"`
	}{text, sc})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestResponsesAreWrittenAsEncodeMessageWould: a response written around
// the SDK's encoded result, with or without a deferred value spliced in,
// is the line jsonrpc.EncodeMessage writes for the same message; a token
// that is not live, printed by a command, stays text.
func TestResponsesAreWrittenAsEncodeMessageWould(t *testing.T) {
	p := newPipe(t, Options{})
	live := p.tr.Defer(fixedJSON(`{"stdout":"a\u0000b"}`))
	forged := `"` + p.tr.deferred.prefix + `999"`
	cases := []struct {
		name string
		resp *jsonrpc.Response
		want json.RawMessage // the result as written; nil: resp.Result
	}{
		{"plain, integer id", &jsonrpc.Response{ID: id(t, float64(1)), Result: result(t, "hi", map[string]int{"a": 1})}, nil},
		{"plain, string id", &jsonrpc.Response{ID: id(t, "x\"y"), Result: result(t, "hi", nil)}, nil},
		{"error", &jsonrpc.Response{ID: id(t, float64(2)), Error: &jsonrpc.Error{Code: -32603, Message: "boom"}}, nil},
		{"forged token in the text", &jsonrpc.Response{ID: id(t, float64(3)), Result: result(t, forged, forged)}, nil},
		{"deferred", &jsonrpc.Response{ID: id(t, float64(4)), Result: result(t, forged, live)}, result(t, forged, json.RawMessage(`{"stdout":"a\u0000b"}`))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := *c.resp
			if c.want != nil {
				want.Result = c.want
			}
			line, err := jsonrpc.EncodeMessage(&want)
			if err != nil {
				t.Fatal(err)
			}
			go p.tr.Write(context.Background(), c.resp)
			if got := p.reply(); got != string(line) {
				t.Errorf("wrote %s\nwant  %s", got, line)
			}
		})
	}
	if n := len(p.tr.deferred.byTok); n != 0 {
		t.Errorf("%d deferred values left after their responses", n)
	}
}

// TestCancelledResponseForgetsItsDeferredValue: a response that is not
// written (its request was cancelled) does not keep its value alive.
func TestCancelledResponseForgetsItsDeferredValue(t *testing.T) {
	p := newPipe(t, Options{})
	p.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x"}}`)
	p.next()
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`)
	p.next()
	v := p.tr.Defer(fixedJSON(`"` + strings.Repeat("x", 1000) + `"`))
	if err := p.tr.Write(context.Background(), &jsonrpc.Response{ID: id(t, float64(5)), Result: result(t, "", v)}); err != nil {
		t.Fatal(err)
	}
	if n := len(p.tr.deferred.byTok); n != 0 {
		t.Errorf("%d deferred values kept for a dropped response", n)
	}
	go p.tr.Write(context.Background(), &jsonrpc.Response{ID: id(t, float64(6)), Result: json.RawMessage(`{}`)})
	if got := p.reply(); got != `{"jsonrpc":"2.0","id":6,"result":{}}` {
		t.Errorf("next line %s", got)
	}
}

func id(t *testing.T, v any) jsonrpc.ID {
	t.Helper()
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestDeferWithSplicesEveryPlaceholder: texts deferred along with a value
// are registered when its stand-in is marshalled and spliced in order,
// whatever their order in the message; a forged token stays text; a
// closed table registers nothing.
func TestDeferWithSplicesEveryPlaceholder(t *testing.T) {
	d := NewDeferrals()
	ph, toks := d.DeferWith(fixedJSON(`{"stdout":"x"}`), fixedJSON(`"first"`), fixedJSON(`"second"`))
	forged := d.prefix + "999"
	if d.Live() != 0 {
		t.Fatalf("%d values live before the stand-in was marshalled", d.Live())
	}
	msg, err := json.Marshal(struct {
		Content []map[string]string `json:"content"`
		SC      json.Marshaler      `json:"structuredContent"`
		Forged  string              `json:"forged"`
	}{[]map[string]string{{"text": toks[1]}, {"text": forged}, {"text": toks[0]}}, ph, forged})
	if err != nil {
		t.Fatal(err)
	}
	if d.Live() != 3 {
		t.Fatalf("%d values live after marshalling, want 3", d.Live())
	}
	var out strings.Builder
	if err := d.Splice(&out, msg); err != nil {
		t.Fatal(err)
	}
	want := `{"content":[{"text":"second"},{"text":"` + forged + `"},{"text":"first"}],"structuredContent":{"stdout":"x"},"forged":"` + forged + `"}`
	if out.String() != want {
		t.Errorf("spliced %s\nwant    %s", out.String(), want)
	}
	if d.Live() != 0 {
		t.Errorf("%d values left after their message", d.Live())
	}
	d.Close()
	ph, _ = d.DeferWith(fixedJSON(`1`), fixedJSON(`2`))
	if _, err := json.Marshal(ph); err != nil || d.Live() != 0 {
		t.Errorf("closed table: %v, %d values live", err, d.Live())
	}
}

// TestSpliceAfterFailedWrite: a write buffer given back after a failed
// write serves the next response whole, with nothing of the failed one.
func TestSpliceAfterFailedWrite(t *testing.T) {
	d := NewDeferrals()
	msg := func(v string) []byte {
		ph := d.Defer(fixedJSON(`"` + v + `"`))
		b, err := json.Marshal(struct {
			SC json.Marshaler `json:"structuredContent"`
		}{ph})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for range 4 {
		if err := d.Splice(failWriter{}, msg(strings.Repeat("x", streamBuffer+1))); err == nil {
			t.Fatal("a failed write was not reported")
		}
	}
	for _, v := range []string{"a", strings.Repeat("b", 3*streamBuffer)} {
		var out strings.Builder
		if err := d.Splice(&out, msg(v)); err != nil {
			t.Fatal(err)
		}
		if want := `{"structuredContent":"` + v + `"}`; out.String() != want {
			t.Errorf("spliced %.80s… (%d bytes), want %.80s… (%d bytes)", out.String(), out.Len(), want, len(want))
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// BenchmarkSpliceSmall is the answer of a small call (a few hundred bytes
// of result around its structured content) written through the
// deferred-response path, as every tool answer is.
func BenchmarkSpliceSmall(b *testing.B) {
	d := NewDeferrals()
	b.ReportAllocs()
	for b.Loop() {
		ph := d.Defer(fixedJSON(`{"stdout":"","stderr":"","exit_code":0}`))
		m, err := json.Marshal(struct {
			Content []map[string]string `json:"content"`
			SC      json.Marshaler      `json:"structuredContent"`
		}{[]map[string]string{{"type": "text", "text": "ok"}}, ph})
		if err != nil {
			b.Fatal(err)
		}
		if err := d.Splice(io.Discard, m); err != nil {
			b.Fatal(err)
		}
	}
}
