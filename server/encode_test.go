package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/seed-b63acb1b/mcp-shell-server/server/framing"
)

// TestWriteJSONStringMatchesEncodingJSON: the streaming escaper writes the
// bytes encoding/json writes (without HTML escaping), for every byte value
// and the runs that take its other paths.
func TestWriteJSONStringMatchesEncodingJSON(t *testing.T) {
	var all strings.Builder
	for c := range 0x80 {
		all.WriteByte(byte(c))
	}
	cases := []string{
		"", "plain text\n", all.String(), "\"quoted\" \\ back", "<a href='x'>&amp;</a>",
		"\x00", strings.Repeat("\x00", 70000), "a\x00b\x01c\x1fd\x7f", "tab\there\r\n",
		"line\u2028sep\u2029para", "\u2027\u202a\u20ac é 日本 🎉",
		strings.Repeat("x", 100000) + "\x00" + strings.Repeat("\"", 100000),
		strings.ToValidUTF8("bad \xff\xfe bytes", "\uFFFD"),
	}
	// Each byte that needs an escape, and U+2028 and a plain character
	// that share its first byte, at every offset of the eight-byte scan.
	for _, special := range []string{"\x00", "\n", "\x1f", `"`, `\`, "\u2028", "\u20ac", "é", "\x7f", " "} {
		for at := range 17 {
			cases = append(cases, strings.Repeat("a", at)+special+strings.Repeat("b", 20-at))
		}
	}
	for _, s := range cases {
		want, err := marshalNoHTML(s)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w := bufio.NewWriterSize(&buf, 16) // small: the buffer fills mid-run
		writeJSONString(w, s)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%.40q: got %.80q, want %.80q", s, buf.Bytes(), want)
		}
	}
}

// FuzzWriteJSONString: the streaming escaper writes what encoding/json
// writes for any valid UTF-8 string (lossy output).
func FuzzWriteJSONString(f *testing.F) {
	for _, s := range []string{"", "a\x00b", "\u2028x\u2029", `"\\`, "\xe2\x82\xac 日本 \x1f\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = strings.ToValidUTF8(s, "\uFFFD")
		want, err := marshalNoHTML(s)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w := bufio.NewWriterSize(&buf, 16)
		writeJSONString(w, s)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%q: got %q, want %q", s, buf.Bytes(), want)
		}
	})
}

// TestSpliceStreamsMatchesMarshal: a deferred structured output is the
// JSON the SDK would have written for it, byte for byte, also when other
// members hold what the splice looks for.
func TestSpliceStreamsMatchesMarshal(t *testing.T) {
	trap := `"stdout":"","stderr":""`
	sig := trap
	outs := []bulky{
		&ShellOutput{Stdout: "out\x00\n", Stderr: "err \"x\"", ExitCode: ptr(0), Stages: []StageOutput{{Command: trap, Signal: &sig}}, Retained: Retained{OutputID: trap}},
		&ShellOutput{Stages: []StageOutput{}},
		&ExecOutput{ExitCode: ptr(3), Stdout: strings.Repeat("\x00", 1000), Stderr: trap, Signal: &sig},
		&ExecOutput{},
	}
	for _, out := range outs {
		want, err := marshalNoHTML(out)
		if err != nil {
			t.Fatal(err)
		}
		stdout, stderr, rest := out.streams()
		s, err := spliceStreams(rest, stdout, stderr)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("got  %.300s\nwant %.300s", got, want)
		}
		if !json.Valid(got) {
			t.Errorf("not valid JSON: %.200s", got)
		}
	}
}

// BenchmarkWriteJSONString is the escaper alone on 1 MiB, against a plain
// copy of the same bytes through the same buffer (the floor).
func BenchmarkWriteJSONString(b *testing.B) {
	for _, in := range answerInputs[:1] {
		s := string(in.out)
		for _, c := range []struct {
			name string
			do   func(w *bufio.Writer)
		}{{"copy", func(w *bufio.Writer) { w.WriteString(s) }}, {"escape", func(w *bufio.Writer) { writeJSONString(w, s) }}, {"escape-nul", func(w *bufio.Writer) { writeJSONString(w, string(answerInputs[2].out)) }},
			{"encoding-json", func(w *bufio.Writer) { j, _ := marshalNoHTML(s); w.Write(j) }}} {
			b.Run(in.name+"/"+c.name, func(b *testing.B) {
				w := bufio.NewWriterSize(io.Discard, 64<<10)
				b.SetBytes(int64(len(s)))
				for b.Loop() {
					c.do(w)
				}
			})
		}
	}
}

// TestDeferredAnswerHoldsNoEscapedCopy: over the stdio framing layer a
// 4 MiB NUL output, 24 MiB once escaped, is answered without any escaped
// copy of it in memory: what encoding the answer allocates stays within
// the write buffer, the escape scratch and the 16 KiB text (SECURITY.md,
// memory). The same measurement of the SDK's own encoding (HTTP) sees at
// least one escaped copy, so it can tell.
func TestDeferredAnswerHoldsNoEscapedCopy(t *testing.T) {
	const n = 4 << 20
	id, err := jsonrpc.MakeID(float64(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		stdio    bool
		min, max uint64 // bounds on the bytes allocated
	}{
		{"stdio", true, 0, 2 << 20},
		{"sdk", false, 6 * n, 1 << 40},
	} {
		t.Run(c.name, func(t *testing.T) {
			var wrote countingWriter
			tr := framing.New(strings.NewReader(""), &wrote, framing.Options{})
			ctx := context.Background()
			if c.stdio {
				ctx = framing.NewContext(ctx, tr)
			}
			run, spec := shapedRun(make([]byte, n))
			res, out := shape(run, spec, textView{limit: 16 << 10})
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if err := setStructured(ctx, res, out); err != nil {
				t.Fatal(err)
			}
			raw, err := json.Marshal(res) // the SDK's pass over the result
			if err != nil {
				t.Fatal(err)
			}
			if err := tr.Write(ctx, &jsonrpc.Response{ID: id, Result: raw}); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			if wrote < 6*n {
				t.Fatalf("wrote %d bytes, want the escaped output (%d) and more", wrote, 6*n)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got < c.min || got > c.max {
				t.Errorf("encoding the answer allocated %d bytes, want %d to %d (one escaped copy is %d)", got, c.min, c.max, 6*n)
			}
		})
	}
}

type countingWriter int64

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// BenchmarkWriteJSONStringShort is the escaper on the strings of a small
// call's answer (an empty stderr, a short stdout), against escaping them
// through a full-chunk scratch allocated per string (chunkScratch: the
// cost each call paid twice, for stdout and stderr, before the scratch was
// sized by the string).
func BenchmarkWriteJSONStringShort(b *testing.B) {
	for _, s := range []string{"", "hello\n", strings.Repeat("line of output\n", 100)} {
		for _, c := range []struct {
			name string
			do   func(w *bufio.Writer, s string)
		}{{"sized", writeJSONString}, {"chunk-scratch", chunkScratch}} {
			b.Run(fmt.Sprintf("%dB/%s", len(s), c.name), func(b *testing.B) {
				w := bufio.NewWriterSize(io.Discard, 64<<10)
				b.ReportAllocs()
				for b.Loop() {
					c.do(w, s)
				}
			})
		}
	}
}

// chunkScratch escapes s through a scratch of a full chunk allocated for
// it, for BenchmarkWriteJSONStringShort's comparison.
func chunkScratch(w *bufio.Writer, s string) {
	scratch := make([]byte, 0, 6*escapeChunk+2)
	scratch = append(appendEscaped(append(scratch, '"'), s), '"')
	w.Write(scratch)
}
