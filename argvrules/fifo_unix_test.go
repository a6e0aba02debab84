//go:build unix

package argvrules

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFIFONeverBlocksAVerdict: every file a recognizer opens to judge a
// call (a script, a configuration, a URL list, a directory it lists, a
// repository's files) may be a FIFO the request planted (tar -x makes
// one); the verdict comes back without waiting for a writer.
func TestFIFONeverBlocksAVerdict(t *testing.T) {
	dir := t.TempDir()
	ff := filepath.Join(dir, "ff")
	if err := syscall.Mkfifo(ff, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, ".git"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Release a reader a regression left blocked.
		for _, p := range []string{ff, filepath.Join(dir, ".git")} {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
	})
	ctx := pinCtx(t, dir)
	for _, argv := range [][]string{
		{"sed", "-f", "ff", "a.txt"},
		{"openssl", "req", "-config", "ff"},
		{"wget", "-i", "ff"},
		{"split", "-l", "1", "in", "ff/x"},
		{"make", "-f", "ff"},
		{"xargs", "-a", "ff", "ls"},
		{"flock", "ff", "ls"},
		{"git", "status"},
		{"git", "--git-dir=ff", "status"},
		{"git", "format-patch", "-o", "ff", "HEAD~1"},
	} {
		done := make(chan *Rejection, 1)
		go func() { done <- Check(argv, ctx) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second): // a guard against a hang, not a timing assertion
			t.Errorf("%q: the verdict blocked on a FIFO", argv)
		}
	}
}
