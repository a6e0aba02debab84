package git

import (
	"os/exec"
	"testing"
)

// realGit is the installed git for the tests that run it (oracles,
// child-configuration and safe.directory proofs); they skip in -short
// mode and where git is missing.
func realGit(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the real git")
	}
	p, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	return p
}
