package git

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
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

// TestOutputEverySubcommand (issue 12, class 6): --output is contained on
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

// TestInitAdoptsConfig (issue 12, class 5): git init keeps a config file
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

// TestRepositoryConfigOracle (issue 12, class 5): for each program-valued
// key ChildConfig cannot pin, a repository configuration naming the canary
// makes the real git run it even under ChildConfig, and the recognizer
// refuses the command; the same repository without the key is allowed.
func TestRepositoryConfigOracle(t *testing.T) {
	gitPath := realGit(t)
	type scenario struct {
		name   string
		config [][2]string
		attrs  string
		args   []string
	}
	scenarios := []scenario{
		{"remote uploadpack (bare repo, the red team's chain)", [][2]string{{"remote.origin.url", "ROOTDIR/remote.git"}, {"remote.origin.uploadpack", "CANARY"}},
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

// TestOutputOracle (issue 12, classes 4 and 6) runs the real git on every
// subcommand form that writes a file the argv names or git names itself,
// outside the working directory or through a planted symlink, and counts
// escapes: runs that wrote outside although the recognizer allowed them.
func TestOutputOracle(t *testing.T) {
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
