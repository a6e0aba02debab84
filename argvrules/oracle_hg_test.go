//go:build unix

package argvrules

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHgOracle runs each case with the real hg in a repository holding
// ext.py (an extension that creates the canary when imported), beside an
// outside repository whose .hg/hgrc loads it, and fails on an escape: a
// run the recognizer allowed that loaded the extension. It first proves
// it sees danger.
func TestHgOracle(t *testing.T) {
	t.Parallel()
	hg, err := exec.LookPath("hg")
	if err != nil {
		requireProgram(t, "hg")
	}
	cases := [][]string{
		{"status"}, {"--cwd", "sub", "status"}, {"-R", ".", "log"}, {"log", "-l", "1"},
		{"--config", "extensions.x=@EXT@", "status"},
		{"status", "--config", "extensions.x=@EXT@"},
		{"log", "-k", "--config", "extensions.x=@EXT@"},
		{"--config=extensions.x=@EXT@", "root"},
		{"--cwd", "@OUT@", "status"},
		{"-R", "@OUT@", "status"},
		{"--repository=@OUT@", "log"},
		{"log", "-R@OUT@"},
		{"--cwd", "evil", "status"},
		{"-R", "evil", "log"},
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w, out, canary := filepath.Join(base, "w"), filepath.Join(base, "out"), filepath.Join(base, "canary")
	ext := filepath.Join(base, "ext.py")
	mkdirs(t, filepath.Join(w, "sub"), out)
	writeFiles(t, map[string]string{ext: "open(" + strings.ReplaceAll(`"@C@"`, "@C@", canary) + ", 'w').write('python ran')\n"})
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + base, "HGRCPATH=", "HGPLAIN=1"}
	for _, dir := range []string{w, out} {
		runIn(t, hg, dir, env, "init")
	}
	mkdirs(t, filepath.Join(w, "evil"))
	runIn(t, hg, filepath.Join(w, "evil"), env, "init")
	for _, d := range []string{out, filepath.Join(w, "evil")} {
		writeFiles(t, map[string]string{filepath.Join(d, ".hg", "hgrc"): "[extensions]\nx = " + ext + "\n"})
	}
	ctx := pinCtx(t, w)
	dangerous, allowed := 0, 0
	for _, c := range cases {
		os.Remove(canary)
		argv := []string{"hg"}
		for _, s := range c {
			argv = append(argv, strings.NewReplacer("@EXT@", ext, "@OUT@", out).Replace(s))
		}
		rej := checkHg(argv, ctx)
		runIn(t, hg, w, env, argv[1:]...)
		_, ran := os.Stat(canary)
		if rej == nil {
			allowed++
		}
		if ran == nil {
			dangerous++
			if rej == nil {
				t.Errorf("escape: %q was allowed and loaded the extension", argv)
			}
		}
	}
	if dangerous < 9 || allowed < 4 {
		t.Fatalf("%d dangerous runs (want 9), %d allowed (want 4): the oracle cannot tell", dangerous, allowed)
	}
	t.Logf("%d dangerous runs, all refused", dangerous)
}
