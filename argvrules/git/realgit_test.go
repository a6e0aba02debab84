package git

import (
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// realGit is the installed git for the tests that run it (oracles,
// child-configuration and safe.directory proofs); they skip in -short
// mode and where git is missing (see testenv.Program).
func realGit(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the real git")
	}
	return testenv.Program(t, "git")
}
