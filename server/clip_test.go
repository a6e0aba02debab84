package server

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClipDetail: a validation error quoting a huge value comes back cut
// to maxDetail on a rune boundary, saying how much was left out; a short
// one whole.
func TestClipDetail(t *testing.T) {
	if got := clipDetail("short"); got != "short" {
		t.Errorf("clipDetail(short) = %q", got)
	}
	huge := `value "` + strings.Repeat("é", 2<<20) + `" does not match`
	got := clipDetail(huge)
	if len(got) > maxDetail+64 || !utf8.ValidString(got) || !strings.Contains(got, "more bytes)") {
		t.Errorf("clipDetail(4 MiB) is %d bytes, valid UTF-8 %v: %.80q", len(got), utf8.ValidString(got), got)
	}
}
