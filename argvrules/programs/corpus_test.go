package programs

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
)

// corpusCase is the subset of a ../shared/cases row these tests read.
type corpusCase struct {
	ID     string   `json:"id"`
	Argv   []string `json:"argv"`
	Expect string   `json:"expect"`
	Vector string   `json:"vector"`
}

// casesDir walks up from the test's working directory to the directory
// holding go.mod and returns ../shared/cases next to it, or skips.
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
	return argvrules.Context{Dir: dir}
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
