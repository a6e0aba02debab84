package argvrules

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// corpusCase is the subset of a shared/cases row these tests need.
type corpusCase struct {
	ID     string   `json:"id"`
	Argv   []string `json:"argv"`
	Expect string   `json:"expect"`
	Area   string   `json:"area"`
	Vector string   `json:"vector"`
}

// casesDir finds ../shared/cases next to the repository root (the
// directory holding go.mod).
func casesDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("go.mod not found above the test directory")
		}
		dir = parent
	}
	cases := filepath.Join(dir, "..", "shared", "cases")
	if _, err := os.Stat(cases); err != nil {
		t.Skipf("shared cases not available: %v", err)
	}
	return cases
}

func loadCorpus(t testing.TB, name string) []corpusCase {
	t.Helper()
	f, err := os.Open(filepath.Join(casesDir(t), name))
	if err != nil {
		t.Skipf("corpus %s: %v", name, err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// stages splits a request argv the way the server does before calling a
// recognizer: a whole "|" element separates stages, and "<", ">", ">>"
// are removed together with their target.
func stages(argv []string) [][]string {
	var out [][]string
	cur := []string{}
	for i := 0; i < len(argv); i++ {
		switch argv[i] {
		case "|":
			out = append(out, cur)
			cur = []string{}
		case "<", ">", ">>":
			i++
		default:
			cur = append(cur, argv[i])
		}
	}
	return append(out, cur)
}

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
		if r := fams[fam](st, Context{Dir: "/w"}); r != nil {
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
