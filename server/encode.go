package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/server/framing"
)

// bulky is a structured output carrying a call's captured streams: up to
// the output cap each, so they are written into the answer as it is sent
// (framing.Deferred) rather than marshalled with the rest.
type bulky interface {
	// streams returns stdout, stderr and a copy of the output with both
	// emptied.
	streams() (stdout, stderr string, rest any)
}

func (o *ShellOutput) streams() (string, string, any) {
	rest := *o
	rest.Stdout, rest.Stderr = "", ""
	return o.Stdout, o.Stderr, &rest
}

func (o *ExecOutput) streams() (string, string, any) {
	rest := *o
	rest.Stdout, rest.Stderr = "", ""
	return o.Stdout, o.Stderr, &rest
}

// setStructured sets out as res's structured content, encoded once. Where
// the output the answer goes to splices deferred values (the stdio framing
// layer, an HTTP response: framing.DeferralsFrom), a bulky output is
// deferred, and so is every text item of at least deferTextMin bytes
// (with MCP_SHELL_TEXT_LIMIT_BYTES=0 the text is the whole output): each
// is escaped straight into the output's write buffer as the answer goes
// out, so no encoded copy of either half is ever held and the SDK's
// encoder, which escapes a string and then validates and compacts it
// twice, sees only placeholders. Elsewhere (in-memory sessions) out goes
// to the SDK as it is, and the SDK's json.Marshal encodes it in the pass
// that encodes the rest of the result; a RawMessage made here would be
// validated and compacted again there.
func setStructured(ctx context.Context, res *mcp.CallToolResult, out any) error {
	d := framing.DeferralsFrom(ctx)
	b, isBulky := out.(bulky)
	if d == nil || !isBulky {
		res.StructuredContent = out
		return nil
	}
	stdout, stderr, rest := b.streams()
	enc, err := spliceStreams(rest, stdout, stderr)
	if err != nil {
		return err
	}
	var texts []framing.Deferred
	var items []*mcp.TextContent
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok && len(tc.Text) >= deferTextMin {
			texts, items = append(texts, jsonText(tc.Text)), append(items, tc)
		}
	}
	ph, toks := d.DeferWith(enc, texts...)
	for i, tc := range items {
		tc.Text = toks[i]
	}
	res.StructuredContent = ph
	return nil
}

// deferTextMin is the smallest text item deferred: below it the SDK's
// passes cost less than a placeholder's lookup is worth noticing, and the
// default text view (16 KiB a stream) stays with the SDK.
const deferTextMin = 64 << 10

// jsonText is a text item's string, written as a JSON string.
type jsonText string

// WriteJSON implements framing.Deferred.
func (s jsonText) WriteJSON(w *bufio.Writer) error {
	writeJSONString(w, string(s))
	return nil // w keeps its first error for the caller's Flush
}

// spliced is a JSON object written in parts: JSON text as marshalled, and
// strings to escape as they are written.
type spliced struct {
	parts []jsonPart
}

type jsonPart struct {
	raw  []byte
	text *string
}

// spliceStreams is rest's JSON with the empty "stdout" and "stderr"
// members replaced by stdout and stderr. They are the first string
// members of both outputs' JSON (only numbers or null come before them),
// so their first occurrences are theirs whatever other members hold; a
// test checks the result against json.Marshal of the whole output.
func spliceStreams(rest any, stdout, stderr string) (*spliced, error) {
	small, err := marshalNoHTML(rest)
	if err != nil {
		return nil, err
	}
	s := &spliced{}
	for _, f := range []struct {
		key  string
		text *string
	}{{`"stdout":""`, &stdout}, {`"stderr":""`, &stderr}} {
		i := bytes.Index(small, []byte(f.key))
		if i < 0 {
			return nil, fmt.Errorf("encoding the structured output: no %s member", f.key)
		}
		cut := i + len(f.key) - len(`""`)
		s.parts = append(s.parts, jsonPart{raw: small[:cut]}, jsonPart{text: f.text})
		small = small[cut+len(`""`):]
	}
	s.parts = append(s.parts, jsonPart{raw: small})
	return s, nil
}

// WriteJSON implements framing.Deferred.
func (s *spliced) WriteJSON(w *bufio.Writer) error {
	for _, p := range s.parts {
		if p.text != nil {
			writeJSONString(w, *p.text)
		} else {
			w.Write(p.raw)
		}
	}
	return nil // w keeps its first error for the caller's Flush
}

// MarshalJSON is the same JSON in memory (tests, benchmarks).
func (s *spliced) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	s.WriteJSON(w)
	err := w.Flush()
	return buf.Bytes(), err
}

// marshalNoHTML is json.Marshal without HTML escaping, as the SDK encodes
// messages.
func marshalNoHTML(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
