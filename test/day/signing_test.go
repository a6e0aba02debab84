//go:build linux

package day

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// TestSigningUsers signs a commit with gpg under the default sandbox as
// the test's own user and, when that is root, as uid 65534. ~/.gnupg
// stays read-only in every stage. A root server's stages see it on a
// read-only mount, so gpg opens its keyring without a lock and signs; an
// unprivileged server's gpg cannot tell (Landlock does not answer
// access(2)), wants a lock file beside its keyring and fails, and the
// result and the audit record then name the signing denial and what
// signs confined, as a start-up warning did before. With lock-never in
// gpg.conf, as both say, it signs and verifies.
func TestSigningUsers(t *testing.T) {
	if abi, err := sandbox.KernelABI(); err != nil || abi < sandbox.ABINetwork {
		t.Skipf("Landlock ABI %d (%v): the default sandbox does not confine here", abi, err)
	}
	for _, p := range []string{"git", "gpg", "gpgconf", "gpg-agent"} {
		testenv.Program(t, p)
	}
	testenv.EachUser(t, signAs)
}

func signAs(t *testing.T, cred *syscall.Credential) {
	root := searchableTemp(t, cred)
	home, repo, auditLog := filepath.Join(root, "home"), filepath.Join(root, "work", "repo"), filepath.Join(root, "audit.log")
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "GIT_CONFIG_NOSYSTEM=1"}
	run := func(dir string, argv ...string) string {
		t.Helper()
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir, cmd.Env = dir, env
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("setup %q: %v\n%s", argv, err, out)
		}
		return string(out)
	}
	run(root, "mkdir", "-p", home, repo)
	run(home, "git", "config", "--global", "user.name", "Day Tester")
	run(home, "git", "config", "--global", "user.email", "day@example.invalid")
	run(home, "gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", "", "--quick-gen-key", "Day Tester <day@example.invalid>", "ed25519", "sign", "never")
	var key string
	for _, line := range strings.Split(run(home, "gpg", "--list-secret-keys", "--with-colons"), "\n") {
		if fields := strings.Split(line, ":"); len(fields) > 9 && fields[0] == "fpr" && key == "" {
			key = fields[9]
		}
	}
	run(home, "gpgconf", "--launch", "gpg-agent")
	t.Cleanup(func() {
		cmd := exec.Command("gpgconf", "--kill", "gpg-agent")
		cmd.Env = env
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		cmd.Run()
	})
	run(repo, "git", "init", "-q")
	run(repo, "git", "commit", "-q", "--allow-empty", "-m", "initial")
	run(repo, "git", "config", "user.signingkey", key)

	cmd := exec.Command(binary, filepath.Dir(repo))
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "ALLOW_COMMANDS=git", "MCP_SHELL_AUDIT_LOG=" + auditLog}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	serverLog, err := os.Create(filepath.Join(root, "server.log"))
	must(t, err)
	defer serverLog.Close()
	cmd.Stderr = serverLog
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "day", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	must(t, err)
	defer s.Close()
	call := func(argv ...string) (bool, string) {
		t.Helper()
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": argv, "directory": repo}})
		must(t, err)
		var text strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		return !res.IsError, text.String()
	}

	unprivileged := cred != nil || os.Geteuid() != 0
	ok, text := call("git", "commit", "-q", "-S", "--allow-empty", "-m", "signed")
	switch {
	case ok && unprivileged:
		t.Errorf("gpg signed in a read-only ~/.gnupg without lock-never as an unprivileged server: the documented gap is gone, update SECURITY.md and this test:\n%s", text)
	case !ok && !strings.Contains(text, "lock-never"):
		t.Errorf("a failed gpg signature's result does not name lock-never:\n%s", clip(text, 1500))
	case !ok && !strings.Contains(lastRecord(t, auditLog), `"kind":"signing"`):
		t.Errorf("the failed signature's audit record has no signing denial: %s", clip(lastRecord(t, auditLog), 1500))
	}
	t.Logf("%s, no lock-never: signed %v", testenv.UserName(cred), ok)
	// The start-up lines were written before the first answer.
	startup, err := os.ReadFile(serverLog.Name())
	must(t, err)
	if warned := strings.Contains(string(startup), "git signing with gpg fails"); warned != !ok {
		t.Errorf("signed %v, and the start-up warning about gpg signing was written %v:\n%s", ok, warned, clip(string(startup), 3000))
	}

	gpgConf := filepath.Join(home, ".gnupg", "gpg.conf")
	must(t, os.WriteFile(gpgConf, []byte("lock-never\n"), 0o600))
	if cred != nil {
		must(t, os.Chown(gpgConf, int(cred.Uid), int(cred.Gid)))
	}
	if ok, text := call("git", "commit", "-q", "-S", "--allow-empty", "-m", "signed without locks"); !ok {
		t.Errorf("with lock-never in gpg.conf, git commit -S failed:\n%s", clip(text, 1500))
	}
	if ok, text := call("git", "verify-commit", "HEAD"); !ok || !strings.Contains(text, "Good signature") {
		t.Errorf("git verify-commit of the signed commit:\n%s", clip(text, 1500))
	}
	if fi, err := os.Stat(filepath.Join(home, ".gnupg", "pubring.kbx.lock")); err == nil {
		t.Errorf("a lock file %v was left in ~/.gnupg", fi.Name())
	}
}

// searchableTemp is a fresh directory owned by cred's user, on a path it
// can walk down.
func searchableTemp(t *testing.T, cred *syscall.Credential) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	if cred != nil {
		for p := d; p != "/"; p = filepath.Dir(p) {
			if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o001 == 0 {
				os.Chmod(p, fi.Mode().Perm()|0o001)
			}
		}
		must(t, os.Chown(d, int(cred.Uid), int(cred.Gid)))
		os.Chmod(filepath.Dir(binary), 0o755)
	}
	return d
}

// lastRecord is the last shell_execute record of an audit log.
func lastRecord(t *testing.T, path string) string {
	t.Helper()
	file, err := os.Open(path)
	must(t, err)
	defer file.Close()
	var last string
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"tool":"shell_execute"`) {
			last = sc.Text()
		}
	}
	return last
}
