package argvrules

import "testing"

// TestEveryTableLoads indexes every getopt table, which newTable defers
// to first use: a duplicate short letter panics here rather than on the
// first command line of a program no other test reads.
func TestEveryTableLoads(t *testing.T) {
	if len(tables) < 10 {
		t.Fatalf("only %d tables registered", len(tables))
	}
	for _, tb := range tables {
		if len(tb.rows()) == 0 {
			t.Errorf("%s: no rows", tb.Program)
		}
	}
}
