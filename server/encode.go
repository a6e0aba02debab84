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

// setStructured sets out as res's structured content, encoded once. Over
// the stdio framing layer a bulky output is deferred: the transport writes
// it as the response goes out, each stream escaped straight into the
// output buffer, so no encoded copy of it is ever held. Elsewhere (HTTP,
// in-memory sessions) out goes to the SDK as it is, and the SDK's
// json.Marshal encodes it in the pass that encodes the rest of the
// result; a RawMessage made here would be validated and compacted again
// there.
func setStructured(ctx context.Context, res *mcp.CallToolResult, out any) error {
	t := framing.FromContext(ctx)
	b, isBulky := out.(bulky)
	if t == nil || !isBulky {
		res.StructuredContent = out
		return nil
	}
	stdout, stderr, rest := b.streams()
	enc, err := spliceStreams(rest, stdout, stderr)
	if err != nil {
		return err
	}
	res.StructuredContent = t.Defer(enc)
	return nil
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
