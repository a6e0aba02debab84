package argvrules

import (
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
)

// BenchmarkRecognizers runs the recognizers over every benign corpus row
// of the find, awk, sort and tar families; ns/op is per argv. Sub-benchmarks
// report each family separately and "all" cycles through every row.
func BenchmarkRecognizers(b *testing.B) {
	ctx := scratch(b)
	type row struct {
		argv []string
		rec  Recognizer
		fam  string
	}
	var rows []row
	for _, c := range testcases.Load(b, "benign") {
		for _, st := range stages(c.Argv) {
			if len(st) == 0 {
				continue
			}
			if fam := famName(baseName(st)); fam != "" {
				rows = append(rows, row{st, recOf(fam), fam})
			}
		}
	}
	if len(rows) == 0 {
		b.Skip("no benign rows for these families")
	}
	run := func(b *testing.B, rows []row) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			r := rows[i%len(rows)]
			if rej := r.rec(r.argv, ctx); rej != nil {
				b.Fatalf("benign row rejected: %q: %s", r.argv, rej.Message)
			}
		}
	}
	b.Run("all", func(b *testing.B) { run(b, rows) })
	for _, fam := range []string{"find", "awk", "sort", "tar"} {
		var sub []row
		for _, r := range rows {
			if r.fam == fam {
				sub = append(sub, r)
			}
		}
		if len(sub) > 0 {
			b.Run(fam, func(b *testing.B) { run(b, sub) })
		}
	}
}
