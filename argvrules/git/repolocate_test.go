package git

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// fakeRepo makes the files git recognises as a git directory at dir
// (setup.c is_git_directory) with config text cfg.
func fakeRepo(t *testing.T, dir, cfg string) {
	t.Helper()
	for _, d := range []string{"objects", "refs"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(dir, "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "config"), cfg)
}

func write(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// realDir is t.TempDir with symlinks resolved (macOS /var, /private/var).
func realDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// expectCode checks one verdict: "" is allowed.
func expectCode(t *testing.T, what string, got *refusal.Rejection, code string) {
	t.Helper()
	switch {
	case code == "" && got != nil:
		t.Errorf("%s: want allowed, got %s: %s", what, got.Code, got.Message)
	case code != "" && got == nil:
		t.Errorf("%s: want %s, got allowed", what, code)
	case code != "" && string(got.Code) != code:
		t.Errorf("%s: want %s, got %s: %s", what, code, got.Code, got.Message)
	}
}

const dangerous = "[diff]\n\texternal = sh /x.sh\n"

// TestRepositoryLocation: the configuration checked is the one of the
// repository git uses after every -C (each relative to the previous, an
// absolute one replacing it), --git-dir, GIT_DIR, a gitdir: file and
// GIT_COMMON_DIR, so an absolute -C cannot point the check at another
// repository than git's.
func TestRepositoryLocation(t *testing.T) {
	root := realDir(t)
	write(t, filepath.Join(root, "clean/.git/HEAD"), "ref: refs/heads/main\n")
	fakeRepo(t, filepath.Join(root, ".git"), "[core]\n")
	fakeRepo(t, filepath.Join(root, "sub/.git"), dangerous)
	fakeRepo(t, filepath.Join(root, "bare.git"), dangerous)
	fakeRepo(t, filepath.Join(root, "main/.git"), "[core]\n")
	fakeRepo(t, filepath.Join(root, "main/.git/worktrees/w"), "")
	os.Remove(filepath.Join(root, "main/.git/worktrees/w/config"))
	write(t, filepath.Join(root, "main/.git/worktrees/w/commondir"), "../..\n")
	write(t, filepath.Join(root, "main/.git/config.worktree"), "")
	write(t, filepath.Join(root, "wt/.git"), "gitdir: ../main/.git/worktrees/w\n")
	write(t, filepath.Join(root, "evilcommon/config"), dangerous)
	write(t, filepath.Join(root, "linked/.git"), "gitdir: ../sub/.git\n")
	if err := os.MkdirAll(filepath.Join(root, "plain/deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	d := pinned(t, root)
	abs := func(rel string) string { return filepath.Join(root, rel) }
	for _, tt := range []struct {
		argv []string
		env  map[string]string
		code string
	}{
		{[]string{"git", "diff"}, nil, ""},
		{[]string{"git", "-C", "sub", "diff"}, nil, "git.repository-config"},
		{[]string{"git", "-C", abs("sub"), "diff"}, nil, "git.repository-config"},
		{[]string{"git", "-C", abs("plain"), "-C", "../sub", "diff"}, nil, "git.repository-config"},
		{[]string{"git", "-C", "plain", "-C", abs("sub"), "diff"}, nil, "git.repository-config"},
		{[]string{"git", "-C", "sub", "-C", "..", "diff"}, nil, ""},
		{[]string{"git", "-C", "sub", "-C", abs("plain/deep"), "diff"}, nil, ""},
		{[]string{"git", "-C", "", "-C", "sub", "diff"}, nil, "git.repository-config"},
		{[]string{"git", "--git-dir=" + abs("bare.git"), "log"}, nil, "git.repository-config"},
		{[]string{"git", "-C", "plain", "--git-dir=../bare.git", "log"}, nil, "git.repository-config"},
		{[]string{"git", "--git-dir", "bare.git", "-C", "plain", "log"}, nil, ""}, // relative to plain: missing
		{[]string{"git", "log"}, map[string]string{"GIT_DIR": abs("bare.git")}, "git.repository-config"},
		{[]string{"git", "--git-dir=.git", "log"}, map[string]string{"GIT_DIR": abs("bare.git")}, ""},
		{[]string{"git", "-C", "linked", "status"}, nil, "git.repository-config"},
		{[]string{"git", "-C", "wt", "status"}, nil, ""},
		{[]string{"git", "-C", "wt", "status"}, map[string]string{"GIT_COMMON_DIR": abs("evilcommon")}, "git.repository-config"},
		{[]string{"git", "-C", "plain/deep", "status"}, nil, ""},
		{[]string{"git", "-C", "missing", "status"}, nil, ""},
	} {
		env := func(n string) (string, bool) { v, ok := tt.env[n]; return v, ok }
		got := check(tt.argv, globals{dir: d, env: env}, nil)
		expectCode(t, strings.Join(tt.argv, " ")+" "+mapString(tt.env), got, tt.code)
	}
}

func mapString(m map[string]string) string {
	var b strings.Builder
	for k, v := range m {
		b.WriteString(k + "=" + v + " ")
	}
	return b.String()
}

// TestRepositoryAbove: a working directory below a repository's top
// inside the allowed directories is judged by that repository's
// configuration (the everyday case); above the trees the stage may read,
// nothing is looked at.
func TestRepositoryAbove(t *testing.T) {
	root := realDir(t)
	fakeRepo(t, filepath.Join(root, "repo/.git"), dangerous)
	fakeRepo(t, filepath.Join(root, "clean/.git"), "[core]\n\tbare = false\n")
	for _, s := range []string{"repo/src/pkg", "clean/src"} {
		if err := os.MkdirAll(filepath.Join(root, s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		dir   string
		trees []string
		code  string
	}{
		{"repo/src/pkg", []string{filepath.Join(root, "repo")}, "git.repository-config"},
		{"repo/src/pkg", []string{root}, "git.repository-config"},
		{"clean/src", []string{filepath.Join(root, "clean")}, ""},
		// The repository is above every tree the stage may read:
		// ChildConfig's ceiling keeps git from using it too.
		{"repo/src/pkg", nil, ""},
		{"repo/src/pkg", []string{filepath.Join(root, "repo/src")}, ""},
	} {
		d := pinned(t, filepath.Join(root, tt.dir))
		got := check([]string{"git", "diff"}, globals{dir: d, trees: tt.trees}, nil)
		expectCode(t, tt.dir+" trees "+strings.Join(tt.trees, ","), got, tt.code)
	}
}

// TestRepositoryOutsideHidden: a repository outside what the stage may
// read is refused before anything there is read, with the same verdict
// whether it exists, is clean or sets a program-valued key.
func TestRepositoryOutsideHidden(t *testing.T) {
	work, outside := realDir(t), realDir(t)
	fakeRepo(t, filepath.Join(outside, "evil/.git"), dangerous)
	fakeRepo(t, filepath.Join(outside, "clean/.git"), "[core]\n")
	write(t, filepath.Join(outside, "file"), "x\n")
	d := pinned(t, work)
	write(t, filepath.Join(work, "gitfile/.git"), "gitdir: "+filepath.Join(outside, "NAME/.git")+"\n")
	if err := os.Symlink(filepath.Join(outside, "NAME"), filepath.Join(work, "link")); err != nil {
		t.Fatal(err)
	}
	forms := [][]string{
		{"git", "--git-dir=" + filepath.Join(outside, "NAME/.git"), "--work-tree=" + filepath.Join(outside, "NAME"), "diff"},
		{"git", "-C", filepath.Join(outside, "NAME"), "diff"},
		{"git", "-C", filepath.Join(outside, "NAME"), "-C", "..", "status"},
		{"git", "--work-tree=" + filepath.Join(outside, "NAME"), "status"},
		{"git", "-C", "link", "status"},
	}
	for _, form := range forms {
		var verdicts []string
		for _, name := range []string{"evil", "clean", "file", "missing"} {
			if err := os.Remove(filepath.Join(work, "link")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(outside, name), filepath.Join(work, "link")); err != nil {
				t.Fatal(err)
			}
			argv := make([]string, len(form))
			for i, a := range form {
				argv[i] = strings.ReplaceAll(a, "NAME", name)
			}
			v := "allowed"
			if rj := check(argv, globals{dir: d}, nil); rj != nil {
				v = string(rj.Code) + ": " + strings.ReplaceAll(rj.Message, name, "NAME")
			}
			verdicts = append(verdicts, v)
		}
		if verdicts[0] != verdicts[1] || verdicts[1] != verdicts[2] || verdicts[2] != verdicts[3] {
			t.Errorf("%q: the verdict depends on the repository outside:\n%s", form, strings.Join(verdicts, "\n"))
		}
		if !strings.HasPrefix(verdicts[0], string(ruleRepoOutside.Code)+":") || strings.Contains(verdicts[0], "diff.external") {
			t.Errorf("%q: want %s naming no key, got %s", form, ruleRepoOutside.Code, verdicts[0])
		}
	}
	// The gitdir: file inside names a repository outside.
	got := check([]string{"git", "-C", "gitfile", "status"}, globals{dir: d}, nil)
	expectCode(t, "gitdir: file naming a repository outside", got, string(ruleRepoOutside.Code))
}

// TestRepositoryAliases: a repository alias of the subcommand invoked,
// in any configuration file of the repository, refuses the call naming
// the key; any repository alias refuses a subcommand that is not a
// builtin (git-send-email when it is missing, an operator-admitted
// name), where git expands aliases.
func TestRepositoryAliases(t *testing.T) {
	for _, tt := range []struct {
		file, cfg string
		argv      []string
		code, key string
	}{
		{"config", "[alias]\n\tsend-email = \"!id > ALIAS_RAN\"\n", []string{"git", "send-email", "x"}, "git.repository-config", "alias.send-email"},
		{"config", "[alias]\n\tSend-Email = -c diff.external=sh diff\n", []string{"git", "send-email", "x"}, "git.repository-config", "alias.send-email"},
		{"config", "[alias]\n\tfrob = -c core.pager=sh log\n", []string{"git", "frob"}, "git.repository-config", "alias.frob"},
		{"config", "[alias]\n\tstatus = !id\n", []string{"git", "status"}, "git.repository-config", "alias.status"},
		{"config.worktree", "[alias]\n\tfrob = !id\n", []string{"git", "frob"}, "git.repository-config", "alias.frob"},
		{"config", "[alias \"frob\"]\n\tcommand = !id\n", []string{"git", "frob"}, "git.repository-config", "alias.frob"},
		{"config", "[alias]\n\tother = !id\n", []string{"git", "send-email", "x"}, "git.repository-config", "alias.other"},
		{"config", "[alias]\n\tother = !id\n", []string{"git", "frob"}, "git.repository-config", "alias.other"},
		{"config", "[alias]\n\tother = !id\n\tst = status\n", []string{"git", "status"}, "", ""},
		{"config", "[alias]\n\tst = status\n", []string{"git", "log"}, "", ""},
		{"config", "[core]\n\tbare = false\n", []string{"git", "frob"}, "", ""},
	} {
		root := realDir(t)
		fakeRepo(t, filepath.Join(root, ".git"), "[core]\n")
		write(t, filepath.Join(root, ".git", tt.file), tt.cfg)
		got := check(tt.argv, globals{dir: pinned(t, root)}, []string{"frob"})
		what := tt.file + " " + strings.ReplaceAll(tt.cfg, "\n", " ") + strings.Join(tt.argv, " ")
		expectCode(t, what, got, tt.code)
		if got != nil && !strings.Contains(got.Message, tt.key) {
			t.Errorf("%s: the refusal does not name %s: %s", what, tt.key, got.Message)
		}
	}
}
