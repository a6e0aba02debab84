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

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// outsideVariant is one run of an oracle that watches a directory outside
// the working directory: the program, its arguments (@OUT@ is the outside
// directory, @DIR@ the working one, @PARENT@ their parent), symlinks to
// plant first, and whether it is an everyday form that must be allowed.
type outsideVariant struct {
	bin     string
	args    []string
	symlink map[string]string
	allow   bool
}

// outsideOracle is how an oracle runs its variants.
type outsideOracle struct {
	name    string
	prepare func(dir, out string) // files every run needs
	env     func(base string) []string
	min     int // dangerous runs the oracle must see
}

// run runs each variant (a fixed sample without testenv.Heavy) in a fresh directory w next to outside/, judges
// its argv with the family recognizer (Check) under the pinned w, and
// counts runs that changed anything below outside/ and, of those, the
// ones the recognizer allowed (escapes).
func (o outsideOracle) run(t *testing.T, variants []outsideVariant) {
	t.Helper()
	runs, wrote := 0, 0
	for _, v := range testenv.Sample(variants) {
		bin, ok := testenv.Have(t, v.bin)
		if !ok {
			continue
		}
		runs++
		base := t.TempDir()
		dir, out := filepath.Join(base, "w"), filepath.Join(base, "outside")
		os.Mkdir(dir, 0o755)
		os.Mkdir(out, 0o755)
		if o.prepare != nil {
			o.prepare(dir, out)
		}
		sub := strings.NewReplacer("@OUT@", out, "@DIR@", dir, "@PARENT@", base)
		for name, target := range v.symlink {
			os.Symlink(sub.Replace(target), filepath.Join(dir, name))
		}
		argv := []string{v.bin}
		for _, a := range v.args {
			argv = append(argv, sub.Replace(a))
		}
		wd, err := workdir.Open(dir, []string{dir})
		if err != nil {
			t.Fatal(err)
		}
		rej := Check(argv, Context{Dir: wd})
		wd.Close()
		before := snapshot(out)
		ctx, cancel := context.WithTimeout(context.Background(), testenv.RunTimeout)
		cmd := exec.CommandContext(ctx, bin, argv[1:]...)
		cmd.Dir, cmd.Env, cmd.WaitDelay = dir, o.env(base), time.Second
		cmd.Run()
		cancel()
		if v.allow && rej != nil {
			t.Errorf("everyday %q refused: %s", argv, rej.Message)
		}
		if snapshot(out) != before {
			wrote++
			if rej == nil {
				t.Errorf("escape: %q wrote outside, but the recognizer allowed it", argv)
			}
		}
	}
	testenv.Saw(t, o.name, runs, wrote, o.min)
}

// snapshot lists the files below dir with their modification times.
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

// plainEnv is a minimal child environment with HOME in the run's base.
func plainEnv(base string) []string { return []string{"PATH=/usr/bin:/bin", "HOME=" + base} }
