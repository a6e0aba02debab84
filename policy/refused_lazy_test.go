package policy

import "testing"

// TestRefusedTablesBuild builds the refused-name tables, which are built
// on first use: a name listed twice panics here.
func TestRefusedTablesBuild(t *testing.T) {
	win, only := windowsNames()
	if len(refused()) == 0 || len(win) == 0 || len(only) == 0 || len(shellBuiltins()) == 0 {
		t.Fatalf("empty table: refused %d, windows %d, windows-only %d, builtins %d", len(refused()), len(win), len(only), len(shellBuiltins()))
	}
}
