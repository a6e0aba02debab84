package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
)

// TestPinnedDirSurvivesSwap: once checked, a call's directory cannot be
// replaced by a symlink to elsewhere (red-team finding: queued calls
// swapped "d" for a link to an outside directory between check and run).
func TestPinnedDirSurvivesSwap(t *testing.T) {
	allowed, _ := filepath.EvalSymlinks(t.TempDir())
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	d := filepath.Join(allowed, "d")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	pin, err := pinDir(d, []string{allowed})
	if err != nil {
		t.Fatal(err)
	}
	defer pin.Close()
	if err := os.Rename(d, filepath.Join(allowed, "d_tmp")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, d); err != nil {
		t.Fatal(err)
	}
	f, err := redirect.OpenOutput(pin.Path, "escaped.txt", false)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := os.Stat(filepath.Join(outside, "escaped.txt")); err == nil {
		t.Fatal("the redirection followed the swapped symlink outside")
	}
	if _, err := os.Stat(filepath.Join(allowed, "d_tmp", "escaped.txt")); err != nil {
		t.Errorf("the redirection did not land in the pinned directory: %v", err)
	}
	res, err := runner.Run(context.Background(), runner.Spec{
		Stages: [][]string{{"pwd", "-P"}}, Dir: pin.Path, Env: []string{"PATH=/usr/bin:/bin"}, Timeout: 10e9, OutputLimit: 4096,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(res.Stdout)); got != filepath.Join(allowed, "d_tmp") {
		t.Errorf("child ran in %q, want the pinned directory", got)
	}
	// A directory that resolves outside is refused on the opened inode.
	if _, err := pinDir(d, []string{allowed}); err == nil {
		t.Error("a symlink to outside was pinned")
	}
}
