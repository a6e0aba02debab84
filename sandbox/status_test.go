package sandbox

import (
	"errors"
	"strings"
	"syscall"
	"testing"
)

// TestStatusFraming: reports survive the status pipe framing, and a
// garbled report is still an error, never success.
func TestStatusFraming(t *testing.T) {
	err := decodeStatus(encodeStatus("exec", syscall.EACCES, "exec /x: permission denied"))
	var se *StartError
	if !errors.As(err, &se) || se.Step != "exec" || !errors.Is(err, syscall.EACCES) || err.Error() != "exec /x: permission denied" {
		t.Errorf("round trip gave %#v", err)
	}
	if err := decodeStatus([]byte("garbage")); err == nil {
		t.Error("a garbled report decoded as success")
	}
	if err := ReadStatus(strings.NewReader("")); err != nil {
		t.Errorf("empty status = %v, want nil", err)
	}
}

// FuzzDecodeStatus: a non-empty report is always an error.
func FuzzDecodeStatus(f *testing.F) {
	f.Add(encodeStatus("exec", syscall.ENOENT, "exec /x: no such file or directory"))
	f.Add([]byte("x"))
	f.Add([]byte("\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && decodeStatus(b) == nil {
			t.Errorf("report %q decoded as success", b)
		}
	})
}
