//go:build darwin || linux

// Fault injection that signals the server and its children (kill(2)): Linux and macOS.

package fault

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/procfs"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
)

// binary is the server, built once for the suite.
var binary string

func TestMain(m *testing.M) {
	var remove func()
	binary, remove = testcases.BuildServer("../../cmd/mcp-shell-server")
	code := m.Run()
	remove()
	os.Exit(code)
}

// holdScript writes an executable that records its pid in <arg>.pid and
// then sleeps, ignoring SIGTERM (the kernel runs it through its #! line: no
// shell is on the allowlist). Only the SIGKILL after the kill grace ends
// it early.
func holdScript(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hold.sh")
	body := "#!/bin/sh\ntrap '' TERM\necho $$ > \"$1.pid.tmp\" && mv \"$1.pid.tmp\" \"$1.pid\"\nexec sleep 300\n"
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// waitPID waits for a helper's pid file (the only signal a process the
// server started can give).
func waitPID(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", path)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	st, err := procfs.ReadStat(pid)
	return err == nil && !st.Zombie()
}

// survivors waits up to d for pids to go and returns those still alive
// (then killed, so a failing test leaves nothing behind).
func survivors(pids []int, d time.Duration) []int {
	deadline := time.Now().Add(d)
	for {
		var left []int
		for _, p := range pids {
			if alive(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			for _, p := range left {
				syscall.Kill(p, syscall.SIGKILL)
			}
			return left
		}
		time.Sleep(10 * time.Millisecond) // another process's state: nothing to wait on
	}
}

// stdioServer is the binary on stdio, driven with raw JSON-RPC lines.
type stdioServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Scanner
	stderr *strings.Builder
	audit  string
	dir    string
}

// startStdio runs the binary with env in a fresh allowed directory, with
// the audit log in a file unless env sets MCP_SHELL_AUDIT_LOG, and
// initializes a session.
func startStdio(t *testing.T, env ...string) *stdioServer {
	t.Helper()
	return newStdio(t, nil, env...).initialize()
}

func (s *stdioServer) initialize() *stdioServer {
	s.t.Helper()
	s.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fault","version":"0"}}}`)
	s.response(0)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

// newStdio starts the binary; its stderr goes to stderr, or is collected
// in s.stderr when nil.
func newStdio(t *testing.T, stderr io.Writer, env ...string) *stdioServer {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &stdioServer{t: t, dir: dir, audit: filepath.Join(t.TempDir(), "audit.jsonl"), stderr: &strings.Builder{}}
	s.cmd = exec.Command(binary, dir)
	// The helper scripts run sleep and write pid files beside the allowed
	// directory: the fault suite tests the server's own behaviour, so its
	// children run unconfined (the sandbox has its own proofs in runner/).
	s.cmd.Env = append([]string{"PATH=/usr/local/bin:/usr/bin:/bin", "MCP_SHELL_AUDIT_LOG=" + s.audit, "MCP_SHELL_LOG_LEVEL=warn", "MCP_SHELL_SANDBOX=off"}, env...)
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "MCP_SHELL_AUDIT_LOG="); ok {
			s.audit = v
		}
	}
	s.in, _ = s.cmd.StdinPipe()
	stdout, _ := s.cmd.StdoutPipe()
	s.cmd.Stderr = stderr
	if stderr == nil {
		s.cmd.Stderr = s.stderr
	}
	s.out = bufio.NewScanner(stdout)
	s.out.Buffer(nil, 8<<20)
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.cmd.Process.Kill(); s.cmd.Wait() })
	return s
}

func (s *stdioServer) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("write: %v", err)
	}
}

// next is the next message the server wrote, or nil at the end of its
// output.
func (s *stdioServer) next() map[string]any {
	s.t.Helper()
	if !s.out.Scan() {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(s.out.Bytes(), &m); err != nil {
		// A batch reply is an array.
		var arr []map[string]any
		if json.Unmarshal(s.out.Bytes(), &arr) == nil {
			return map[string]any{"batch": arr}
		}
		s.t.Fatalf("stdout line %q: %v", s.out.Text(), err)
	}
	return m
}

// response skips notifications up to the response to id.
func (s *stdioServer) response(id any) map[string]any {
	s.t.Helper()
	for {
		m := s.next()
		if m == nil {
			s.t.Fatalf("output ended before the response to %v", id)
		}
		if _, note := m["method"]; note {
			continue
		}
		if fmt.Sprint(m["id"]) == fmt.Sprint(id) {
			return m
		}
		s.t.Fatalf("response %v while waiting for %v", m, id)
	}
}

// call is a tools/call line.
func call(id any, args map[string]any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": "shell_execute", "arguments": args}})
	return string(b)
}

// records reads a JSON-lines audit file; every line must be a whole
// record.
func records(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return parseRecords(t, string(data))
}

var auditLine = regexp.MustCompile(`"msg":"shell_execution_audit"`)

// parseRecords decodes the audit lines among lines (stderr may hold
// diagnostics too).
func parseRecords(t *testing.T, data string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(data, "\n") {
		if !auditLine.MatchString(l) {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("audit line is not a whole record: %q: %v", l[:min(len(l), 200)], err)
		}
		out = append(out, m)
	}
	return out
}

func text(res map[string]any) string {
	r, _ := res["result"].(map[string]any)
	var parts []string
	content, _ := r["content"].([]any)
	for _, c := range content {
		if m, ok := c.(map[string]any); ok {
			s, _ := m["text"].(string)
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}

// percentile is the p-th percentile of ds (nearest rank).
func percentile(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	i := int(float64(len(s))*p+0.999999) - 1
	return s[max(0, min(i, len(s)-1))]
}
