//go:build linux

package day

import (
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

// TestDenialHints follows the product's own hints as a developer does:
// a tar extraction outside the allowed directory is reported as a write
// naming the write setting, and a MCP_SHELL_SANDBOX_READ_DIRS that
// leaves out the shared libraries is reported at start-up and in the
// hint of the stage that exits 127, each with the full value to set.
func TestDenialHints(t *testing.T) {
	if abi, err := sandbox.KernelABI(); err != nil || abi < 1 {
		if os.Getenv("MCP_SHELL_REQUIRE_LANDLOCK") != "" {
			t.Fatalf("Landlock ABI %d (%v) and MCP_SHELL_REQUIRE_LANDLOCK is set", abi, err)
		}
		t.Skipf("no Landlock (%v)", err)
	}
	for _, p := range []string{"tar", "ls"} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("MCP_SHELL_TEST_REQUIRE_PROGRAMS") != "" {
				t.Fatalf("%s is missing", p)
			}
			t.Skipf("%s is missing", p)
		}
	}
	// An unprivileged server's stages see no read-only mounts: its
	// writes outside fail with Landlock's EACCES, not EROFS.
	testenv.EachUser(t, hintsAs)
}

func hintsAs(t *testing.T, cred *syscall.Credential) {
	root := searchableTemp(t, cred)
	f := &fixture{root: root, home: filepath.Join(root, "home"), work: filepath.Join(root, "work")}
	tgt := filepath.Join(root, "tgt")
	for _, d := range []string{f.home, f.work, tgt, filepath.Join(root, "src")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(root, "src", "a.txt"), []byte("a\n"), 0o644))
	if out, err := exec.Command("tar", "-czf", filepath.Join(f.work, "src.tar.gz"), "-C", root, "src").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	// An archive whose member lies beneath a symlink the working directory
	// already holds (out -> tgt): GNU tar 1.34 opens the member through it,
	// so the write leaves the allowed directory although no argument names
	// anything outside (a -C outside is refused before tar runs).
	must(t, os.MkdirAll(filepath.Join(root, "tree", "out"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "tree", "out", "a.txt"), []byte("a\n"), 0o644))
	if out, err := exec.Command("tar", "-czf", filepath.Join(f.work, "link.tar.gz"), "-C", filepath.Join(root, "tree"), "out/a.txt").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	must(t, os.Symlink(tgt, filepath.Join(f.work, "out")))
	if cred != nil {
		must(t, filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, int(cred.Uid), int(cred.Gid))
		}))
	}
	start := func(env []string, log string) *mcp.ClientSession {
		t.Helper()
		logFile, err := os.Create(log)
		must(t, err)
		t.Cleanup(func() { logFile.Close() })
		cmd := exec.Command(binary, f.work)
		cmd.Env, cmd.Stderr = env, logFile
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "day", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
		if err != nil {
			b, _ := os.ReadFile(log)
			t.Fatalf("connect: %v\n%s", err, b)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	base := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + f.home, "LANG=C.UTF-8", "ALLOW_COMMANDS=tar,ls,git"}
	call := func(cs *mcp.ClientSession, argv ...string) string {
		t.Helper()
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": argv}})
		must(t, err)
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}

	t.Run("tar extracts through a symlink outside", func(t *testing.T) {
		cs := start(base, filepath.Join(root, "server.log"))
		text := call(cs, "tar", "-xzf", "link.tar.gz")
		if !strings.Contains(text, "write to ") || !strings.Contains(text, "MCP_SHELL_ALLOWED_DIRECTORIES") || !strings.Contains(text, "a guess") {
			t.Errorf("the hint does not call the extraction a write naming the write setting:\n%s", text)
		}
		if strings.Contains(text, "read of") || strings.Contains(text, sandbox.ReadDirsVar) {
			t.Errorf("the hint calls the extraction a read:\n%s", text)
		}
		if _, err := os.Stat(filepath.Join(tgt, "a.txt")); err == nil {
			t.Errorf("tar extracted outside the allowed directory")
		}
	})
	t.Run("read dirs without the libraries", func(t *testing.T) {
		log := filepath.Join(root, "narrow.log")
		cs := start(append(base, sandbox.ReadDirsVar+"="+tgt), log)
		text := call(cs, "ls", f.work)
		if !strings.Contains(text, "exit status 127") || !strings.Contains(text, "error while loading shared libraries") {
			t.Skipf("ls did not fail to load (statically linked?):\n%s", text)
		}
		i := strings.Index(text, sandbox.ReadDirsVar+"=")
		if i < 0 || !strings.Contains(text, "read of the shared library") {
			t.Fatalf("the 127 has no hint naming the library and %s:\n%s", sandbox.ReadDirsVar, text)
		}
		value := strings.TrimSuffix(strings.Fields(text[i:])[0], ";")
		if !strings.HasPrefix(value, sandbox.ReadDirsVar+"="+tgt+",") {
			t.Errorf("the hint's value %q does not keep the list %q", value, tgt)
		}
		b, err := os.ReadFile(log)
		must(t, err)
		if n := strings.Count(string(b), "dynamically linked programs will fail to load"); n != 1 {
			t.Errorf("%d start-up warnings about the loader's directories, want 1:\n%s", n, b)
		}
		// The value the hint gives lets the program load.
		cs2 := start(append(base, value), filepath.Join(root, "followed.log"))
		if text := call(cs2, "ls", f.work); !strings.Contains(text, "src.tar.gz") {
			t.Errorf("ls under %s fails:\n%s", value, text)
		}
	})
}
