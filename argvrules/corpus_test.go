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
// registered family; handled reports whether any stage did. A wrapper's
// stage is its own words and then the program it wraps, judged the same
// way (the policy judges that program's name: the refusal list, the
// allowlist).
func verdict(argv []string, ctx Context) (rej *Rejection, handled bool) {
	for _, st := range stages(argv) {
		if r, h := stageVerdict(st, ctx); h {
			handled = true
			if r != nil {
				return r, true
			}
		}
	}
	return nil, handled
}

func stageVerdict(st []string, ctx Context) (*Rejection, bool) {
	if len(st) == 0 || FamilyOf(path.Base(st[0])) == nil {
		return nil, false
	}
	f := FamilyOf(path.Base(st[0]))
	if r := Check(st, ctx); r != nil || !f.IsWrapper() {
		return r, true
	}
	w, _, _ := Wrap(f, st, ctx)
	if w.Program < 0 {
		return nil, true
	}
	inner := ctx
	inner.MoreOperands = ctx.MoreOperands || w.Appends
	return stageVerdict(st[w.Program:], inner)
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
