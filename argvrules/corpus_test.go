package argvrules

import (
	"strings"
	"testing"

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
func verdict(argv []string) (rej *Rejection, handled bool) {
	fams := Families()
	for _, st := range stages(argv) {
		if len(st) == 0 {
			continue
		}
		fam := FamilyOf(baseName(st))
		if fam == "" {
			continue
		}
		handled = true
		if r := fams[fam](st, scratchCtx); r != nil {
			return r, true
		}
	}
	return nil, handled
}

func TestCorpusTumf(t *testing.T) {
	n := 0
	for _, c := range loadCorpus(t, "tumf_cases.jsonl") {
		if c.Area != "find" && c.Area != "awk" && c.Area != "tar" {
			continue
		}
		n++
		checkCase(t, c)
	}
	t.Logf("tumf cases checked: %d", n)
}

func TestCorpusGTFOBins(t *testing.T) {
	n := 0
	for _, c := range loadCorpus(t, "gtfobins.jsonl") {
		if c.Expect != "reject" || c.Vector != "argv" {
			continue
		}
		if _, handled := verdict(c.Argv); !handled {
			continue
		}
		n++
		checkCase(t, c)
	}
	t.Logf("gtfobins argv rows checked: %d", n)
}

func TestCorpusBenign(t *testing.T) {
	n := 0
	for _, c := range loadCorpus(t, "benign.jsonl") {
		if _, handled := verdict(c.Argv); !handled {
			continue
		}
		n++
		c.Expect = "allow" // every benign row must be accepted
		checkCase(t, c)
	}
	t.Logf("benign rows checked: %d", n)
}

func TestCorpusBugreports(t *testing.T) {
	n := 0
	for _, c := range loadCorpus(t, "bugreports.jsonl") {
		if c.Expect != "reject" {
			continue
		}
		if _, handled := verdict(c.Argv); !handled {
			continue
		}
		n++
		checkCase(t, c)
	}
	t.Logf("bugreport rows checked: %d", n)
}

func checkCase(t *testing.T, c corpusCase) {
	t.Helper()
	rej, _ := verdict(c.Argv)
	switch c.Expect {
	case "allow":
		if rej != nil {
			t.Errorf("%s: %q: want allow, got %s (%s)", c.ID, c.Argv, rej.Rule, rej.Message)
		}
	case "reject":
		if rej == nil {
			t.Errorf("%s: %q: want reject, got allow", c.ID, c.Argv)
		}
	}
}
