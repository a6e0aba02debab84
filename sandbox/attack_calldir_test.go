//go:build darwin || linux

package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAttackFreeCallDirSwappedForSymlink shows the escape the check in
// callDirs.get closes: when the temporary directory lies inside an
// allowed directory, a call can replace a free call directory (waiting
// on the list for the next call) with a symlink to a directory outside
// the allowed ones; the next call got that path as its private TMPDIR,
// and its ruleset, opened through the symlink, granted writes to the
// target (reproduced through the server: touch outside the allowed
// directories succeeded).
func TestAttackFreeCallDirSwappedForSymlink(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	outside := t.TempDir()
	var c callDirs
	defer c.close()
	d, err := c.get()
	if err != nil {
		t.Fatal(err)
	}
	c.release(d) // empty and private: kept for the next call
	if err := os.Rename(d, filepath.Join(tmp, "moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, d); err != nil {
		t.Fatal(err)
	}
	got, err := c.get()
	if err != nil {
		t.Fatal(err)
	}
	if got == d {
		t.Fatalf("get returned %s, now a symlink to %s", got, outside)
	}
	if fi, err := os.Lstat(got); err != nil || !fi.IsDir() {
		t.Fatalf("get returned %s: %v %v", got, fi, err)
	}
}
