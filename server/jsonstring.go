package server

import (
	"bufio"
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

// shortEscape is the two-byte escape of the control characters that have
// one, as encoding/json writes them.
var shortEscape = [0x20]byte{'\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

const hexDigits = "0123456789abcdef"

// writeJSONString writes s, which must be valid UTF-8 (lossy output), as a
// JSON string, escaping as encoding/json does: quote, backslash, control
// characters (\u00XX unless they have a short form; a NUL is \u0000, six
// bytes) and U+2028/U+2029, which JavaScript does not take raw. Runs of
// plain bytes go to w in one call, and runs of bytes to escape are
// appended straight into w's free buffer, so 64 MiB of NUL bytes is not
// 256 Mi calls.
func writeJSONString(w *bufio.Writer, s string) {
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case plain[c]:
			i++
		case c < utf8.RuneSelf:
			w.WriteString(s[start:i])
			if w.Available() < len(`\u0000`) {
				w.Flush()
			}
			b := appendEscape(w.AvailableBuffer(), c)
			for i++; i < len(s) && s[i] < utf8.RuneSelf && !plain[s[i]] && len(b)+len(`\u0000`) <= cap(b); i++ {
				b = appendEscape(b, s[i])
			}
			w.Write(b)
			start = i
		case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && s[i+2]&^1 == 0xA8:
			// U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
			w.WriteString(s[start:i])
			w.WriteString(`\u202`)
			w.WriteByte(hexDigits[s[i+2]&0xF])
			i += 3
			start = i
		default:
			i++
		}
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}

// appendEscape appends the escape of c, an ASCII byte that is not plain.
func appendEscape(b []byte, c byte) []byte {
	switch {
	case c == '"' || c == '\\':
		return append(b, '\\', c)
	case shortEscape[c] != 0:
		return append(b, '\\', shortEscape[c])
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}
