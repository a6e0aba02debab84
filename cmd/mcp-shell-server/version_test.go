package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionStampedAtBuild runs the README's install command form: a
// version given with -ldflags -X is what --version prints.
func TestVersionStampedAtBuild(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcp-shell-server")
	const stamp = "v9.9.9-test"
	build := exec.Command("go", "build", "-ldflags", "-X github.com/seed-b63acb1b/mcp-shell-server/cli.version="+stamp, "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "mcp-shell-server "+stamp+" ") {
		t.Fatalf("--version: %v %q, want the stamp %s", err, out, stamp)
	}
}
