//go:build darwin || linux

package runner

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/proctest"
)

// TestSwappedProgramDoesNotRun: the runner executes the file the plan
// resolved, not the name again. A symlink on the way swapped after the
// plan was made leaves what runs unchanged; the resolved file itself
// replaced makes the call a launch error that starts nothing.
func TestSwappedProgramDoesNotRun(t *testing.T) {
	bin := t.TempDir()
	real := filepath.Join(bin, "real")
	copyFile(t, proctest.Helper(t), real)
	// The program the swapped link would lead to: it would leave a canary.
	canary := filepath.Join(t.TempDir(), "canary")
	evil := filepath.Join(bin, "evil")
	if err := os.WriteFile(evil, []byte("#!/bin/sh\n: > "+canary+"\necho evil\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(bin, "tool")
	if err := os.Symlink("real", link); err != nil {
		t.Fatal(err)
	}
	swapped := newSpec(t, []string{link, os.DevNull, "say", "real"}).build(t)
	replaced := newSpec(t, []string{link, os.DevNull, "say", "real"}).build(t)
	if got := swapped.Plan.Stages[0].Program.ExecPath(); got != real {
		t.Fatalf("the plan executes %s, want the resolved %s", got, real)
	}

	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("evil", link); err != nil {
		t.Fatal(err)
	}
	r, err := Run(t.Context(), swapped)
	if err != nil {
		t.Fatalf("after the link was swapped: %v", err)
	}
	if got := strings.TrimSpace(string(r.Stdout)); got != "real" {
		t.Errorf("after the link was swapped the stage printed %q, want the resolved program's %q", got, "real")
	}

	// The resolved file replaced by another (a new inode at the same path).
	if err := os.Remove(real); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("evil", real); err != nil {
		t.Fatal(err)
	}
	r, err = Run(t.Context(), replaced)
	var le *LaunchError
	if !errors.As(err, &le) || !errors.Is(err, childenv.ErrChanged) {
		t.Errorf("after the program was replaced: %v, want a *LaunchError wrapping childenv.ErrChanged", err)
	}
	if r.Outcome != ProcessError || len(r.Stdout) != 0 {
		t.Errorf("after the program was replaced: outcome %q, stdout %q; want process_error and nothing run", r.Outcome, r.Stdout)
	}
	if _, err := os.Stat(canary); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the swapped-in program ran (canary: %v)", err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}
