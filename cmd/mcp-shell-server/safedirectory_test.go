package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// TestGitInRepositoryOwnedByAnotherUID: a repository in the allowed
// directory that another uid owns (a host bind mount in a container) works
// for git through the server, which passes its allowed directories down to
// git's safe.directory; the same git run by hand without that
// configuration refuses it, so the test sees the failure it prevents.
func TestGitInRepositoryOwnedByAnotherUID(t *testing.T) {
	gitPath := testenv.Program(t, "git")
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the repository to another uid")
	}
	e := start(t, "", "ALLOW_COMMANDS=git")
	repo := filepath.Join(e.dir, "proj")
	if out, err := exec.Command(gitPath, "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if err := os.Mkdir(filepath.Join(repo, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(repo, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 4242, 4242)
	})
	if err != nil {
		t.Fatal(err)
	}
	plain := exec.Command(gitPath, "status")
	plain.Dir, plain.Env = filepath.Join(repo, "sub"), []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "GIT_CONFIG_NOSYSTEM=1"}
	if out, err := plain.CombinedOutput(); err == nil || !strings.Contains(string(out), "dubious ownership") {
		t.Fatalf("git without the server's configuration: err %v\n%s", err, out)
	}
	r := e.call(map[string]any{"command": []string{"git", "status"}, "directory": filepath.Join(repo, "sub")})
	if r.IsError || !strings.Contains(text(r), "On branch") {
		t.Fatalf("git status through the server: %v %q", r.IsError, text(r))
	}
}
