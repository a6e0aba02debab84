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
)

// TestInitAdoptsConfig: git init keeps a config file
// already in the directory it makes a git directory, so the request could
// write the configuration first and create the repository second.
func TestInitAdoptsConfig(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"evil/config", "meta/config", "config", "ok/readme"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte("[core]\n"), 0o644)
	}
	d := pinned(t, dir)
	for _, tt := range []struct {
		argv []string
		code string
	}{
		{[]string{"git", "init", "--bare", "evil"}, "git.init-adopts-config"},
		{[]string{"git", "init", "--bare"}, "git.init-adopts-config"},
		{[]string{"git", "--bare", "init"}, "git.init-adopts-config"},
		{[]string{"git", "init", "--separate-git-dir=meta", "w"}, "git.init-adopts-config"},
		{[]string{"git", "--git-dir=evil", "init"}, "git.init-adopts-config"},
		{[]string{"git", "clone", "--separate-git-dir", "meta", "../r", "w"}, "git.init-adopts-config"},
		{[]string{"git", "-C", "evil", "init", "--bare", "."}, "git.init-adopts-config"},
		{[]string{"git", "init"}, ""},
		{[]string{"git", "init", "--bare", "fresh.git"}, ""},
		{[]string{"git", "init", "--bare", "ok"}, ""},
		{[]string{"git", "init", "evil"}, ""},
	} {
		got := check(tt.argv, globals{dir: d}, nil)
		switch {
		case tt.code == "" && got != nil:
			t.Errorf("%q: want allow, got %s: %s", tt.argv, got.Code, got.Message)
		case tt.code != "" && (got == nil || string(got.Code) != tt.code):
			t.Errorf("%q: want %s, got %v", tt.argv, tt.code, got)
		}
	}
}

// TestRepositoryConfigOracle: for each program-valued
// key ChildConfig cannot pin, a repository configuration naming the canary
// makes the real git run it even under ChildConfig, and the recognizer
// refuses the command; the same repository without the key is allowed.
func TestRepositoryConfigOracle(t *testing.T) {
	t.Parallel()
	gitPath := realGit(t)
	type scenario struct {
		name   string
		config [][2]string
		attrs  string
		args   []string
	}
	scenarios := []scenario{
		{"remote uploadpack (bare repo)", [][2]string{{"remote.origin.url", "ROOTDIR/remote.git"}, {"remote.origin.uploadpack", "CANARY"}},
			"", []string{"fetch", "origin"}},
		{"remote receivepack", [][2]string{{"remote.up.url", "ROOTDIR/remote.git"}, {"remote.up.receivepack", "CANARY"}},
			"", []string{"push", "up", "HEAD:refs/heads/x"}},
		{"diff.external", [][2]string{{"diff.external", "CANARY"}}, "", []string{"diff", "HEAD~1"}},
		{"diff driver textconv", [][2]string{{"diff.t.textconv", "CANARY"}}, "* diff=t\n", []string{"log", "-p", "-1"}},
		{"filter driver", [][2]string{{"filter.f.clean", "CANARY"}}, "* filter=f\n", []string{"add", "-A"}},
		{"merge driver", [][2]string{{"merge.m.driver", "CANARY %O %A %B"}}, "* merge=m\n", []string{"merge", "--no-edit", "side"}},
		{"include.path", [][2]string{{"include.path", "ROOTDIR/inc.conf"}}, "", []string{"status"}},
	}
	template := oracleSandbox(t, gitPath)
	caught := 0
	scenarios = testenv.Sample(scenarios)
	for _, sc := range scenarios {
		root := t.TempDir()
		if err := os.CopyFS(root, os.DirFS(template)); err != nil {
			t.Fatal(err)
		}
		os.Chmod(filepath.Join(root, "canary.sh"), 0o755)
		canary, marker := filepath.Join(root, "canary.sh"), filepath.Join(root, "marker")
		repo := filepath.Join(root, "repo")
		sub := strings.NewReplacer("CANARY", canary, "ROOTDIR", root)
		env := append(oracleEnv(root, marker), ChildConfig("", nil)...)
		git := func(args ...string) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, gitPath, args...)
			cmd.Dir, cmd.Env, cmd.WaitDelay = repo, env, time.Second
			cmd.Run()
		}
		os.WriteFile(filepath.Join(root, "inc.conf"), []byte("[core]\n\tfsmonitor = "+canary+"\n[diff]\n\texternal = "+canary+"\n"), 0o644)
		git("branch", "side")
		d := pinned(t, repo)
		if got := check(append([]string{"git"}, sc.args...), globals{dir: d}, nil); got != nil {
			t.Errorf("%s: refused before the configuration was written: %v", sc.name, got)
		}
		for _, kv := range sc.config {
			git("config", kv[0], sub.Replace(kv[1]))
		}
		if sc.attrs != "" {
			os.WriteFile(filepath.Join(repo, ".gitattributes"), []byte(sc.attrs), 0o644)
			os.WriteFile(filepath.Join(repo, "new.txt"), []byte("new\n"), 0o644)
		}
		args := make([]string, len(sc.args))
		for i, a := range sc.args {
			args[i] = sub.Replace(a)
		}
		got := check(append([]string{"git"}, args...), globals{dir: d}, nil)
		git(args...)
		_, err := os.Stat(marker)
		ran := err == nil
		if ran {
			caught++
		}
		if ran && got == nil {
			t.Errorf("escape: %s: git %q ran the canary under ChildConfig and the recognizer allowed it", sc.name, args)
		}
		if got != nil && got.Code != ruleRepoConfig.Code {
			t.Errorf("%s: refused with %s, want %s", sc.name, got.Code, ruleRepoConfig.Code)
		}
	}
	testenv.Saw(t, "git repository configuration", len(scenarios), caught, 4)
}

// TestRepositoryConfigParse: the scanner reads git's syntax variants and
// lets git-lfs filters through.
func TestRepositoryConfigParse(t *testing.T) {
	for _, tt := range []struct {
		text string
		key  string
	}{
		{"[remote \"origin\"]\n\turl = x\n\tuploadpack = touch /tmp/p\n", "remote.origin.uploadpack"},
		{"[Remote \"o\"]\n\tUploadPack=x\n", "remote.o.uploadpack"},
		{"[remote.o]\n\treceivepack = x\n", "remote.o.receivepack"},
		{"[diff]\n\texternal = x\n", "diff.external"},
		{"[diff \"x\"] textconv = cat\n", "diff.x.textconv"},
		{"[submodule \"s\"]\n\tupdate = !sh -c id\n", "submodule.s.update"},
		{"[includeIf \"gitdir:/x/\"]\n\tpath = x.conf\n", "includeif.gitdir:/x/.path"},
		{"[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n", ""},
		{"[core]\n\tbare = false\n[remote \"origin\"]\n\turl = https://x\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n", ""},
		{"[submodule \"s\"]\n\tupdate = rebase\n", ""},
	} {
		key, ok := programKey([]byte(tt.text))
		if key != tt.key || ok != (tt.key != "") {
			t.Errorf("%q: got %q %v, want %q", tt.text, key, ok, tt.key)
		}
	}
}
