package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
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
		}{{"copy", func(w *bufio.Writer) { w.WriteString(s) }}, {"escape", func(w *bufio.Writer) { writeJSONString(w, s) }}, {"escape-nul", func(w *bufio.Writer) { writeJSONString(w, string(answerInputs[2].out)) }}} {
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
