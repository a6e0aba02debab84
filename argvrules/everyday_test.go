package argvrules

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEverydayRows: the developer commands of testdata/everyday.jsonl
// (at least 100 across the families) are allowed by their
// family's recognizer, with the program resolved as on Debian (awk is
// gawk) and HOME passed to children, in a working directory holding the
// files and directories they name.
func TestEverydayRows(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "everyday.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := testDir(t)
	for _, d := range []string{"src", "web", "public", "downloads", "patches", "wheels", "dist", "vendor"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	ctx := pinCtx(t, dir)
	ctx.Env = envLookup([]string{"HOME=/home/dev"})
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c struct {
			ID   string   `json:"id"`
			Argv []string `json:"argv"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		c2 := ctx
		if base := baseName(c.Argv); base == "awk" {
			c2.Program = Program{Path: "/usr/bin/awk", Links: []string{"/etc/alternatives/awk", "/usr/bin/gawk"}}
		}
		if len(Families(c.Argv[0], c2.Program)) == 0 {
			t.Errorf("%s: %q belongs to no family", c.ID, c.Argv)
			continue
		}
		if r := Check(c.Argv, c2); r != nil {
			t.Errorf("%s: %q refused: %s: %s", c.ID, c.Argv, r.Code, r.Message)
		}
	}
	if n < 100 {
		t.Errorf("only %d everyday rows, want at least 100", n)
	}
}

// envLookup turns NAME=value entries into Context.Env.
func envLookup(env []string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		for _, kv := range env {
			if k, v, ok := strings.Cut(kv, "="); ok && k == name {
				return v, true
			}
		}
		return "", false
	}
}
