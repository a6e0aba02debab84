package fsview

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// scratch is a View on a new directory w (its working directory) beside
// a directory h outside the view, each symlink-resolved.
func scratch(t testing.TB) (v View, w, h string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w, h = filepath.Join(base, "w"), filepath.Join(base, "h")
	for _, d := range []string{w + "/sub", h + "/dir"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(h+"/secret", []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w+"/big", []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink(h, w+"/out")
	os.Symlink("sub", w+"/in")
	d, err := workdir.Open(w, []string{w})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return View{Dir: d}, w, h
}

// TestWalk: a walk stops with ErrHidden at the first component outside
// the view, before looking at it, whatever is there; inside it resolves
// symlinks and reports missing names and pseudo file systems.
func TestWalk(t *testing.T) {
	v, w, h := scratch(t)
	for _, tt := range []struct {
		p            string
		hidden       bool
		path         string
		exists, pseu bool
	}{
		{"sub", false, w + "/sub", true, false},
		{"in/../sub", false, w + "/sub", true, false},
		{"missing/x", false, w + "/missing/x", false, false},
		{"/dev/stdin", false, "/dev/stdin", true, true},
		{"out/secret", true, h, false, false},
		{"out/nothing", true, h, false, false},
		{h + "/secret/../../../dev/stdin", true, h, false, false},
		{h + "/missing/../../../dev/stdin", true, h, false, false},
	} {
		r, err := v.Walk(w, tt.p)
		if errors.Is(err, ErrHidden) != tt.hidden || r.Path != tt.path || (!tt.hidden && (r.Exists != tt.exists || r.Pseudo != tt.pseu)) {
			t.Errorf("Walk(%q) = %+v, %v; want path %q hidden %v exists %v pseudo %v", tt.p, r, err, tt.path, tt.hidden, tt.exists, tt.pseu)
		}
	}
}

// TestReadFile: reads stay inside the view, regular files only, bounded.
func TestReadFile(t *testing.T) {
	v, w, h := scratch(t)
	if _, err := v.ReadFile(w+"/big", 10); !errors.Is(err, ErrTooLarge) {
		t.Errorf("oversized: %v", err)
	}
	if b, err := v.ReadFile(w+"/big", 100); err != nil || len(b) != 100 {
		t.Errorf("at the bound: %d bytes, %v", len(b), err)
	}
	if _, err := v.ReadFile(w+"/sub", 10); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v", err)
	}
	for _, p := range []string{h + "/secret", w + "/out/secret"} {
		if _, err := v.ReadFile(p, 10); !errors.Is(err, ErrHidden) {
			t.Errorf("%s: want ErrHidden, got %v", p, err)
		}
	}
	if _, err := v.Stat(w + "/nothing"); !Missing(err) {
		t.Errorf("missing: %v", err)
	}
}

// FuzzWalk: any name resolves without panicking, and a result is hidden
// or inside the view (or a pseudo-file-system path, never looked at).
func FuzzWalk(f *testing.F) {
	for _, s := range []string{"sub", "in/../..", "out/secret", "/dev/../etc", "a//b/./c", "../../.."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if strings.IndexByte(p, 0) >= 0 {
			return
		}
		v, w, _ := scratch(t)
		r, err := v.Walk(w, p)
		if err == nil && r.Exists && !r.Pseudo && !v.Visible(r.Path) && !v.ancestor(r.Path) && r.Path != "/" {
			t.Errorf("Walk(%q) reached %q outside the view without ErrHidden", p, r.Path)
		}
	})
}
