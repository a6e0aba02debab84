//go:build unix

package argvrules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// TestGoChdirOracle runs the real go command with -C
// pointing outside the working directory, directly or through a symlink,
// and with relative outputs below -C, and counts escapes: runs that wrote
// outside although checkGo allowed them. At least four must write outside.
func TestGoChdirOracle(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("oracle runs go")
	}
	goBin := testenv.Program(t, "go")
	cache, err := os.MkdirTemp("", "go-oracle-cache-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(cache) // not t.TempDir: go may still be trimming it when the test ends
	goMod := func(dir string) {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	}
	g := func(args ...string) outsideVariant { return outsideVariant{bin: "go", args: args} }
	ok := func(v outsideVariant) outsideVariant { v.allow = true; return v }
	outsideOracle{
		name: "go",
		prepare: func(dir, out string) {
			os.Mkdir(filepath.Join(dir, "sub"), 0o755)
			goMod(filepath.Join(dir, "m"))
			goMod(filepath.Join(out, "m"))
			os.Symlink(out, filepath.Join(dir, "link"))
		},
		// The go command's telemetry child writes below the user's
		// configuration directory after go itself has exited: there it
		// races with no t.TempDir's removal.
		env: func(base string) []string {
			return []string{"PATH=" + filepath.Dir(goBin) + ":/usr/bin:/bin", "HOME=" + base, "GOCACHE=" + cache,
				"XDG_CONFIG_HOME=" + filepath.Join(cache, "config"),
				"GOPATH=" + filepath.Join(base, "gopath"), "GOFLAGS=-modcacherw", "GOTOOLCHAIN=local", "GOPROXY=off", "CGO_ENABLED=0"}
		},
		min: 4,
	}.run(t, []outsideVariant{
		g("-C", "@OUT@", "mod", "init", "example.com/x"),
		g("-C", "../outside", "mod", "init", "example.com/x"),
		g("-C", "link", "mod", "init", "example.com/x"),
		g("-C", "@OUT@/m", "build", "-o", "bin", "."),
		g("-C", "m", "build", "-o", "../../outside/bin", "."),
		ok(g("-C", "m", "build", "-o", "bin", ".")),
		ok(g("-C", "sub", "mod", "init", "example.com/s")),
	})
}
