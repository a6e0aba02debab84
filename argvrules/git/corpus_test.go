package git

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// corpusCase is a shared/cases row.
type corpusCase = testcases.Case

func loadCases(t testing.TB, name string) []corpusCase {
	return testcases.Load(t, strings.TrimSuffix(name, ".jsonl"))
}

// gitStages returns the stages of argv (redirections removed) whose
// argv[0] basename is git.
func gitStages(argv []string) [][]string {
	var out [][]string
	for _, st := range testcases.RecognizerStages(argv) {
		if len(st) > 0 && isGitName(st[0]) {
			out = append(out, st)
		}
	}
	return out
}

func isGitName(s string) bool {
	b := filepath.Base(s)
	return b == "git" || strings.HasPrefix(b, "git-")
}

// corpusVerdict runs every git stage and returns the first rejection.
func corpusVerdict(argv []string) (stages int, rej *refusal.Rejection) {
	for _, st := range gitStages(argv) {
		stages++
		if r := Check(st, testDir, nil); r != nil && rej == nil {
			rej = r
		}
	}
	return stages, rej
}

func TestCorpusTumf(t *testing.T) {
	n := 0
	for _, c := range loadCases(t, "tumf_cases.jsonl") {
		stages, rej := corpusVerdict(c.Argv)
		if stages == 0 {
			continue
		}
		switch {
		case c.Expect == "allow" && rej != nil:
			t.Errorf("%s %q: want allow, got %s", c.ID, c.Argv, rej.Message)
		case c.Expect == "reject" && c.Area == "git" && rej == nil:
			t.Errorf("%s %q: want reject, got allow", c.ID, c.Argv)
		}
		n++
	}
	t.Logf("tumf_cases: %d rows with a git stage", n)
}

func TestCorpusGTFOBins(t *testing.T) {
	n := 0
	for _, c := range loadCases(t, "gtfobins.jsonl") {
		if c.Program != "git" {
			continue
		}
		n++
		_, rej := corpusVerdict(c.Argv) // every row: must not panic
		if c.Expect == "reject" && rej == nil {
			t.Errorf("%s %q (vector %s): want reject, got allow", c.ID, c.Argv, c.Vector)
		}
	}
	t.Logf("gtfobins: %d git rows", n)
}

func TestCorpusBugreports(t *testing.T) {
	n := 0
	for _, c := range loadCases(t, "bugreports.jsonl") {
		stages, rej := corpusVerdict(c.Argv)
		if stages == 0 {
			continue
		}
		n++
		// Rows with a git stage describe runtime behaviour of a command
		// that must be started (env-scrubbed, redacted, ...).
		if c.Expect != "reject" && rej != nil {
			t.Errorf("%s %q: want the command started, got %s", c.ID, c.Argv, rej.Message)
		}
		if c.Expect == "reject" && rej == nil {
			t.Errorf("%s %q: want reject", c.ID, c.Argv)
		}
	}
	t.Logf("bugreports: %d git rows", n)
}

func TestCorpusBenign(t *testing.T) {
	n := 0
	for _, c := range loadCases(t, "benign.jsonl") {
		stages, rej := corpusVerdict(c.Argv)
		if stages == 0 {
			continue
		}
		n++
		if rej != nil {
			t.Errorf("%s %q: benign row refused: %s", c.ID, c.Argv, rej.Message)
		}
	}
	if n == 0 {
		t.Fatal("benign.jsonl has no git rows")
	}
	t.Logf("benign: %d git rows", n)
}

// benignGitRows returns the argv of every benign git stage (for the
// benchmark and the fuzz seeds).
func benignGitRows(t testing.TB) [][]string {
	var out [][]string
	for _, c := range loadCases(t, "benign.jsonl") {
		out = append(out, gitStages(c.Argv)...)
	}
	return out
}

func BenchmarkCheckBenign(b *testing.B) {
	rows := benignGitRows(b)
	if len(rows) == 0 {
		b.Skip("no benign git rows")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if Check(rows[i%len(rows)], testDir, nil) != nil {
			b.Fatal("benign row refused")
		}
	}
}
