package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/mcptest"
)

const testToken = "test-token-0123456789abcdef"

// startHTTP runs the binary with the http transport on a free loopback
// port and returns the /mcp URL, the process and its audit file.
func startHTTP(t *testing.T, env ...string) (string, *exec.Cmd, string) {
	t.Helper()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	auditFile := filepath.Join(t.TempDir(), "audit.jsonl")
	url, cmd := serveHTTP(t, dir, append([]string{"PATH=/usr/bin:/bin", "MCP_SHELL_AUDIT_LOG=" + auditFile, "MCP_SHELL_RETAIN_DIR=" + t.TempDir()}, env...))
	return url, cmd, auditFile
}

// serveHTTP runs the binary in dir with env and the http transport on a
// free loopback port (these settings come last and win), killed with the
// test, and returns the /mcp URL its start-up log names.
func serveHTTP(t *testing.T, dir string, env []string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(binary, dir)
	cmd.Env = append(append([]string(nil), env...), "MCP_SHELL_TRANSPORT=http", "MCP_SHELL_HTTP_ADDR=127.0.0.1:0",
		"MCP_SHELL_HTTP_TOKEN="+testToken, "MCP_SHELL_LOG_LEVEL=info")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	urlRE := regexp.MustCompile(`http://127\.0\.0\.1:\d+/mcp`)
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if u := urlRE.FindString(sc.Text()); u != "" {
			go io.Copy(io.Discard, stderr)
			return u, cmd
		}
	}
	t.Fatal("server never printed its URL")
	return "", nil
}

func TestHTTPTransport(t *testing.T) {
	tools := t.TempDir()
	script := helperScript(t, tools, "wait.sh", "echo $$ > \"$0.pid\"\nexec sleep 300\n")
	// The script writes its pid file beside itself, so tools is an allowed
	// (writable) directory; under the default sandbox it may run sleep
	// only because MCP_SHELL_SANDBOX_EXEC says so.
	url, cmd, auditFile := startHTTP(t, "ALLOW_COMMANDS=echo,"+script, "MCP_SHELL_ALLOWED_DIRECTORIES="+tools, "MCP_SHELL_SANDBOX_EXEC="+script+"=sleep")
	base := strings.TrimSuffix(url, "/mcp")

	resp, err := http.Get(base + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, err = http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no token: %v %v", resp, err)
	}
	resp.Body.Close()

	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-http", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: mcptest.Bearer{Token: testToken, Next: http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"echo", "over http"}}})
	if err != nil || res.IsError || text(res) != "over http\n" {
		t.Fatalf("call: %v %+v", err, res)
	}

	// SIGTERM stops the server promptly even with a call running, and the
	// call's process does not survive it.
	go session.CallTool(context.Background(), &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{script}}})
	pid := waitForPID(t, script+".pid")
	begin := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("server did not exit within 5s of SIGTERM")
	}
	t.Logf("exited %v after SIGTERM", time.Since(begin))
	if alive(pid) {
		killPID(pid)
		t.Errorf("call's process %d outlived the server", pid)
	}
	audit, _ := os.ReadFile(auditFile)
	for _, want := range []string{`"result_type":"unauthorized"`, `"result_type":"success"`, `"result_type":"cancelled"`} {
		if !strings.Contains(string(audit), want) {
			t.Errorf("audit lacks %s:\n%s", want, audit)
		}
	}
}

func TestHTTPRefusesNonLoopbackWithoutToken(t *testing.T) {
	cmd := exec.Command(binary)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "MCP_SHELL_TRANSPORT=http", "MCP_SHELL_HTTP_ADDR=0.0.0.0:0"}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "MCP_SHELL_HTTP_TOKEN") {
		t.Fatalf("err %v out %q", err, out)
	}
}

// TestHTTPRefusesThePlaceholderToken: the token the Kubernetes recipe
// once shipped as a placeholder, from a mounted file as the recipe reads
// it, stops the server at start-up with one line naming the variable.
func TestHTTPRefusesThePlaceholderToken(t *testing.T) {
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte("REPLACE-WITH-AT-LEAST-16-RANDOM-CHARACTERS\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, t.TempDir())
	cmd.Env = []string{"PATH=/usr/bin:/bin", "MCP_SHELL_TRANSPORT=http", "MCP_SHELL_HTTP_ADDR=127.0.0.1:0", "MCP_SHELL_HTTP_TOKEN_FILE=" + file}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "MCP_SHELL_HTTP_TOKEN_FILE: looks like a placeholder") {
		t.Fatalf("err %v out %q", err, out)
	}
}
