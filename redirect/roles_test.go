package redirect

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// roleFixture is a working directory holding a bare repository made by
// hand (HEAD, objects/, refs/), a separate git directory, a linked
// worktree's private git directory (HEAD, commondir), ordinary
// directories, and a symlink to the bare repository.
func roleFixture(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p, content string) {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if content != "" {
			os.WriteFile(full, []byte(content), 0o644)
		}
	}
	mk("evil/HEAD", "ref: refs/heads/main\n")
	mk("evil/objects/info/.keep", "x")
	mk("evil/refs/heads/.keep", "x")
	mk("meta/HEAD", "ref: refs/heads/main\n")
	mk("meta/objects/.keep", "x")
	mk("meta/refs/.keep", "x")
	mk("wtgit/HEAD", "ref: refs/heads/w\n")
	mk("wtgit/commondir", "../meta\n")
	mk("plain/readme", "x")
	mk(".kube/.keep", "x")
	mk("evil/hooks/.keep", "x")
	mk(".config/git/.keep", "x")
	mk(".cargo/.keep", "x")
	mk(".ssh/.keep", "x")
	mk("sub/.keep", "x")
	for _, d := range []string{".hg", "sub/.hg", ".svn", ".subversion", ".fossil-settings", ".bzr/branch", ".bazaar/plugins"} {
		mk(d+"/.keep", "x")
	}
	os.Symlink("evil", filepath.Join(dir, "alias"))
	return dir
}

// TestRolesByContentAndPath (issue 12, classes 5 and 11): output targets
// inside a git directory recognised by its content, and configuration files
// by their role, are refused for ">" (Probe, OpenOutput) and for every
// family's output option (ProbeWrite); ordinary files are not.
func TestRolesByContentAndPath(t *testing.T) {
	dir := roleFixture(t)
	d := pin(t, dir)
	for _, tt := range []struct {
		target string
		code   string
	}{
		{"evil/config", string(CodeGit)},
		{"evil/hooks/post-update", string(CodeGit)},
		{"alias/config", string(CodeGit)},
		{"meta/config", string(CodeGit)},
		{"wtgit/config.worktree", string(CodeGit)},
		{".gitconfig", string(CodeConfigFile)},
		{"sub/.gitconfig", string(CodeConfigFile)},
		{".GITCONFIG", string(CodeConfigFile)},
		{".kube/config", string(CodeConfigFile)},
		{".curlrc", string(CodeConfigFile)},
		{".wgetrc", string(CodeConfigFile)},
		{".npmrc", string(CodeConfigFile)},
		{".config/git/config", string(CodeConfigFile)},
		{".cargo/config.toml", string(CodeConfigFile)},
		{".ssh/authorized_keys", string(CodeConfigFile)},
		{".hg/hgrc", string(CodeConfigFile)},
		{"sub/.hg/hgrc", string(CodeConfigFile)},
		{".hg/hgrc-not-shared", string(CodeConfigFile)},
		{".hg/sharedpath", string(CodeConfigFile)},
		{"Mercurial.ini", string(CodeConfigFile)},
		{".svn/wc.db", string(CodeConfigFile)},
		{".subversion/config", string(CodeConfigFile)},
		{".fslckout", string(CodeConfigFile)},
		{"_FOSSIL_", string(CodeConfigFile)},
		{".fossil", string(CodeConfigFile)},
		{".fossil-settings/gmerge-command", string(CodeConfigFile)},
		{".bzr/branch/branch.conf", string(CodeConfigFile)},
		{".bazaar/plugins/x.py", string(CodeConfigFile)},
		{".hgignore", ""},
		{"x.hg", ""},
		{"plain/config", ""},
		{"plain/HEAD", ""},
		{"config", ""},
		{".config", ""},
		{"notes.txt", ""},
	} {
		if tt.code == "" {
			defer os.Remove(filepath.Join(dir, tt.target))
		}
		for _, probe := range []struct {
			name string
			f    func() error
		}{
			{"Probe", func() error { return Probe(d, tt.target, true) }},
			{"ProbeWrite", func() error { return ProbeWrite(d, tt.target, File) }},
			{"OpenOutput", func() error {
				f, err := OpenOutput(d, tt.target, false)
				if err == nil {
					f.Close()
				}
				return err
			}},
		} {
			err := probe.f()
			got := string(code(err))
			if tt.code == "" && err != nil && got != string(CodeOutput) {
				t.Errorf("%s(%q): %v", probe.name, tt.target, err)
			}
			if tt.code != "" && got != tt.code {
				t.Errorf("%s(%q): got %v, want %s", probe.name, tt.target, err, tt.code)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "evil", "config")); err == nil {
		t.Error("a refused open left evil/config behind")
	}
	// ProbeWrite of a path whose directories do not exist yet still sees
	// the role of the whole path (curl --create-dirs -o .cargo/config.toml).
	for _, p := range []string{"new/.cargo/config.toml", "x/.kube/config", "y/.gitconfig"} {
		if err := ProbeWrite(d, p, File); code(err) != CodeConfigFile {
			t.Errorf("ProbeWrite(%q): %v", p, err)
		}
	}
}

// TestGlobalConfigRoleOracle (class 11): with HOME delegated and pointing
// at the working directory, a .gitconfig written there makes the real git
// run diff.external; the redirect that would write it is refused.
func TestGlobalConfigRoleOracle(t *testing.T) {
	gitPath, err := exec.LookPath("git")
	if err != nil || testing.Short() {
		t.Skip("needs git")
	}
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	marker := filepath.Join(dir, "marker")
	canary := filepath.Join(dir, "canary.sh")
	os.WriteFile(canary, []byte("#!/bin/sh\n: > '"+marker+"'\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "a"), []byte("a\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b"), []byte("b\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".gitconfig"), []byte("[diff]\n\texternal = "+canary+"\n"), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, gitPath, "diff", "--no-index", "a", "b")
	cmd.Dir, cmd.Env = dir, []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1"}
	cmd.Run()
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("git did not read $HOME/.gitconfig: the oracle proves nothing")
	}
	os.Remove(filepath.Join(dir, ".gitconfig"))
	if err := Probe(pin(t, dir), ".gitconfig", true); code(err) != CodeConfigFile {
		t.Errorf("> .gitconfig: %v, want %s", err, CodeConfigFile)
	}
}

// TestHgRepositoryConfigOracle: a .hg/hgrc written into a repository
// makes the real hg load Python code on the next hg status; the redirect
// that would write it is refused.
func TestHgRepositoryConfigOracle(t *testing.T) {
	hg, err := exec.LookPath("hg")
	if err != nil || testing.Short() {
		t.Skip("needs hg")
	}
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "HGRCPATH="}
	run := func(args ...string) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, hg, args...)
		cmd.Dir, cmd.Env = dir, env
		cmd.Run()
	}
	run("init")
	marker := filepath.Join(dir, "marker")
	os.WriteFile(filepath.Join(dir, "ext.py"), []byte("open('"+marker+"', 'w').write('python ran')\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".hg", "hgrc"), []byte("[extensions]\nx = "+filepath.Join(dir, "ext.py")+"\n"), 0o644)
	run("status")
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("hg did not load the extension .hg/hgrc names: the oracle proves nothing")
	}
	d := pin(t, dir)
	for _, target := range []string{".hg/hgrc", ".hg/hgrc-not-shared"} {
		if err := Probe(d, target, true); code(err) != CodeConfigFile {
			t.Errorf("> %s: %v, want %s", target, err, CodeConfigFile)
		}
	}
}

// pin opens dir as a call's working directory, closed with the test.
var pin = testcases.Pin

func code(err error) refusal.Code {
	if err == nil {
		return ""
	}
	re := refusal.As(err)
	if re == nil {
		return refusal.Code("untyped: " + err.Error())
	}
	return re.Code
}
