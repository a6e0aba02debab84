package argvrules

import (
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
)

// pinCtx is a Context on dir, pinned for the test's lifetime.
func pinCtx(t testing.TB, dir string) Context {
	t.Helper()
	return Context{Dir: testcases.Pin(t, dir)}
}

// scratch is a Context on a new empty directory.
func scratch(t testing.TB) Context {
	t.Helper()
	return pinCtx(t, t.TempDir())
}
