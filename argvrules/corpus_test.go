package argvrules

import (
	"path"
	"path/filepath"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
)

// corpusCase is a shared/cases row.
type corpusCase = testcases.Case

var stages = testcases.RecognizerStages

// verdict runs the recognizer of every stage whose argv[0] belongs to a
// registered family; handled reports whether any stage did.
func verdict(argv []string, ctx Context) (rej *Rejection, handled bool) {
	for _, st := range stages(argv) {
		if len(st) == 0 || FamilyOf(path.Base(st[0])) == nil {
			continue
		}
		handled = true
		if r := Check(st, ctx); r != nil {
			return r, true
		}
	}
	return nil, handled
}

// corpusCtx is a working directory like the corpora's: it exists and
// holds nothing, so every named output must be new and inside it.
func corpusCtx(t *testing.T) Context {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return pinCtx(t, dir)
}

// TestCorpora runs every shared corpus row a family handles: tumf and
// bugreport rows as they expect, gtfobins argv rows (reject), benign rows
// (allow).
func TestCorpora(t *testing.T) {
	ctx := corpusCtx(t)
	for _, corpus := range []struct {
		name string
		keep func(c corpusCase) bool
		want func(c corpusCase) string
	}{
		// tumf reject rows whose area is not a family are the policy's
		// (refused programs, redirections), not a recognizer's.
		{"tumf_cases", func(c corpusCase) bool {
			return c.Expect == "allow" || c.Expect == "reject" && familyNamed(c.Area) != nil
		}, expected},
		{"gtfobins", func(c corpusCase) bool { return c.Expect == "reject" && c.Vector == "argv" }, expected},
		{"benign", func(corpusCase) bool { return true }, func(corpusCase) string { return "allow" }},
		{"bugreports", func(c corpusCase) bool { return c.Expect == "reject" }, expected},
	} {
		t.Run(corpus.name, func(t *testing.T) {
			n := 0
			for _, c := range testcases.Load(t, corpus.name) {
				if !corpus.keep(c) {
					continue
				}
				rej, handled := verdict(c.Argv, ctx)
				if !handled {
					continue
				}
				n++
				if rej != nil {
					checkDeclared(t, rej.Code)
				}
				switch want := corpus.want(c); {
				case want == "allow" && rej != nil:
					t.Errorf("%s: %q: want allow, got %s (%s)", c.ID, c.Argv, rej.Code, rej.Message)
				case want == "reject" && rej == nil:
					t.Errorf("%s: %q: want reject, got allow", c.ID, c.Argv)
				}
			}
			if n == 0 {
				t.Fatalf("no %s rows belong to a registered family", corpus.name)
			}
			t.Logf("%s rows checked: %d", corpus.name, n)
		})
	}
}

func expected(c corpusCase) string { return c.Expected() }
