package workdir

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

func resolved(t *testing.T) string {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		path, dir string
		want      bool
	}{
		{"/a/b", "/a", true}, {"/a", "/a", true}, {"/ab", "/a", false},
		{"/a/b", "/", true}, {"/", "/a", false}, {"/a/../b", "/a", false},
	} {
		if got := Within(filepath.Clean(tt.path), tt.dir); got != tt.want {
			t.Errorf("Within(%q, %q) = %v", tt.path, tt.dir, got)
		}
	}
}

func TestResolve(t *testing.T) {
	allowed, outside := resolved(t), resolved(t)
	os.Mkdir(filepath.Join(allowed, "sub"), 0o755)
	os.WriteFile(filepath.Join(allowed, "f"), nil, 0o644)
	os.Symlink(outside, filepath.Join(allowed, "out"))
	os.MkdirAll(filepath.Join(allowed, "r", ".git", "hooks"), 0o755)
	os.MkdirAll(filepath.Join(allowed, "r", ".GIT"), 0o755)
	ptr := func(s string) *string { return &s }
	for _, tt := range []struct {
		arg  *string
		want string // "" = refused
	}{
		{nil, allowed}, {ptr("sub"), filepath.Join(allowed, "sub")}, {ptr(allowed), allowed},
		{ptr("r"), filepath.Join(allowed, "r")},
		{ptr(""), ""}, {ptr("  "), ""}, {ptr("missing"), ""}, {ptr("f"), ""}, {ptr("out"), ""}, {ptr(outside), ""},
	} {
		got, err := Resolve(tt.arg, []string{allowed})
		if tt.want == "" {
			if rj := refusal.As(err); rj == nil || rj.Code != CodeDirectory {
				t.Errorf("Resolve(%v) = %q, %v; want a %s refusal", tt.arg, got, err, CodeDirectory)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Resolve(%v) = %q, %v; want %q", tt.arg, got, err, tt.want)
		}
	}
}

// TestPinnedDirSurvivesSwap: once checked, a call's directory cannot be
// replaced by a symlink to elsewhere (queued calls swapping "d" for a link
// to an outside directory between check and run).
func TestPinnedDirSurvivesSwap(t *testing.T) {
	allowed, outside := resolved(t), resolved(t)
	d := filepath.Join(allowed, "d")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	pin, err := Open(d, []string{allowed})
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
	f, err := pin.Root().Create("escaped.txt")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := os.Stat(filepath.Join(outside, "escaped.txt")); err == nil {
		t.Fatal("the open followed the swapped symlink outside")
	}
	if _, err := os.Stat(filepath.Join(allowed, "d_tmp", "escaped.txt")); err != nil {
		t.Errorf("the open did not land in the pinned directory: %v", err)
	}
	if real, _ := os.Readlink(pin.Path()); real != filepath.Join(allowed, "d_tmp") {
		t.Errorf("Path leads to %q", real)
	}
	// A directory that resolves outside is refused on the opened inode.
	if _, err := Open(d, []string{allowed}); refusal.As(err) == nil {
		t.Errorf("a symlink to outside was pinned: %v", err)
	}
}

// TestGitDirectoryRefused: a call cannot run inside a .git directory, where
// '>> config' would rewrite the repository's configuration (directory
// ".git", then diff.external runs a program).
func TestGitDirectoryRefused(t *testing.T) {
	allowed := resolved(t)
	for _, d := range []string{"r/.git", "r/.git/hooks", "r/.GIT"} {
		os.MkdirAll(filepath.Join(allowed, d), 0o755)
		if wd, err := OpenAllowed(&d, []string{allowed}); refusal.As(err) == nil {
			wd.Close()
			t.Errorf("%s: opened as a call directory", d)
		}
	}
	ok := "r"
	wd, err := OpenAllowed(&ok, []string{allowed})
	if err != nil {
		t.Fatal(err)
	}
	wd.Close()
}
