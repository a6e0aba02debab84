package argvrules

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// requiresValue are the installed programs' "missing value" diagnostics:
// glibc getopt_long, curl, clap 2 (ripgrep 13) and ripgrep 14.
var requiresValue = []string{"requires an argument", "requires parameter", "requires a value", "missing value", "but 0 were provided"}

// TestTablesMatchPrograms checks every option row's argument kind against
// the installed program: "prog --name" (or "prog -c") as the last word
// must draw a missing-value diagnostic exactly when the row is
// RequiredArg; for ripgrep, "rg --name --files" must not list the probe
// file exactly when the row is RequiredArg (the value took "--files"). A row that wrongly says RequiredArg would make the
// recognizer skip the next word as a value where the program reads it as
// an option; one that wrongly says NoArg would miss an output path.
// Rows the program does not know at all are reported only in -v output.
// Without testenv.Heavy a fixed sample of each table's rows is checked.
func TestTablesMatchPrograms(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs real programs")
	}
	for _, g := range []*getoptProgram{rgProgram, splitProgram, sdiffProgram, diff3Program,
		wgetProgram, curlProgram, makeProgram(Context{}), fileProgram} {
		prog := strings.Fields(g.family)[0]
		path, ok := testenv.Have(t, prog)
		if !ok {
			continue
		}
		t.Run(prog, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "probe.txt"), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, o := range testenv.Sample(g.table.Options()) {
				if prog == "rg" && rgExitsEarly[o.Long] || generatedNegation(g.table, o) {
					continue
				}
				for _, word := range optionWords(o) {
					args := []string{word}
					if prog == "rg" {
						// clap reports a missing value only when the rest of
						// the command line is valid; --files makes it so.
						args = append(args, "--files")
					}
					out := runQuiet(t, dir, path, args...)
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
					if prog == "rg" {
						// The value took "--files" exactly when the listing
						// of probe.txt is missing.
						missing = !strings.Contains(out, "probe.txt")
					}
					if want := o.Arg == requiredArg; missing != want && !(prog == "rg" && rgOptionalWhenHyphen[o.Long]) {
						t.Errorf("%s %s: table says RequiredArg=%v, program's missing-value diagnostic=%v:\n%s", prog, word, want, missing, out)
					}
				}
			}
			t.Logf("%s: %d option spellings checked", prog, checked)
		})
	}
}

// Options returns the table rows; callers must not modify them.
func (t *table) Options() []option { return t.rows() }

// generatedNegation reports rows added by withNegations ("no-NAME" for
// a NoArg NAME): they are NoArg by construction.
func generatedNegation(tb *table, o option) bool {
	base, ok := strings.CutPrefix(o.Long, "no-")
	if !ok || o.Short != 0 {
		return false
	}
	b, _, _ := tb.LookupLong(base)
	return b != nil && b.Long == base && b.Arg == noArg
}

// rgExitsEarly are ripgrep options that print something and exit, so
// the --files probe says nothing about them.
var rgExitsEarly = map[string]bool{"help": true, "version": true, "type-list": true,
	"pcre2-version": true, "generate": true, "files-with-matches": true, "files-without-match": true,
	"count": true, "count-matches": true, "quiet": true, "json": true, "null-data": true}

// optionWords returns "--long" and "-c" for a row.
func optionWords(o option) []string {
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
// environment, testenv.RunTimeout) and returns its combined output.
func runQuiet(t *testing.T, dir, path string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.RunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "LC_ALL=C"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	_ = cmd.Run()
	return out.String()
}
