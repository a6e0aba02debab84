package runner

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSpliceGrowsPipe: a drain that splices first grows the pipe to
// drainPipe, so that each splice(2) may move up to that much, and still
// counts every byte.
func TestSpliceGrowsPipe(t *testing.T) {
	if b, err := os.ReadFile("/proc/sys/fs/pipe-max-size"); err == nil {
		if max, _ := strconv.Atoi(strings.TrimSpace(string(b))); max < drainPipe && os.Geteuid() != 0 {
			t.Skipf("pipe-max-size is %d: an unprivileged process may not set %d", max, drainPipe)
		}
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	const size = 3 << 20
	go func() {
		defer pw.Close()
		pw.Write(pattern(size))
	}()
	c := &capture{name: "stdout", limit: 100, drain: true, overflow: make(chan string, 2)}
	c.run(pr)
	if c.total != size || !c.truncated || len(c.buf) != 100 {
		t.Errorf("counted %d of %d, kept %d, truncated %v", c.total, size, len(c.buf), c.truncated)
	}
	got, err := unix.FcntlInt(pr.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil || got != drainPipe {
		t.Errorf("pipe size after the drain: %d (%v), want %d", got, err, drainPipe)
	}
}
