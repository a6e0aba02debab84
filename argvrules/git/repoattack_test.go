package git

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// attackRepo is a scratch tree for the attacks below: root holds the
// canary script, its marker, and a clean repository "proj" (the call's
// working directory) with a repository "proj/sub" inside it.
type attackRepo struct {
	t                                   *testing.T
	gitPath, root, proj, canary, marker string
}

func newAttackRepo(t *testing.T) attackRepo {
	gitPath := realGit(t)
	root := realDir(t)
	a := attackRepo{t: t, gitPath: gitPath, root: root, proj: filepath.Join(root, "proj"),
		canary: filepath.Join(root, "canary.sh"), marker: filepath.Join(root, "marker")}
	write(t, a.canary, "#!/bin/sh\necho \"$0 $*\" >> \""+a.marker+"\"\nexit 0\n")
	os.Chmod(a.canary, 0o755)
	for _, d := range []string{"home", "xdg"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	a.git(root, "init", "-q", "proj")
	a.git(a.proj, "init", "-q", "sub")
	write(t, filepath.Join(a.proj, "sub/f"), "one\n")
	a.git(filepath.Join(a.proj, "sub"), "add", "f")
	write(t, filepath.Join(a.proj, "sub/f"), "two\n")
	return a
}

// git runs the real git in dir as a hardened stage of a call in proj
// would run (ChildConfig with proj as the allowed directory).
func (a attackRepo) git(dir string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, a.gitPath, args...)
	cmd.Dir, cmd.WaitDelay = dir, time.Second
	cmd.Env = append([]string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + filepath.Join(a.root, "home"),
		"XDG_CONFIG_HOME=" + filepath.Join(a.root, "xdg"), "GIT_CONFIG_NOSYSTEM=1", "LANG=C",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"},
		ChildConfig(a.proj, []string{a.proj})...)
	out, _ := cmd.CombinedOutput()
	return string(out)
}

func (a attackRepo) ran() bool {
	_, err := os.Stat(a.marker)
	return err == nil
}

// TestAttackAbsoluteC: a repository configuration inside the working
// directory that names a program (diff.external here, planted the way
// patch or tar would) cannot be reached with an absolute -C either: the
// real git runs the canary for "git -C /ABS/sub diff", and the
// recognizer refuses every spelling of that directory.
func TestAttackAbsoluteC(t *testing.T) {
	a := newAttackRepo(t)
	sub := filepath.Join(a.proj, "sub")
	cfg := filepath.Join(sub, ".git/config")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	write(t, cfg, string(data)+"[diff]\n\texternal = "+a.canary+"\n")
	d := pinned(t, a.proj)
	spellings := [][]string{
		{"git", "-C", "sub", "diff"},
		{"git", "-C", sub, "diff"},
		{"git", "-C", "/", "-C", strings.TrimPrefix(sub, "/"), "diff"},
		{"git", "-C", filepath.Join(a.proj, "nope", ".."), "-C", "sub", "diff"},
		{"git", "--git-dir=" + filepath.Join(sub, ".git"), "--work-tree=" + sub, "diff"},
	}
	for _, argv := range spellings {
		got := check(argv, globals{dir: d, trees: []string{a.proj}}, nil)
		if got == nil || got.Code != ruleRepoConfig.Code {
			t.Errorf("escape: %q allowed (or refused otherwise: %v) although the repository sets diff.external", argv, got)
		}
	}
	os.MkdirAll(filepath.Join(a.proj, "nope"), 0o755)
	a.git(a.proj, "-C", sub, "diff")
	if !a.ran() {
		t.Fatalf("oracle blind: git -C %s diff did not run the canary", sub)
	}
}

// TestAttackRepositoryAlias: a repository alias for a subcommand git does
// not have as a builtin runs a shell command of the repository's choosing
// (git.c run_argv: the git-NAME program is missing, so handle_alias runs
// alias.NAME). The real git runs the canary; the recognizer refuses,
// naming the key, for send-email and for an operator-admitted name.
func TestAttackRepositoryAlias(t *testing.T) {
	a := newAttackRepo(t)
	cfg := filepath.Join(a.proj, ".git/config")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	write(t, cfg, string(data)+"[alias]\n\tfrobnicate = \"!"+a.canary+" alias\"\n\tsend-email = \"!"+a.canary+" send-email\"\n")
	d := pinned(t, a.proj)
	for _, argv := range [][]string{{"git", "frobnicate"}, {"git", "send-email", "x"}} {
		got := check(argv, globals{dir: d, trees: []string{a.proj}}, []string{"frobnicate"})
		if got == nil || got.Code != ruleRepoConfig.Code || !strings.Contains(got.Message, "alias."+argv[1]) {
			t.Errorf("escape: %q: want %s naming alias.%s, got %v", argv, ruleRepoConfig.Code, argv[1], got)
		}
	}
	a.git(a.proj, "frobnicate")
	if !a.ran() {
		t.Fatal("oracle blind: git frobnicate did not run the repository alias")
	}
}
