package server

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/seed-b63acb1b/mcp-shell-server/outputs"
)

// textView is how a result's text shows each captured stream: whole when
// limit is 0 or the stream fits, otherwise its head and tail around a
// marker line that says how much was left out and, when the output was
// retained, how to read it (outputID).
type textView struct {
	limit    int64
	outputID string
	// retained is what the output store kept (nil: unknown).
	retained *outputs.Info
}

func (o outcome) view() textView {
	return textView{limit: o.textLimit, outputID: o.outputID, retained: o.retained}
}

// kept is how many bytes of stream name the retained output holds, or -1
// when unknown.
func (v textView) kept(name string) int64 {
	i, ok := outputs.StreamIndex(name)
	if v.retained == nil || !ok {
		return -1
	}
	return v.retained.Streams[i].Size
}

// stream is the text of one stream's captured bytes b; whole is lossy(b),
// already made for the structured output (a 1 MiB output is not converted
// twice). It is the one place the text limit is applied: whole when b fits, else
// about limit/2 bytes of head and limit/2 of tail, each cut at a line end
// when one lies in the second half of its budget and never inside a
// UTF-8 sequence. Offsets in the marker are byte offsets into the stream,
// as read_output takes them.
func (v textView) stream(name string, b []byte, whole string) string {
	if v.limit <= 0 || int64(len(b)) <= v.limit {
		return whole
	}
	headBudget := int(v.limit / 2)
	tailBudget := int(v.limit) - headBudget
	end := headCut(b, headBudget)
	start := tailCut(b, tailBudget)
	var sb strings.Builder
	sb.Grow(end + len(b) - start + 200)
	sb.WriteString(lossy(b[:end]))
	if end > 0 && b[end-1] != '\n' {
		sb.WriteByte('\n')
	}
	fmt.Fprintf(&sb, "[... %d bytes of %s left out here (bytes %d to %d of %d)", start-end, name, end, start, len(b))
	switch kept := v.kept(name); {
	case v.outputID != "" && (kept < 0 || kept >= int64(start)):
		fmt.Fprintf(&sb, `; read them with read_output {"id":%q,"stream":%q,"offset":%d}`, v.outputID, name, end)
	case v.outputID != "" && kept > int64(end):
		// The retain directory filled up: only part of them was kept.
		fmt.Fprintf(&sb, `; structuredContent.%s has them; read_output {"id":%q,"stream":%q,"offset":%d} pages them up to byte %d only, where the retained copy was cut (no room was left to keep more)`, name, v.outputID, name, end, kept)
	case v.outputID != "":
		fmt.Fprintf(&sb, "; structuredContent.%s has them (the retained copy kept only %d bytes: no room was left to keep more)", name, kept)
	default:
		fmt.Fprintf(&sb, "; structuredContent.%s has them", name)
	}
	sb.WriteString(" ...]\n")
	sb.WriteString(lossy(b[start:]))
	return sb.String()
}

// headCut is where a head of at most n bytes of b ends.
func headCut(b []byte, n int) int {
	if i := bytes.LastIndexByte(b[:n], '\n'); i >= n/2 {
		return i + 1
	}
	for i := n; i > 0 && i > n-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return n
}

// tailCut is where a tail of at most n bytes of b begins.
func tailCut(b []byte, n int) int {
	from := len(b) - n
	if i := bytes.IndexByte(b[from:len(b)-n/2], '\n'); i >= 0 {
		return from + i + 1
	}
	for i := from; i < len(b) && i < from+utf8.UTFMax; i++ {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return from
}
