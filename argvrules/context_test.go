package argvrules

import (
	"os"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// scratchCtx is a Context on an empty directory shared by the package's
// tests (made and removed by TestMain).
var scratchCtx Context

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "argvrules-test-")
	if err != nil {
		panic(err)
	}
	d, err := workdir.Open(dir, []string{"/"})
	if err != nil {
		panic(err)
	}
	scratchCtx = Context{Dir: d}
	code := m.Run()
	d.Close()
	os.RemoveAll(dir)
	os.Exit(code)
}

// pinCtx is a Context on dir, pinned for the test's lifetime.
func pinCtx(t testing.TB, dir string) Context {
	t.Helper()
	d, err := workdir.Open(dir, []string{"/"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return Context{Dir: d, Refused: testRefused}
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
