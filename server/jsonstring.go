package server

import (
	"bufio"
	"math/bits"
	"sync"
	"unicode/utf8"
)

// plain marks the bytes a JSON string carries as they are: not a control
// character, a quote or a backslash, nor 0xE2, which starts U+2028 and
// U+2029 (and other characters, which are then copied as they are). HTML
// characters are not escaped (the SDK's encoder does not escape them
// either).
var plain = func() (t [256]bool) {
	for c := 0x20; c < len(t); c++ {
		t[c] = c != '"' && c != '\\' && c != 0xE2
	}
	return t
}()

// controlEscape is each control character's escape as encoding/json
// writes it: a short form where one exists, else \u00XX.
var controlEscape = func() (t [0x20]string) {
	const hex = "0123456789abcdef"
	for c := range t {
		t[c] = `\u00` + string(hex[c>>4]) + string(hex[c&0xF])
	}
	t['\b'], t['\f'], t['\n'], t['\r'], t['\t'] = `\b`, `\f`, `\n`, `\r`, `\t`
	return t
}()

// escapeChunk is how many bytes of a string are escaped into memory at a
// time: the escaped chunk (at most six times as long) stays well inside
// the caches, and a 64 MiB output is still only a few thousand writes.
const escapeChunk = 16 << 10

// writeJSONString writes s, which must be valid UTF-8 (lossy output), as a
// JSON string, escaping as encoding/json does: quote, backslash, control
// characters (\u00XX unless they have a short form; a NUL is \u0000, six
// bytes) and U+2028/U+2029, which JavaScript does not take raw. It escapes
// escapeChunk bytes at a time into a scratch buffer and writes that, so
// the escaped string never exists whole.
func writeJSONString(w *bufio.Writer, s string) {
	if len(s) == 0 {
		w.WriteString(`""`)
		return
	}
	var scratch []byte
	if len(s) <= smallEscape {
		// Most strings of an answer are short (an empty stderr, a
		// small stdout): a scratch of their own size, not the 96 KiB
		// a full chunk needs, allocated and zeroed on every call.
		scratch = make([]byte, 0, 6*len(s)+2)
	} else {
		p := scratchPool.Get().(*[]byte)
		defer scratchPool.Put(p)
		scratch = (*p)[:0]
	}
	scratch = append(scratch, '"')
	for len(s) > 0 {
		n := min(len(s), escapeChunk)
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++ // keep each character, U+2028 and U+2029 among them, whole
		}
		scratch = appendEscaped(scratch, s[:n])
		s = s[n:]
		if len(s) == 0 {
			scratch = append(scratch, '"')
		}
		w.Write(scratch)
		scratch = scratch[:0]
	}
}

// smallEscape is the longest string escaped into a scratch of its own
// size; longer ones share the pooled full-chunk scratches.
const smallEscape = 4 << 10

// scratchPool holds escape scratches of a full chunk (every character
// escaped to six bytes, and the quotes).
var scratchPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 6*escapeChunk+2)
	return &b
}}

// appendEscaped appends s, escaped, to b: runs of plain bytes are
// appended whole, and found eight bytes at a time.
func appendEscaped(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			m := special8(s[i : i+8])
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		}
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
			i++
		case c < 0x20 && (i+1 == len(s) || s[i+1] != c):
			b = append(b, controlEscape[c]...)
			i++
		case c < 0x20:
			b, i = appendControlRun(b, s, i)
		case i+2 < len(s) && s[i+1] == 0x80 && s[i+2]&^1 == 0xA8:
			// U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
			b = append(b, '\\', 'u', '2', '0', '2', '8'+s[i+2]&1)
			i += 3
		default: // 0xE2 starting another character
			b = append(b, c)
			i++
		}
		start = i
	}
	return append(b, s[start:]...)
}

// appendControlRun appends the escapes of the run of control character
// s[i] that starts at i, and returns where the run ends: the first escape
// is appended, then the escapes appended so far are copied again until
// the run is covered, so a long run of NUL bytes (head -c 64M /dev/zero)
// costs a few memmoves rather than six appends a byte.
func appendControlRun(b []byte, s string, i int) ([]byte, int) {
	c := s[i]
	end := i + 1
	for end < len(s) && s[end] == c {
		end++
	}
	esc := controlEscape[c]
	from := len(b)
	b = append(b, esc...)
	for done, want := 1, end-i; done < want; {
		n := min(done, want-done)
		b = append(b, b[from:from+n*len(esc)]...)
		done += n
	}
	return b, end
}

// Byte-wise masks for special8.
const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// special8 flags the bytes of w (eight of them) that are not plain: in
// the result, the high bit of the lowest flagged byte is exact (a borrow
// only runs upwards), so its trailing zeros / 8 are that byte's index;
// the mask is 0 exactly when all eight are plain.
func special8(w string) uint64 {
	x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
	zero := func(v uint64) uint64 { return (v - lows) &^ v & highs }
	control := (x - lows*0x20) &^ x & highs // a byte below 0x20
	return control | zero(x^(lows*'"')) | zero(x^(lows*'\\')) | zero(x^(lows*0xE2))
}
