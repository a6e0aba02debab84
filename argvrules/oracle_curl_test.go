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

// TestCurlWriteOracle (issue 12, class 6) runs the real curl against a
// loopback HTTP server, in a directory next to an "outside" one, on the
// forms that make curl write somewhere other than an output option says:
// -T uploads to file:// URLs, #N glob references in -o, -O names through a
// planted symlink, --output-dir. An escape is a run that wrote outside
// although checkCurl allowed it; at least eight runs must write outside.
func TestCurlWriteOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle runs curl")
	}
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl not installed")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("data\n")) }))
	defer srv.Close()
	type variant struct {
		args    []string
		symlink map[string]string
		allow   bool // an everyday form that must be allowed
	}
	H := srv.URL
	variants := []variant{
		{args: []string{"-sS", "-T", "src.txt", "file://@OUT@/up"}},
		{args: []string{"-sS", "-T", "src.txt", "FILE://@OUT@/up"}},
		{args: []string{"-sS", "-T", "src.txt", "file://localhost@OUT@/up"}},
		{args: []string{"-sS", "-T", "src.txt", "file://@OUT@/"}},
		{args: []string{"-sS", "-T", "src.txt", "file://@PARENT@/w/..%2Foutside/enc"}},
		{args: []string{"-sS", "-T", "src.txt", "--proto-default", "file", "@OUT@/pd"}},
		{args: []string{"-sS", "-T", "{src.txt,b.txt}", "file://@OUT@/"}},
		{args: []string{"-sS", "-T", "src.txt", "file://@OUT@/{a,b}"}},
		{args: []string{"-sS", "--upload-file", "src.txt", "--url", "file://@OUT@/u2"}},
		{args: []string{"-sS", H + "/{x,../outside}", "-o", "#1/glob"}},
		{args: []string{"-sS", H + "/{@OUT@/abs,y}", "-o", "#1"}},
		{args: []string{"-sS", H + "/[1-2]/{..,z}", "-o", "#2/#1"}},
		{args: []string{"-sS", "-O", H + "/f"}, symlink: map[string]string{"f": "@OUT@/viaO"}},
		{args: []string{"-sS", "--remote-name-all", H + "/g"}, symlink: map[string]string{"g": "@OUT@/viaO2"}},
		{args: []string{"-sS", "--output-dir", "d", "-O", H + "/h"}, symlink: map[string]string{"d": "@OUT@"}},
		{args: []string{"-sS", "--output-dir", "d", "-o", "i", H + "/i"}, symlink: map[string]string{"d": "@OUT@"}},
		// everyday
		{args: []string{"-sS", "-o", "page.html", H + "/"}, allow: true},
		{args: []string{"-sS", "-O", H + "/file.tgz"}, allow: true},
		{args: []string{"-sS", H + "/{a,b}.txt", "-o", "out_#1.txt"}, allow: true},
		{args: []string{"-sS", "-T", "src.txt", "file://@DIR@/copy.txt"}, allow: true},
		{args: []string{"-sS", "-T", "src.txt", H + "/put"}, allow: true},
		{args: []string{"-sS", "--create-dirs", "-o", "new/dir/f", H + "/"}, allow: true},
	}
	wrote, escapes := 0, 0
	for _, v := range variants {
		base := t.TempDir()
		dir, out := filepath.Join(base, "w"), filepath.Join(base, "outside")
		os.Mkdir(dir, 0o755)
		os.Mkdir(out, 0o755)
		os.WriteFile(filepath.Join(dir, "src.txt"), []byte("payload\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "b.txt"), []byte("payload\n"), 0o644)
		sub := strings.NewReplacer("@OUT@", out, "@DIR@", dir, "@PARENT@", base)
		for name, target := range v.symlink {
			os.Symlink(sub.Replace(target), filepath.Join(dir, name))
		}
		argv := []string{"curl"}
		for _, a := range v.args {
			argv = append(argv, sub.Replace(a))
		}
		wd, err := workdir.Open(dir, []string{dir})
		if err != nil {
			t.Fatal(err)
		}
		rej := checkCurl(argv, Context{Dir: wd})
		wd.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, curl, argv[1:]...)
		cmd.Dir, cmd.Env = dir, []string{"PATH=/usr/bin:/bin", "HOME=" + base}
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
				t.Errorf("escape: %q wrote %s outside, but checkCurl allowed it", argv, entries[0].Name())
			}
		}
	}
	t.Logf("curl oracle: %d variants, %d wrote outside, %d escapes", len(variants), wrote, escapes)
	if wrote < 8 {
		t.Errorf("only %d variants wrote outside: the oracle is not exercising curl", wrote)
	}
}
