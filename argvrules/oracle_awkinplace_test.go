//go:build unix

package argvrules

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGawkInplaceOracle runs gawk's in-place editing with the real gawk,
// with the awk family's AWKPATH as the server gives it, in a fresh
// directory beside an "outside" one (@OUT@, holding a file t; in the
// working directory lo links to it and dl to the directory), and fails on
// an escape: a run the recognizer allowed that ran the canary or changed
// anything outside. It first proves it sees danger, and that the
// family's AWKPATH is what keeps a planted ./inplace.awk from loading.
func TestGawkInplaceOracle(t *testing.T) {
	t.Parallel()
	gawk, err := exec.LookPath("gawk")
	if err != nil {
		requireProgram(t, "gawk")
	}
	prog := Program{Path: gawk}
	const edit = `{ sub(/foo/, "bar") } 1`
	cases := []struct {
		args  []string
		plant map[string]string
	}{
		{args: a("-i", "inplace", edit, "in.txt")},
		{args: a("--include=inplace", "-v", "inplace::suffix=.bak", edit, "in.txt")},
		{args: a("-i", "inplace", edit, "lo")},
		{args: a("-i", "inplace", edit, "dl/t")},
		{args: a("-i", "inplace", edit, "@OUT@/t")},
		{args: a("-i", "inplace", "-v", "inplace::suffix=/../x", edit, "in.txt")},
		{args: a("-i", "inplace", edit, "in.txt", "inplace::filename=@OUT@/t", "x")},
		{args: a("-i", "inplace", `BEGIN { inplace::begin("@OUT@/t", ""); print "pwned"; inplace::end("@OUT@/t", "") }`)},
		{args: a("-i", "inplace", `@namespace "inplace"; BEGINFILE { filename = "@OUT@/t" } { print }`, "in.txt")},
		{args: a("-i", "inplace", edit, "in.txt"), plant: map[string]string{"inplace.awk": `BEGIN { system("touch @OUT@/ran") }`}},
		{args: a("-i", "inplace", edit, "in.txt"), plant: map[string]string{"inplace": `BEGIN { system("touch @OUT@/ran") }`}},
	}
	dangerous, edited := 0, 0
	for _, c := range cases {
		for _, env := range [][]string{awkEnv(Workspace{}), nil} {
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			w, out := filepath.Join(base, "w"), filepath.Join(base, "out")
			fill := func(s string) string { return strings.ReplaceAll(s, "@OUT@", out) }
			mkdirs(t, w, out)
			writeFiles(t, map[string]string{filepath.Join(w, "in.txt"): "foo\n", filepath.Join(w, "x"): "foo\n", filepath.Join(out, "t"): "foo\n"})
			for name, body := range c.plant {
				writeFiles(t, map[string]string{filepath.Join(w, name): fill(body)})
			}
			for name, target := range map[string]string{"lo": filepath.Join(out, "t"), "dl": out} {
				if err := os.Symlink(target, filepath.Join(w, name)); err != nil {
					t.Fatal(err)
				}
			}
			args := make([]string, len(c.args))
			for i, s := range c.args {
				args[i] = fill(s)
			}
			argv := append([]string{"gawk"}, args...)
			ctx := pinCtx(t, w)
			ctx.Program = prog
			rej := checkAwk(argv, ctx)
			before := treeSnapshot(t, base)
			runIn(t, gawk, w, append([]string{"PATH=/usr/bin:/bin", "LC_ALL=C"}, env...), args...)
			after := treeSnapshot(t, base)
			outside := changedOutside(before, after)
			if b, _ := os.ReadFile(filepath.Join(w, "in.txt")); string(b) == "bar\n" {
				edited++
			}
			if os.Getenv("ORACLE_DEBUG") != "" {
				t.Logf("%v %q: outside %v, refused %v", env, argv, outside, rej != nil)
			}
			if len(outside) > 0 {
				dangerous++
				if rej == nil {
					t.Errorf("escape (AWKPATH %v): %q was allowed and changed %v", env, argv, outside)
				}
			}
			if env != nil && c.plant != nil && len(outside) > 0 {
				t.Errorf("the family's AWKPATH did not keep the planted include out: %q changed %v", argv, outside)
			}
		}
	}
	if dangerous < 8 || edited < 4 {
		t.Fatalf("%d dangerous runs (want 8), %d edits (want 4): the oracle cannot tell", dangerous, edited)
	}
	t.Logf("%d dangerous runs, all refused; %d in-place edits", dangerous, edited)
}
