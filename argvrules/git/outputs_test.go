package git

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// pinned opens dir as the call's working directory.
func pinned(t *testing.T, dir string) *workdir.Dir {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := workdir.Open(real, []string{real})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// TestOutputEverySubcommand: --output is contained on
// every subcommand that accepts diff options, not only the log table's,
// and git bundle create's file is an output path.
func TestOutputEverySubcommand(t *testing.T) {
	d := pinned(t, t.TempDir())
	for _, tt := range []struct {
		argv []string
		code string
	}{
		{[]string{"git", "reflog", "--output=/tmp/elsewhere/x"}, "git.output-path"},
		{[]string{"git", "reflog", "show", "--output", "/tmp/elsewhere/x"}, "git.output-path"},
		{[]string{"git", "stash", "show", "-p", "--output=../x"}, "git.output-path"},
		{[]string{"git", "stash", "list", "--outp=/tmp/x"}, "git.output-path"},
		{[]string{"git", "diff-tree", "-p", "HEAD", "--output=/tmp/x"}, "git.output-path"},
		{[]string{"git", "range-diff", "--ou=/tmp/x", "a...b"}, "git.output-path"},
		{[]string{"git", "-C", "sub", "reflog", "--output=x"}, ""},
		{[]string{"git", "reflog", "--output=reflog.txt"}, ""},
		{[]string{"git", "stash", "show", "--output=/dev/null"}, ""},
		{[]string{"git", "log", "--", "--output=/tmp/x"}, ""},
		{[]string{"git", "bundle", "create", "repo.bundle", "--all"}, ""},
		{[]string{"git", "bundle", "create", "-", "main"}, ""},
		{[]string{"git", "bundle", "verify", "repo.bundle"}, ""},
		{[]string{"git", "bundle", "list-heads", "repo.bundle"}, ""},
		{[]string{"git", "bundle", "create", "/tmp/elsewhere/x.bundle", "--all"}, "git.output-path"},
		{[]string{"git", "bundle", "create", "-q", "../x.bundle", "--all"}, "git.output-path"},
		{[]string{"git", "bundle", "frob"}, "git.unknown-subcommand"},
		{[]string{"git", "archive", "--format=tgz", "-o", "r.tgz", "HEAD"}, ""},
		{[]string{"git", "archive", "-o", "release-1.2.3.tar.gz", "HEAD"}, ""},
		{[]string{"git", "archive", "--format=evil", "HEAD"}, "git.external-program"},
		{[]string{"git", "archive", "-o", "x.evil", "HEAD"}, "git.external-program"},
	} {
		got := check(tt.argv, globals{dir: d}, []string{"stash"})
		switch {
		case tt.code == "" && got != nil:
			t.Errorf("%q: want allow, got %s: %s", tt.argv, got.Code, got.Message)
		case tt.code != "" && (got == nil || string(got.Code) != tt.code):
			t.Errorf("%q: want %s, got %v", tt.argv, tt.code, got)
		}
	}
}

// TestOutputOracle runs the real git on every
// subcommand form that writes a file the argv names or git names itself,
// outside the working directory or through a planted symlink, and counts
// escapes: runs that wrote outside although the recognizer allowed them.
func TestOutputOracle(t *testing.T) {
	t.Parallel()
	gitPath := realGit(t)
	template := oracleSandbox(t, gitPath)
	type variant struct {
		args    []string
		symlink map[string]string
		allow   bool
	}
	variants := []variant{
		{args: []string{"reflog", "--output=@OUT@/r"}},
		{args: []string{"reflog", "show", "--output", "@OUT@/r2"}},
		{args: []string{"stash", "list", "--output=@OUT@/s"}},
		{args: []string{"diff-tree", "-p", "HEAD", "--output=@OUT@/d"}},
		{args: []string{"log", "-1", "--outp=@OUT@/l"}},
		{args: []string{"whatchanged", "--output=@OUT@/w"}},
		{args: []string{"bundle", "create", "@OUT@/b.bundle", "--all"}},
		{args: []string{"bundle", "create", "../outside/b2.bundle", "HEAD"}},
		{args: []string{"format-patch", "-1"}, symlink: map[string]string{"0001-second.patch": "@OUT@/p"}},
		{args: []string{"format-patch", "-1", "-o", "pd"}, symlink: map[string]string{"pd": "@OUT@"}},
		{args: []string{"format-patch", "--numbered-files", "-1"}, symlink: map[string]string{"1": "@OUT@/n"}},
		{args: []string{"reflog", "--output=reflog.txt"}, allow: true},
		{args: []string{"bundle", "create", "repo.bundle", "--all"}, allow: true},
		{args: []string{"format-patch", "-1", "-o", "patches"}, allow: true},
	}
	wrote := 0
	variants = testenv.Sample(variants)
	for _, v := range variants {
		root := t.TempDir()
		if err := os.CopyFS(root, os.DirFS(template)); err != nil {
			t.Fatal(err)
		}
		repo, out := filepath.Join(root, "repo"), filepath.Join(root, "outside")
		os.Mkdir(out, 0o755)
		sub := strings.NewReplacer("@OUT@", out)
		for name, target := range v.symlink {
			os.Symlink(sub.Replace(target), filepath.Join(repo, name))
		}
		argv := []string{"git"}
		for _, a := range v.args {
			argv = append(argv, sub.Replace(a))
		}
		rej := check(argv, globals{dir: pinned(t, repo)}, nil)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, gitPath, argv[1:]...)
		cmd.Dir, cmd.Env, cmd.WaitDelay = repo, append(oracleEnv(root, filepath.Join(root, "marker")), ChildConfig("", nil)...), time.Second
		cmd.Run()
		cancel()
		entries, _ := os.ReadDir(out)
		if v.allow && rej != nil {
			t.Errorf("everyday %q refused: %s", argv, rej.Message)
		}
		if len(entries) > 0 {
			wrote++
			if rej == nil {
				t.Errorf("escape: %q wrote %s outside, but the recognizer allowed it", argv, entries[0].Name())
			}
		}
	}
	testenv.Saw(t, "git outputs", len(variants), wrote, 6)
}
