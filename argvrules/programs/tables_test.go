package programs

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
)

// requiresValue are the installed programs' "missing value" diagnostics:
// glibc getopt_long, curl, clap 2 (ripgrep 13) and ripgrep 14.
var requiresValue = []string{"requires an argument", "requires parameter", "requires a value", "missing value"}

// TestTablesMatchPrograms checks every option row's argument kind against
// the installed program: "prog --name" (or "prog -c") as the last word
// must draw a missing-value diagnostic exactly when the row is
// RequiredArg. A row that wrongly says RequiredArg would make the
// recognizer skip the next word as a value where the program reads it as
// an option; one that wrongly says NoArg would miss an output path.
// Rows the program does not know at all are reported only in -v output.
func TestTablesMatchPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real programs")
	}
	for _, g := range []*getoptProgram{rgProgram, splitProgram, sdiffProgram, diff3Program,
		wgetProgram, curlProgram, makeProgram, fileProgram} {
		prog := strings.Fields(g.family)[0]
		path, err := exec.LookPath(prog)
		if err != nil {
			t.Logf("%s not installed", prog)
			continue
		}
		t.Run(prog, func(t *testing.T) {
			dir := t.TempDir()
			checked := 0
			for _, o := range g.table.Options() {
				for _, word := range optionWords(o) {
					out := runQuiet(t, dir, path, word)
					if strings.Contains(out, "unrecognized option") || strings.Contains(out, "is unknown") ||
						strings.Contains(out, "invalid option") || strings.Contains(out, "unexpected argument") ||
						strings.Contains(out, "wasn't expected") || strings.Contains(out, "unrecognized flag") {
						t.Logf("%s %s: not known to the installed version", prog, word)
						continue
					}
					checked++
					missing := false
					for _, m := range requiresValue {
						missing = missing || strings.Contains(out, m)
					}
					if want := o.Arg == argvrules.RequiredArg; missing != want {
						t.Errorf("%s %s: table says RequiredArg=%v, program's missing-value diagnostic=%v:\n%s", prog, word, want, missing, out)
					}
				}
			}
			t.Logf("%s: %d option spellings checked", prog, checked)
		})
	}
}

// optionWords returns "--long" and "-c" for a row.
func optionWords(o argvrules.Option) []string {
	var w []string
	if o.Long != "" {
		w = append(w, "--"+o.Long)
	}
	if o.Short != 0 && o.Short != '0' && (o.Short < '1' || o.Short > '9') {
		w = append(w, "-"+string(o.Short))
	}
	return w
}

// runQuiet runs path with one argument in dir (empty stdin, minimal
// environment, 5 s) and returns its combined output.
func runQuiet(t *testing.T, dir, path, arg string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, arg)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "LC_ALL=C"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	_ = cmd.Run()
	return out.String()
}
