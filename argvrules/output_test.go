package argvrules

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// TestOutputPathsOneCheck: every family's output options go through the
// one containment check, so a symlink inside the working directory that
// leads out is refused for git exactly as for curl (git log
// --output=lnk/x.txt writes outside). The real git run proves the form is
// dangerous.
func TestOutputPathsOneCheck(t *testing.T) {
	work, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(work, "lnk")); err != nil {
		t.Fatal(err)
	}
	ctx := pinCtx(t, work)
	for _, tt := range []struct {
		argv []string
		code string
	}{
		{[]string{"git", "log", "--output=lnk/x.txt"}, "git.output-path"},
		{[]string{"git", "-C", "sub", "diff", "--output", "lnk/x.txt"}, "git.output-path"},
		{[]string{"git", "format-patch", "-o", "lnk/p", "HEAD~1"}, "git.output-path"},
		{[]string{"git", "archive", "-o", "lnk/a.tar", "HEAD"}, "git.output-path"},
		{[]string{"curl", "-o", "lnk/x.txt", "http://127.0.0.1:9/"}, "curl.output-path"},
		{[]string{"wget", "-O", "lnk/x.txt", "http://127.0.0.1:9/"}, "wget.output-path"},
		{[]string{"tar", "--index-file=lnk/x.txt", "-cf", "a.tar", "d"}, "tar.output-path"},
	} {
		r := Check(tt.argv, ctx)
		if r == nil || string(r.Code) != tt.code {
			t.Errorf("%q: got %v, want %s", tt.argv, r, tt.code)
		}
	}
	// git applies -C first and resolves --git-dir, --work-tree and the
	// output after it; commands needing a work tree chdir into it.
	if err := os.Mkdir(filepath.Join(work, "B"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(work, "B", "A")); err != nil {
		t.Fatal(err)
	}
	for _, argv := range [][]string{
		{"git", "--git-dir=.git", "-C", "lnk", "log", "--output=canary"},
		{"git", "--work-tree=A", "-C", "B", "diff-files", "--output=wt_x"},
		{"git", "-C", "B", "--work-tree=A", "diff", "--output=wt_x"},
	} {
		if r := Check(argv, ctx); r == nil || r.Code != "git.output-path" {
			t.Errorf("%q: got %v, want git.output-path", argv, r)
		}
	}
	for _, argv := range [][]string{
		{"git", "log", "--output=x.txt"}, {"curl", "-o", "x.txt", "http://127.0.0.1:9/"},
		{"git", "--git-dir=.git", "log", "--output=out.txt"},
		{"git", "--git-dir=.git", "--work-tree=.", "diff", "--output=d.patch"},
		{"git", "diff", "--output=/dev/null"},
	} {
		if r := Check(argv, ctx); r != nil {
			t.Errorf("%q refused: %s", argv, r.Message)
		}
	}
	git := testenv.Program(t, "git")
	run := func(args ...string) {
		cmd := exec.Command(git, args...)
		cmd.Dir = work
		cmd.Env = []string{"HOME=" + work, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	run("commit", "-q", "--allow-empty", "-m", "c")
	run("log", "--output=lnk/x.txt")
	if _, err := os.Stat(filepath.Join(outside, "x.txt")); err != nil {
		t.Fatalf("the oracle saw no write outside: the dangerous form is not proven (%v)", err)
	}
}

// TestOutputSymlinkEscape checks the os.Root part of the containment: a
// relative path through a symlink leading outside is refused, for files
// and directories alike.
func TestOutputSymlinkEscape(t *testing.T) {
	ctx := pinCtx(t, testDir(t))
	for _, argv := range [][]string{
		a("curl", "-o", "out/x", "http://x/"),
		a("wget", "-P", "out/newdir", "http://x/"),
		a("curl", "--output-dir", "out", "-O", "http://x/f"),
		a("go", "build", "-o", "out/", "."),
	} {
		fam := famName(baseName(argv))
		if r := recOf(fam)(argv, ctx); r == nil || !strings.HasSuffix(string(r.Code), ".output-path") {
			t.Errorf("%q: want output-path refusal, got %v", argv, r)
		}
	}
}
