package argvrules

import (
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
)

// pinCtx is a Context on dir, pinned for the test's lifetime.
func pinCtx(t testing.TB, dir string) Context {
	t.Helper()
	return Context{Dir: testcases.Pin(t, dir), Refused: testRefused, Readable: testReadable}
}

// testReadable stands in for the stage's sandbox (package policy passes
// its Landlock read trees): the system trees, never a temporary
// directory, so a file another test directory holds counts as hidden.
func testReadable(p string) bool {
	for _, d := range []string{"/usr", "/etc", "/lib", "/lib64", "/opt"} {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
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
