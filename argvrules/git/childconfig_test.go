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

// TestChildConfigNeutralises runs the installed git against a repository
// whose own .git/config (repository content) names the canary as a program,
// first without and then with ChildConfig. Each scenario must run the
// canary without ChildConfig (so the scenario is real) and must not run it
// with ChildConfig. Network stays on loopback port 1 (connection refused).
func TestChildConfigNeutralises(t *testing.T) {
	gitPath := realGit(t)
	type scenario struct {
		name   string
		config [][2]string // written into .git/config
		hook   string      // hook name to install as the canary
		args   []string
	}
	scenarios := []scenario{
		{name: "fsmonitor", config: [][2]string{{"core.fsmonitor", "CANARY"}}, args: []string{"status"}},
		{name: "pre-commit hook", hook: "pre-commit", args: []string{"commit", "--allow-empty", "-m", "x"}},
		{name: "hooksPath", config: [][2]string{{"core.hooksPath", "ROOTDIR/hooks"}},
			args: []string{"commit", "--allow-empty", "-m", "x"}},
		{name: "editor", config: [][2]string{{"core.editor", "CANARY"}},
			args: []string{"commit", "--allow-empty", "--amend"}},
		{name: "sequence editor", config: [][2]string{{"sequence.editor", "CANARY"}},
			args: []string{"rebase", "-i", "HEAD~1"}},
		{name: "sshCommand", config: [][2]string{{"core.sshCommand", "CANARY"}},
			args: []string{"ls-remote", "ssh://127.0.0.1:1/x.git"}},
		{name: "gitProxy", config: [][2]string{{"core.gitProxy", "CANARY"}},
			args: []string{"ls-remote", "git://127.0.0.1:1/x.git"}},
		{name: "gpg.program", config: [][2]string{{"gpg.program", "CANARY"}, {"commit.gpgSign", "true"}},
			args: []string{"commit", "--allow-empty", "-m", "x"}},
		{name: "ssh defaultKeyCommand", config: [][2]string{{"gpg.format", "ssh"},
			{"gpg.ssh.defaultKeyCommand", "CANARY"}, {"commit.gpgSign", "true"}},
			args: []string{"commit", "--allow-empty", "-m", "x"}},
		{name: "ext protocol", config: [][2]string{{"protocol.ext.allow", "always"}},
			args: []string{"ls-remote", "ext::CANARY"}},
		{name: "tar.tgz.command", config: [][2]string{{"tar.tgz.command", "CANARY"}},
			args: []string{"archive", "--format=tgz", "-o", "ROOTDIR/x.tgz", "HEAD"}},
		{name: "tar.tar.gz.command via -o", config: [][2]string{{"tar.tar.gz.command", "CANARY"}},
			args: []string{"archive", "-o", "ROOTDIR/x.tar.gz", "HEAD"}},
	}
	template := oracleSandbox(t, gitPath)
	for _, sc := range scenarios {
		ran := func(hardened bool) bool {
			root := t.TempDir()
			if err := os.CopyFS(root, os.DirFS(template)); err != nil {
				t.Fatal(err)
			}
			canary := filepath.Join(root, "canary.sh")
			for _, p := range []string{"canary.sh", "hooks/post-checkout"} {
				os.Chmod(filepath.Join(root, p), 0o755)
			}
			repo := filepath.Join(root, "repo")
			marker := filepath.Join(root, "marker")
			env := oracleEnv(root, marker)
			env = append(env[:0:0], env...)
			for i, e := range env {
				if strings.HasPrefix(e, "GIT_EDITOR=") || strings.HasPrefix(e, "GIT_SEQUENCE_EDITOR=") {
					env[i] = "UNUSED_" + e // the scenario's own configuration decides
				}
			}
			if hardened {
				env = append(env, ChildConfig("", nil)...)
			}
			sub := func(s string) string {
				return strings.ReplaceAll(strings.ReplaceAll(s, "CANARY", canary), "ROOTDIR", root)
			}
			gitRun := func(args ...string) {
				ctx, cancel := context.WithTimeout(context.Background(), testenv.RunTimeout)
				defer cancel()
				cmd := exec.CommandContext(ctx, gitPath, args...)
				cmd.Dir, cmd.Env, cmd.WaitDelay = repo, env, time.Second
				cmd.Run()
			}
			for _, kv := range sc.config {
				cmd := exec.Command(gitPath, "config", kv[0], sub(kv[1]))
				cmd.Dir = repo
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: config: %v %s", sc.name, err, out)
				}
			}
			os.Rename(filepath.Join(root, "hooks", "post-checkout"), filepath.Join(root, "hooks", "pre-commit"))
			if sc.hook != "" {
				hook := filepath.Join(repo, ".git", "hooks", sc.hook)
				data, _ := os.ReadFile(canary)
				if err := os.WriteFile(hook, data, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			args := make([]string, len(sc.args))
			for i, a := range sc.args {
				args[i] = sub(a)
			}
			gitRun(args...)
			_, err := os.Stat(marker)
			return err == nil
		}
		if !ran(false) {
			t.Errorf("%s: the canary did not run without ChildConfig; the scenario proves nothing", sc.name)
			continue
		}
		if ran(true) {
			t.Errorf("%s: the canary ran although ChildConfig was applied", sc.name)
		}
	}
}

// TestChildConfigEveryday checks that the pinned configuration does not
// break everyday commands: each must exit 0 under ChildConfig.
func TestChildConfigEveryday(t *testing.T) {
	gitPath := realGit(t)
	root := oracleSandbox(t, gitPath)
	repo := filepath.Join(root, "repo")
	marker := filepath.Join(root, "marker")
	var env []string
	for _, e := range oracleEnv(root, marker) {
		if !strings.HasPrefix(e, "GIT_EDITOR=") && !strings.HasPrefix(e, "GIT_SEQUENCE_EDITOR=") {
			env = append(env, e)
		}
	}
	env = append(env, ChildConfig("", nil)...)
	for _, args := range [][]string{
		{"status"}, {"log", "--oneline"}, {"diff", "HEAD~1"}, {"show", "--stat"},
		{"grep", "-n", "foo"}, {"commit", "--allow-empty", "-m", "x"}, {"fetch", "../remote.git"},
		{"ls-remote", "../remote.git"}, {"push", "../remote.git", "main:other"},
		{"clone", "-q", "../remote.git", "../dst"}, {"config", "--list"},
		{"rebase", "HEAD~1"}, {"stash", "list"}, {"branch", "-a"},
		{"commit", "--allow-empty", "--amend"}, {"rebase", "-i", "--autosquash", "HEAD~2"},
		{"archive", "--format=tgz", "-o", filepath.Join(root, "a.tgz"), "HEAD"},
		{"archive", "-o", filepath.Join(root, "a.tar.gz"), "HEAD"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.RunTimeout)
		cmd := exec.CommandContext(ctx, gitPath, args...)
		cmd.Dir, cmd.Env = repo, env
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Errorf("git %s under ChildConfig: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("a canary ran during everyday commands under ChildConfig")
	}
}
