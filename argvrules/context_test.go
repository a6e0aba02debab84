package argvrules

import (
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
)

// pinCtx is a Context on dir, pinned for the test's lifetime.
func pinCtx(t testing.TB, dir string) Context {
	t.Helper()
	return Context{Dir: testcases.Pin(t, dir), Refused: testRefused}
}

// scratch is a Context on a new empty directory.
func scratch(t testing.TB) Context {
	t.Helper()
	return pinCtx(t, t.TempDir())

}

// testRefused stands in for the policy's refusal list (package policy
// imports this one, so tests name a few of its entries).
func testRefused(name string) bool {
	switch name {
	case "sh", "bash", "dash", "python", "python3", "perl", "node", "env", "xargs", "vim":
		return true
	}
	return false
}
