//go:build unix

package git

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// mkfifo makes a FIFO at p and, at cleanup, opens it for writing so that
// a reader the code under test left blocked returns.
func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
}

// hangGuard bounds how long a verdict may take before the test calls it
// a hang: a deadline against blocking forever, not a timing assertion.
const hangGuard = 30 * time.Second

// verdict runs check and fails the test when it does not return.
func verdict(t *testing.T, argv []string, g globals) *refusal.Rejection {
	t.Helper()
	done := make(chan *refusal.Rejection, 1)
	go func() { done <- check(argv, g, nil) }()
	select {
	case r := <-done:
		return r
	case <-time.After(hangGuard):
		t.Fatalf("%q: the verdict blocked (a FIFO was opened for reading)", argv)
		return nil
	}
}

// TestRepositoryFIFOs: a FIFO at each place git reads to find or
// configure the repository gets a prompt refusal, never a reader blocked
// until a writer comes: the .git file (which a "gitdir:" line would
// fill), the git directory's config, config.worktree and commondir, a
// --git-dir value, the config of a gitdir: target, and an include
// (refused by its key before any include is read).
func TestRepositoryFIFOs(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T, root string)
		argv  []string
	}{
		{".git is a FIFO", func(t *testing.T, root string) { mkfifo(t, filepath.Join(root, "d/.git")) },
			[]string{"git", "-C", "d", "status"}},
		{".git is a FIFO, discovered from below", func(t *testing.T, root string) {
			mkfifo(t, filepath.Join(root, ".git"))
			os.MkdirAll(filepath.Join(root, "sub"), 0o755)
		}, []string{"git", "-C", "sub", "status"}},
		{"config is a FIFO", func(t *testing.T, root string) {
			fakeRepo(t, filepath.Join(root, ".git"), "")
			mkfifo(t, filepath.Join(root, ".git/config"))
		}, []string{"git", "status"}},
		{"config.worktree is a FIFO", func(t *testing.T, root string) {
			fakeRepo(t, filepath.Join(root, ".git"), "[core]\n")
			mkfifo(t, filepath.Join(root, ".git/config.worktree"))
		}, []string{"git", "status"}},
		{"commondir is a FIFO", func(t *testing.T, root string) {
			fakeRepo(t, filepath.Join(root, ".git"), "[core]\n")
			mkfifo(t, filepath.Join(root, ".git/commondir"))
		}, []string{"git", "status"}},
		{"--git-dir names a FIFO", func(t *testing.T, root string) { mkfifo(t, filepath.Join(root, "ff")) },
			[]string{"git", "--git-dir=ff", "status"}},
		{"the config of a gitdir: target is a FIFO", func(t *testing.T, root string) {
			fakeRepo(t, filepath.Join(root, "meta"), "")
			mkfifo(t, filepath.Join(root, "meta/config"))
			write(t, filepath.Join(root, "w/.git"), "gitdir: ../meta\n")
		}, []string{"git", "-C", "w", "status"}},
		{"an include names a FIFO", func(t *testing.T, root string) {
			fakeRepo(t, filepath.Join(root, ".git"), "[include]\n\tpath = ../inc\n")
			mkfifo(t, filepath.Join(root, "inc"))
		}, []string{"git", "status"}},
	} {
		t.Run(strings.ReplaceAll(tt.name, " ", "_"), func(t *testing.T) {
			root := realDir(t)
			tt.setup(t, root)
			got := verdict(t, tt.argv, globals{dir: pinned(t, root)})
			if got == nil || got.Code != ruleRepoConfig.Code {
				t.Errorf("%q: want a %s refusal, got %v", tt.argv, ruleRepoConfig.Code, got)
			}
		})
	}
}

// TestAttackFIFORepository: with a FIFO in a repository's place the
// recognizer answers at once, and the real git does not wait on it either
// (read_gitfile_gently rejects a .git that is not a regular file: discovery
// goes on upwards, an explicit --git-dir fails), so refusing loses no
// working command.
func TestAttackFIFORepository(t *testing.T) {
	a := newAttackRepo(t)
	mkfifo(t, filepath.Join(a.proj, "d/.git"))
	mkfifo(t, filepath.Join(a.proj, "ff"))
	d := pinned(t, a.proj)
	for _, argv := range [][]string{{"git", "-C", "d", "status"}, {"git", "--git-dir=ff", "status"}} {
		if got := verdict(t, argv, globals{dir: d, trees: []string{a.proj}}); got == nil {
			t.Errorf("%q: allowed with a FIFO in the repository's place", argv)
		}
		if out := a.git(a.proj, argv[1:]...); a.ran() {
			t.Errorf("%q: the real git ran the canary: %s", argv, out)
		}
	}
}
