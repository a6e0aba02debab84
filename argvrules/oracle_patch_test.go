//go:build unix

package argvrules

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPatchOracle runs GNU patch in a fresh directory beside an "outside"
// one (@OUT@, holding t and a subdirectory copy of the tree) and fails on
// an escape: a run the recognizer allowed that changed anything outside.
// The patches change f.txt ("a" to "b"); bad.diff does not apply. It
// first proves it sees danger. It also shows what is left to patch
// itself: names with ".." in the patch text and symlinks are refused by
// patch (those runs must change nothing outside although allowed).
func TestPatchOracle(t *testing.T) {
	t.Parallel()
	patch, err := exec.LookPath("patch")
	if err != nil {
		requireProgram(t, "patch")
	}
	cases := [][]string{
		{"-p0", "-i", "fix.diff"}, {"-i", "fix.diff", "-o", "new.txt"}, {"-b", "-z", ".bak", "-i", "fix.diff"},
		{"-d", "sub", "-p0", "-i", "../fix.diff"}, {"-i", "up.diff"}, {"-i", "lnk.diff"}, {"--follow-symlinks", "-i", "lnk.diff"},
		{"-i", "fix.diff", "-o", "@OUT@/o"},
		{"-i", "bad.diff", "-r", "@OUT@/rej"},
		{"-b", "-B", "@OUT@/", "-i", "fix.diff"},
		{"-b", "-B", "../out/", "-i", "fix.diff"},
		{"@OUT@/t", "fix.diff"},
		{"-d", "@OUT@", "-p0", "-i", "@W@/fix.diff"},
		{"-d", "../out", "-p0", "-i", "@W@/fix.diff"},
		{"-b", "-z", "/../../out/x", "f.txt", "fix.diff"},
	}
	dangerous, allowed := 0, 0
	for _, c := range cases {
		base, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		w, out := filepath.Join(base, "w"), filepath.Join(base, "out")
		mkdirs(t, filepath.Join(w, "sub"), out)
		diff := func(name string) string { return "--- " + name + "\n+++ " + name + "\n@@ -1 +1 @@\n-a\n+b\n" }
		writeFiles(t, map[string]string{
			filepath.Join(w, "f.txt"): "a\n", filepath.Join(w, "sub", "f.txt"): "a\n", filepath.Join(out, "t"): "a\n", filepath.Join(out, "f.txt"): "z\n",
			filepath.Join(w, "fix.diff"): diff("f.txt"), filepath.Join(w, "up.diff"): diff("../out/t"), filepath.Join(w, "lnk.diff"): diff("lnk"),
			filepath.Join(w, "bad.diff"): "--- f.txt\n+++ f.txt\n@@ -1 +1 @@\n-zzz\n+b\n",
		})
		if err := os.Symlink(filepath.Join(out, "t"), filepath.Join(w, "lnk")); err != nil {
			t.Fatal(err)
		}
		argv := []string{"patch"}
		for _, s := range c {
			argv = append(argv, strings.NewReplacer("@OUT@", out, "@W@", w).Replace(s))
		}
		rej := checkPatch(argv, pinCtx(t, w))
		before := treeSnapshot(t, base)
		runIn(t, patch, w, []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}, append([]string{"-t"}, argv[1:]...)...)
		outside := changedOutside(before, treeSnapshot(t, base))
		if rej == nil {
			allowed++
		}
		if len(outside) > 0 {
			dangerous++
			if rej == nil {
				t.Errorf("escape: %q was allowed and changed %v", argv, outside)
			}
		}
	}
	if dangerous < 6 || allowed < 6 {
		t.Fatalf("%d dangerous runs (want 6), %d allowed (want 6): the oracle cannot tell", dangerous, allowed)
	}
	t.Logf("%d dangerous runs, all refused; %d allowed", dangerous, allowed)
}
