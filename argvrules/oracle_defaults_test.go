//go:build unix

package argvrules

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// TestDefaultNamesOracle (issue 12, class 4) runs split, wget (against a
// loopback server) and file -C, each writing files under names it makes
// up, with a symlink planted under such a name leading outside, and
// counts escapes: runs that wrote outside although the recognizer allowed
// them. At least three must write outside.
func TestDefaultNamesOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle runs programs")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("data\n")) }))
	defer srv.Close()
	type variant struct {
		bin     string
		args    []string
		symlink map[string]string
		allow   bool
	}
	variants := []variant{
		{bin: "split", args: []string{"-l", "1", "data.txt"}, symlink: map[string]string{"xaa": "@OUT@/xaa"}},
		{bin: "split", args: []string{"-l", "1", "data.txt", "p_"}, symlink: map[string]string{"p_ab": "@OUT@/pab"}},
		{bin: "wget", args: []string{"-q", srv.URL + "/f.txt"}, symlink: map[string]string{"f.txt": "@OUT@/f"}},
		{bin: "wget", args: []string{"-q", "-P", "d", srv.URL + "/g.txt"}, symlink: map[string]string{"d": "@OUT@"}},
		{bin: "wget", args: []string{"-q", "-i", "urls.txt"}, symlink: map[string]string{"h.txt": "@OUT@/h"}},
		{bin: "file", args: []string{"-C", "-m", "magic"}, symlink: map[string]string{"magic.mgc": "@OUT@/m"}},
		{bin: "split", args: []string{"-l", "1", "data.txt", "part_"}, allow: true},
		{bin: "wget", args: []string{"-q", srv.URL + "/ok.txt"}, allow: true},
	}
	wrote, escapes := 0, 0
	for _, v := range variants {
		bin, err := exec.LookPath(v.bin)
		if err != nil {
			t.Logf("%s not installed, skipped", v.bin)
			continue
		}
		base := t.TempDir()
		dir, out := filepath.Join(base, "w"), filepath.Join(base, "outside")
		os.Mkdir(dir, 0o755)
		os.Mkdir(out, 0o755)
		os.WriteFile(filepath.Join(dir, "data.txt"), []byte("a\nb\nc\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "magic"), []byte("0\tstring\tXYZ\tXYZ data\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "urls.txt"), []byte(srv.URL+"/h.txt\n"), 0o644)
		sub := strings.NewReplacer("@OUT@", out)
		for name, target := range v.symlink {
			os.Symlink(sub.Replace(target), filepath.Join(dir, name))
		}
		argv := append([]string{v.bin}, v.args...)
		wd, err := workdir.Open(dir, []string{dir})
		if err != nil {
			t.Fatal(err)
		}
		rej := Check(argv, Context{Dir: wd})
		wd.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, bin, argv[1:]...)
		cmd.Dir, cmd.Env, cmd.WaitDelay = dir, []string{"PATH=/usr/bin:/bin", "HOME=" + base}, time.Second
		cmd.Run()
		cancel()
		entries, _ := os.ReadDir(out)
		if v.allow && rej != nil {
			t.Errorf("everyday %q refused: %s", argv, rej.Message)
		}
		if len(entries) > 0 {
			wrote++
			if rej == nil {
				escapes++
				t.Errorf("escape: %q wrote %s outside, but the recognizer allowed it", argv, entries[0].Name())
			}
		}
	}
	t.Logf("default-name oracle: %d variants, %d wrote outside, %d escapes", len(variants), wrote, escapes)
	if wrote < 3 {
		t.Errorf("only %d variants wrote outside: the oracle is not exercising the programs", wrote)
	}
}
