//go:build unix

package argvrules

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// TestGoChdirOracle (issue 12, class 6) runs the real go command with -C
// pointing outside the working directory, directly or through a symlink,
// and with relative outputs below -C, and counts escapes: runs that wrote
// outside although checkGo allowed them. At least four must write outside.
func TestGoChdirOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle runs go")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not installed")
	}
	cache, err := os.MkdirTemp("", "go-oracle-cache-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(cache) // not t.TempDir: go may still be trimming it when the test ends
	type variant struct {
		args  []string
		allow bool
	}
	variants := []variant{
		{args: []string{"-C", "@OUT@", "mod", "init", "example.com/x"}},
		{args: []string{"-C", "../outside", "mod", "init", "example.com/x"}},
		{args: []string{"-C", "link", "mod", "init", "example.com/x"}},
		{args: []string{"-C", "@OUT@/m", "build", "-o", "bin", "."}},
		{args: []string{"-C", "m", "build", "-o", "../../outside/bin", "."}},
		{args: []string{"-C", "m", "build", "-o", "bin", "."}, allow: true},
		{args: []string{"-C", "sub", "mod", "init", "example.com/s"}, allow: true},
	}
	wrote, escapes := 0, 0
	for _, v := range variants {
		base := t.TempDir()
		dir, out := filepath.Join(base, "w"), filepath.Join(base, "outside")
		for _, d := range []string{filepath.Join(dir, "sub"), filepath.Join(dir, "m"), filepath.Join(out, "m")} {
			os.MkdirAll(d, 0o755)
		}
		for _, m := range []string{filepath.Join(dir, "m"), filepath.Join(out, "m")} {
			os.WriteFile(filepath.Join(m, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644)
			os.WriteFile(filepath.Join(m, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
			os.WriteFile(filepath.Join(m, "main_test.go"), []byte("package main\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n"), 0o644)
		}
		os.Symlink(out, filepath.Join(dir, "link"))
		before := snapshot(out)
		argv := []string{"go"}
		for _, a := range v.args {
			argv = append(argv, strings.ReplaceAll(a, "@OUT@", out))
		}
		wd, err := workdir.Open(dir, []string{dir})
		if err != nil {
			t.Fatal(err)
		}
		rej := checkGo(argv, Context{Dir: wd})
		wd.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, goBin, argv[1:]...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + filepath.Dir(goBin) + ":/usr/bin:/bin", "HOME=" + base, "GOCACHE=" + cache,
			"GOPATH=" + filepath.Join(base, "gopath"), "GOFLAGS=", "GOTOOLCHAIN=local", "GOPROXY=off", "CGO_ENABLED=0"}
		cmd.WaitDelay = time.Second
		cmd.Run()
		cancel()
		if v.allow && rej != nil {
			t.Errorf("everyday %q refused: %s", argv, rej.Message)
		}
		if snapshot(out) != before {
			wrote++
			if rej == nil {
				escapes++
				t.Errorf("escape: %q wrote outside, but checkGo allowed it", argv)
			}
		}
	}
	t.Logf("go oracle: %d variants, %d wrote outside, %d escapes", len(variants), wrote, escapes)
	if wrote < 4 {
		t.Errorf("only %d variants wrote outside: the oracle is not exercising go", wrote)
	}
}

// snapshot lists the files below dir with their sizes.
func snapshot(dir string) string {
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			b.WriteString(p)
			b.WriteString(fi.ModTime().String())
			b.WriteByte('\n')
		}
		return nil
	})
	return b.String()
}
