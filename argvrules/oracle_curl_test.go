//go:build unix

package argvrules

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// TestCurlWriteOracle runs the real curl against a
// loopback HTTP server on the forms that make curl write somewhere other
// than an output option says: -T uploads to file:// URLs, #N glob
// references in -o, -O names through a planted symlink, --output-dir.
func TestCurlWriteOracle(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("oracle runs curl")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("data\n")) }))
	defer srv.Close()
	H := srv.URL
	c := func(args ...string) outsideVariant {
		return outsideVariant{bin: "curl", args: append([]string{"-sS"}, args...)}
	}
	via := func(v outsideVariant, name, target string) outsideVariant {
		v.symlink = map[string]string{name: target}
		return v
	}
	ok := func(v outsideVariant) outsideVariant { v.allow = true; return v }
	outsideOracle{
		name: "curl",
		prepare: func(dir, _ string) {
			os.WriteFile(filepath.Join(dir, "src.txt"), []byte("payload\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "b.txt"), []byte("payload\n"), 0o644)
		},
		env: plainEnv, min: 8,
	}.run(t, []outsideVariant{
		c("-T", "src.txt", "file://@OUT@/up"),
		c("-T", "src.txt", "FILE://@OUT@/up"),
		c("-T", "src.txt", "file:@OUT@/single"),
		c("-T", "src.txt", "fIlE:@OUT@/mixed"),
		c("-T", "src.txt", "file://127.0.0.1@OUT@/ip"),
		c("-T", "src.txt", "file://localhost@OUT@/up"),
		c("-T", "src.txt", "file://@OUT@/"),
		c("-T", "src.txt", "file://@PARENT@/w/..%2Foutside/enc"),
		c("-T", "src.txt", "--proto-default", "file", "@OUT@/pd"),
		c("-T", "{src.txt,b.txt}", "file://@OUT@/"),
		c("-T", "src.txt", "file://@OUT@/{a,b}"),
		c("--upload-file", "src.txt", "--url", "file://@OUT@/u2"),
		c(H+"/{x,../outside}", "-o", "#1/glob"),
		c(H+"/{@OUT@/abs,y}", "-o", "#1"),
		c(H+"/[1-2]/{..,z}", "-o", "#2/#1"),
		via(c("-O", H+"/f"), "f", "@OUT@/viaO"),
		via(c("--remote-name-all", H+"/g"), "g", "@OUT@/viaO2"),
		via(c("--output-dir", "d", "-O", H+"/h"), "d", "@OUT@"),
		via(c("--output-dir", "d", "-o", "i", H+"/i"), "d", "@OUT@"),
		ok(c("-o", "page.html", H+"/")),
		ok(c("-O", H+"/file.tgz")),
		ok(c(H+"/{a,b}.txt", "-o", "out_#1.txt")),
		ok(c("-T", "src.txt", "file://@DIR@/copy.txt")),
		ok(c("-T", "src.txt", H+"/put")),
		ok(c("--create-dirs", "-o", "new/dir/f", H+"/")),
	})
}
