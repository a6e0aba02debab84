package runner

import (
	"os"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// TestMain lets the test binary serve as the re-executed sandbox
// launcher and its start-up probe, as the server binary does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.LauncherArg {
		os.Exit(sandbox.RunLauncher(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// pinned opens dir as a call's working directory, closed with the test.
func pinned(t testing.TB, dir string) *workdir.Dir {
	t.Helper()
	d, err := workdir.Open(dir, []string{"/"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}
