package programs

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
)

// corpusCase is a shared/cases row.
type corpusCase = testcases.Case

func loadCorpus(t testing.TB, name string) []corpusCase {
	return testcases.Load(t, strings.TrimSuffix(name, ".jsonl"))
}

var stages = testcases.RecognizerStages

// verdict runs the recognizer of every stage whose argv[0] belongs to one
// of this package's families; handled reports whether any stage did.
func verdict(argv []string, ctx argvrules.Context) (rej *argvrules.Rejection, handled bool) {
	fams := Families()
	for _, st := range stages(argv) {
		fam := FamilyOf(baseName(st))
		if fam == "" {
			continue
		}
		handled = true
		if r := fams[fam](st, ctx); r != nil {
			return r, true
		}
	}
	return nil, handled
}

// corpusCtx is a working directory like the corpora's: it exists and
// holds nothing, so every named output must be new and inside it.
func corpusCtx(t *testing.T) argvrules.Context {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return pinCtx(t, dir)
}

func TestCorpusGTFOBins(t *testing.T) {
	ctx := corpusCtx(t)
	n := 0
	for _, c := range loadCorpus(t, "gtfobins.jsonl") {
		if c.Expect != "reject" || c.Vector != "argv" {
			continue
		}
		rej, handled := verdict(c.Argv, ctx)
		if !handled {
			continue
		}
		n++
		if rej == nil {
			t.Errorf("%s: %q: want reject, got allow", c.ID, c.Argv)
		}
	}
	if n == 0 {
		t.Fatal("no gtfobins argv rows belong to this package's families")
	}
	t.Logf("gtfobins argv reject rows checked: %d", n)
}

func TestCorpusBugreports(t *testing.T) {
	ctx := corpusCtx(t)
	n := 0
	for _, c := range loadCorpus(t, "bugreports.jsonl") {
		if c.Expect != "reject" {
			continue
		}
		rej, handled := verdict(c.Argv, ctx)
		if !handled {
			continue
		}
		n++
		if rej == nil {
			t.Errorf("%s: %q: want reject, got allow", c.ID, c.Argv)
		}
	}
	t.Logf("bugreport reject rows checked: %d", n)
}

func TestCorpusBenign(t *testing.T) {
	ctx := corpusCtx(t)
	n := 0
	for _, c := range loadCorpus(t, "benign.jsonl") {
		rej, handled := verdict(c.Argv, ctx)
		if !handled {
			continue
		}
		n++
		if rej != nil {
			t.Errorf("%s: %q: want allow, got %s: %s", c.ID, c.Argv, rej.Rule, rej.Message)
		}
	}
	if n == 0 {
		t.Fatal("no benign rows belong to this package's families")
	}
	t.Logf("benign rows checked: %d", n)
}

// TestCorpusTumfAllow checks that the reference corpus's allowed rows
// whose stages belong to these families stay allowed.
func TestCorpusTumfAllow(t *testing.T) {
	ctx := corpusCtx(t)
	for _, c := range loadCorpus(t, "tumf_cases.jsonl") {
		if c.Expect != "allow" {
			continue
		}
		if rej, handled := verdict(c.Argv, ctx); handled && rej != nil {
			t.Errorf("%s: %q: want allow, got %s: %s", c.ID, c.Argv, rej.Rule, rej.Message)
		}
	}
}
