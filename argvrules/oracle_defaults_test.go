//go:build unix

package argvrules

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// TestDefaultNamesOracle runs split, wget (against a
// loopback server) and file -C, each writing under names it makes up, with
// a symlink planted under such a name leading outside.
func TestDefaultNamesOracle(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("oracle runs programs")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("data\n")) }))
	defer srv.Close()
	outsideOracle{
		name: "default-name",
		prepare: func(dir, _ string) {
			os.WriteFile(filepath.Join(dir, "data.txt"), []byte("a\nb\nc\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "magic"), []byte("0\tstring\tXYZ\tXYZ data\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "urls.txt"), []byte(srv.URL+"/h.txt\n"), 0o644)
		},
		env: plainEnv, min: 3,
	}.run(t, []outsideVariant{
		{bin: "split", args: []string{"-l", "1", "data.txt"}, symlink: map[string]string{"xaa": "@OUT@/xaa"}},
		{bin: "split", args: []string{"-l", "1", "data.txt", "p_"}, symlink: map[string]string{"p_ab": "@OUT@/pab"}},
		{bin: "wget", args: []string{"-q", srv.URL + "/f.txt"}, symlink: map[string]string{"f.txt": "@OUT@/f"}},
		{bin: "wget", args: []string{"-q", "-P", "d", srv.URL + "/g.txt"}, symlink: map[string]string{"d": "@OUT@"}},
		{bin: "wget", args: []string{"-q", "-i", "urls.txt"}, symlink: map[string]string{"h.txt": "@OUT@/h"}},
		{bin: "file", args: []string{"-C", "-m", "magic"}, symlink: map[string]string{"magic.mgc": "@OUT@/m"}},
		{bin: "split", args: []string{"-l", "1", "data.txt", "part_"}, allow: true},
		{bin: "wget", args: []string{"-q", srv.URL + "/ok.txt"}, allow: true},
	})
}
