package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/proctest"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// binary is the mcp-shell-server built once for these end-to-end tests.
var binary string

func TestMain(m *testing.M) {
	var remove func()
	binary, remove = testcases.BuildServer(".")
	code := m.Run()
	remove()
	proctest.Cleanup()
	os.Exit(code)
}

// e2e is one server process driven over stdio by the go-sdk client.
type e2e struct {
	t       *testing.T
	dir     string // the allowed working directory
	audit   string // audit log file
	session *mcp.ClientSession
}

// start runs the real binary with env (plus an audit file) in a fresh
// working directory and connects a client to it.
func start(t *testing.T, protocol string, env ...string) *e2e {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{t: t, dir: dir, audit: filepath.Join(t.TempDir(), "audit.jsonl")}
	cmd := exec.Command(binary, dir)
	cmd.Env = append([]string{"PATH=/usr/local/bin:/usr/bin:/bin", "MCP_SHELL_AUDIT_LOG=" + e.audit, "MCP_SHELL_LOG_LEVEL=error", "MCP_SHELL_RETAIN_DIR=" + t.TempDir()}, env...)
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	e.session = s
	t.Cleanup(func() { s.Close() })
	return e
}

func (e *e2e) call(args map[string]any) *mcp.CallToolResult {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := e.session.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: args})
	if err != nil {
		e.t.Fatalf("call %v: %v", args, err)
	}
	return res
}

func text(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// structured decodes the result's structuredContent.
func structured(t *testing.T, r *mcp.CallToolResult) map[string]any {
	t.Helper()
	raw, err := json.Marshal(r.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		t.Fatalf("structuredContent %s: %v", raw, err)
	}
	return m
}

// auditRecords reads the audit file.
func (e *e2e) auditRecords() []map[string]any {
	e.t.Helper()
	f, err := os.Open(e.audit)
	if err != nil {
		e.t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			e.t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func TestToolsList(t *testing.T) {
	for _, proto := range []string{"2025-06-18", "2025-11-25", ""} {
		t.Run("protocol="+proto, func(t *testing.T) {
			e := start(t, proto, "ALLOW_COMMANDS=ls,echo")
			res, err := e.session.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			var tool *mcp.Tool
			for _, tl := range res.Tools {
				names = append(names, tl.Name)
				if tl.Name == "shell_execute" {
					tool = tl
				}
			}
			// The job tools are on by default (MCP_SHELL_MAX_JOBS=8).
			if strings.Join(names, ",") != "job_kill,job_list,job_status,job_stdin,read_output,shell_execute" {
				t.Fatalf("tools: %v", names)
			}
			if !strings.Contains(tool.Description, "Allowed commands: echo, ls") {
				t.Errorf("description lacks sorted allowlist: %q", tool.Description)
			}
			a := tool.Annotations
			if a == nil || a.ReadOnlyHint || a.IdempotentHint || a.DestructiveHint == nil || !*a.DestructiveHint || a.OpenWorldHint == nil || !*a.OpenWorldHint {
				t.Errorf("annotations: %+v", a)
			}
			if tool.OutputSchema == nil {
				t.Error("no output schema")
			}
		})
	}
}

func TestCallOutcomes(t *testing.T) {
	e := start(t, "", "ALLOW_COMMANDS=echo,cat,false,sort,head,yes,tr,wc")
	os.WriteFile(filepath.Join(e.dir, "in.txt"), []byte("b\na\n"), 0o644)

	t.Run("success", func(t *testing.T) {
		r := e.call(map[string]any{"command": []string{"echo", "hello", "$(id)"}})
		if r.IsError || text(r) != "hello $(id)\n" {
			t.Fatalf("got %v %q", r.IsError, text(r))
		}
		if s := structured(t, r); s["status"] != 0.0 || s["exit_code"] != 0.0 || s["timed_out"] != false {
			t.Errorf("structured: %v", s)
		}
	})
	t.Run("refused", func(t *testing.T) {
		r := e.call(map[string]any{"command": []string{"sort", "-o", "/tmp/x", "in.txt"}})
		if !r.IsError || !strings.HasPrefix(text(r), "Error executing command: ") || !strings.Contains(text(r), "-o") {
			t.Fatalf("got %v %q", r.IsError, text(r))
		}
	})
	t.Run("not allowed", func(t *testing.T) {
		r := e.call(map[string]any{"command": []string{"rm", "-rf", "x"}})
		if !r.IsError || text(r) != "Error executing command: Command not allowed: rm" {
			t.Fatalf("got %v %q", r.IsError, text(r))
		}
	})
	t.Run("non-zero exit", func(t *testing.T) {
		r := e.call(map[string]any{"command": []string{"false"}})
		if !r.IsError || !strings.HasPrefix(text(r), "Error executing command: Command failed with exit status 1") {
			t.Fatalf("got %v %q", r.IsError, text(r))
		}
		if s := structured(t, r); s["exit_code"] != 1.0 {
			t.Errorf("structured: %v", s)
		}
	})
	t.Run("large stdin echo", func(t *testing.T) {
		in := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
		r := e.call(map[string]any{"command": []string{"cat"}, "stdin": in})
		// The text carries head and tail (MCP_SHELL_TEXT_LIMIT_BYTES), the
		// structured content all of it.
		if s := structured(t, r); r.IsError || s["stdout"] != in || !strings.Contains(text(r), `left out here`) || !strings.Contains(text(r), s["output_id"].(string)) {
			t.Fatalf("isError %v, %d bytes back", r.IsError, len(text(r)))
		}
	})
	t.Run("pipeline", func(t *testing.T) {
		r := e.call(map[string]any{"command": []string{"cat", "<", "in.txt", "|", "sort", "|", "head", "-n", "1"}})
		if r.IsError || text(r) != "a\n" {
			t.Fatalf("got %v %q", r.IsError, text(r))
		}
		if s := structured(t, r); len(s["stages"].([]any)) != 3 {
			t.Errorf("stages: %v", s["stages"])
		}
	})
	t.Run("pipeline with early exit", func(t *testing.T) {
		r := e.call(map[string]any{"command": []string{"yes", "|", "head", "-n", "2"}})
		if r.IsError || text(r) != "y\ny\n" {
			t.Fatalf("got %v %q", r.IsError, text(r))
		}
	})
	t.Run("redirection", func(t *testing.T) {
		r := e.call(map[string]any{"command": []string{"sort", "in.txt", ">", "out.txt"}})
		if r.IsError {
			t.Fatalf("got %q", text(r))
		}
		r = e.call(map[string]any{"command": []string{"echo", "c", ">>", "out.txt"}})
		got, _ := os.ReadFile(filepath.Join(e.dir, "out.txt"))
		if r.IsError || string(got) != "a\nb\nc\n" {
			t.Fatalf("out.txt = %q (%q)", got, text(r))
		}
		r = e.call(map[string]any{"command": []string{"echo", "x", ">", "../escape.txt"}})
		if !r.IsError || !strings.Contains(text(r), "parent traversal") {
			t.Fatalf("escape not refused: %q", text(r))
		}
	})
	t.Run("output cap", func(t *testing.T) {
		ec := start(t, "", "ALLOW_COMMANDS=yes", "MCP_SHELL_OUTPUT_LIMIT_BYTES=1000")
		r := ec.call(map[string]any{"command": []string{"yes"}})
		if !r.IsError || !strings.HasPrefix(text(r), "Error executing command: stdout exceeded output limit of 1000 bytes") {
			t.Fatalf("got %q", text(r)[:min(200, len(text(r)))])
		}
		if s := structured(t, r); s["stdout_truncated"] != true || len(s["stdout"].(string)) != 1000 {
			t.Errorf("structured: truncated=%v len=%d", s["stdout_truncated"], len(s["stdout"].(string)))
		}
	})
	t.Run("bad arguments", func(t *testing.T) {
		for _, args := range []map[string]any{
			{"command": []string{}},
			{"command": nil},
			{"command": []any{1}},
			{"command": []string{"echo"}, "extra": 1},
			{"command": []string{"echo", "a\x00b"}},
			{"command": []string{"echo"}, "timeout": 0},
			{"command": []string{"echo"}, "envs": map[string]string{"SECRET_TOKEN": "x"}},
		} {
			if r := e.call(args); !r.IsError {
				t.Errorf("%v: accepted: %q", args, text(r))
			}
		}
	})
	// Every call above left exactly one audit record.
	recs := e.auditRecords()
	if len(recs) < 15 {
		t.Errorf("only %d audit records", len(recs))
	}
	for _, r := range recs {
		if r["msg"] != "shell_execution_audit" || r["logger"] != "mcp-shell-server.audit" || r["result_type"] == "" {
			t.Errorf("audit record: %v", r)
		}
	}
}

// helperScript writes an executable script into dir (the kernel runs it
// through its #! line, so no shell is on the allowlist).
func helperScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// killPID SIGKILLs (TerminateProcess on Windows) a process a test
// expected gone, so that it does not outlive the test.
func killPID(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

func readPID(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestTimeoutKillsProcessTree(t *testing.T) {
	tools := t.TempDir()
	script := helperScript(t, tools, "tree.sh", "sleep 300 &\necho $! > grandchild.pid\necho started\nsleep 300\n")
	e := start(t, "", "ALLOW_COMMANDS="+script, "MCP_SHELL_SANDBOX_EXEC="+script+"=sleep")
	begin := time.Now()
	r := e.call(map[string]any{"command": []string{script}, "timeout": 1})
	// The script sleeps 300 s: the call must end at its timeout, not wait
	// for the script. Half of that is a bound no loaded machine reaches.
	took := time.Since(begin)
	t.Logf("figures: a call with timeout 1s took %v", took.Round(time.Millisecond))
	if took > 150*time.Second {
		t.Errorf("call took %v with timeout 1s: it waited for the script", took)
	}
	if !r.IsError || !strings.HasPrefix(text(r), "Error executing command: Command timed out after 1 seconds") || !strings.Contains(text(r), "started") {
		t.Fatalf("got %q", text(r))
	}
	if pid := readPID(t, filepath.Join(e.dir, "grandchild.pid")); alive(pid) {
		killPID(pid)
		t.Fatalf("grandchild %d survived the timeout", pid)
	}
}

func TestCancellationKillsProcessGroup(t *testing.T) {
	tools := t.TempDir()
	// The script and its sleep ignore SIGTERM: only the SIGKILL after the
	// grace period ends them.
	script := helperScript(t, tools, "wait.sh", "trap '' TERM\necho $$ > child.pid\nsleep 300\n")
	e := start(t, "", "ALLOW_COMMANDS="+script, "MCP_SHELL_SANDBOX_EXEC="+script+"=sleep")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := e.session.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{script}, "timeout": 60}})
		done <- err
	}()
	pidFile := filepath.Join(e.dir, "child.pid")
	pid := waitForPID(t, pidFile)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("call error %v, want context.Canceled", err)
	}
	deadline := time.Now().Add(exitWithin)
	for alive(pid) {
		if time.Now().After(deadline) {
			killPID(pid)
			t.Fatalf("child %d still running %v after cancellation", pid, exitWithin)
		}
		time.Sleep(20 * time.Millisecond) // polling another process's state: no signal to wait on
	}
}

// exitWithin is how long a test polls for a killed process to be gone
// (the loops end as soon as it is): far more than a kill and the kill
// grace take, so that a loaded machine cannot fail the test.
const exitWithin = 30 * time.Second

// waitForPID polls for a pid file written by a helper script (the only
// signal available from a process the server started).
func waitForPID(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			return readPID(t, path)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestConfigErrorsFailClosed(t *testing.T) {
	for _, env := range []string{
		"MCP_SHELL_DEFAULT_TIMEOUT_SECONDS=abc",
		"MCP_SHELL_OUTPUT_LIMIT_BYTES=0",
		"MCP_SHELL_MAX_TIMEOUT_SECONDS=-5",
		"MCP_SHELL_OUTPUT_LIMIT_BYTES=010", // Go syntax would read octal 8
		"MCP_SHELL_OUTPUT_LIMIT_BYTES=0x10",
		"MCP_SHELL_DEFAULT_TIMEOUT_SECONDS=1_000",
		"ALLOW_PATTERNS=ls|cat",
		"ALLOW_PATTERNS=(",
		"MCP_SHELL_ALLOWED_DIRECTORIES=/nonexistent-dir-xyz",
	} {
		cmd := exec.Command(binary)
		cmd.Env = []string{"PATH=/usr/bin:/bin", env}
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("%s: err %v, want exit status 2", env, err)
		}
		name, _, _ := strings.Cut(env, "=")
		if lines := strings.Split(strings.TrimSpace(string(out)), "\n"); len(lines) != 1 || !strings.Contains(lines[0], name) {
			t.Errorf("%s: output %q, want one line naming %s", env, out, name)
		}
	}
}

func TestCheckCommand(t *testing.T) {
	run := func(env string, args ...string) (string, int) {
		cmd := exec.Command(binary, append([]string{"check"}, args...)...)
		cmd.Env = []string{"PATH=/usr/bin:/bin", env}
		out, err := cmd.Output()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		return string(out), code
	}
	if out, code := run("ALLOW_COMMANDS=sort", "--", "sort", "-ro", "/etc/out", "in"); code != 1 || !strings.HasPrefix(out, "reject") {
		t.Errorf("sort -ro: %d %q", code, out)
	}
	if out, code := run("ALLOW_COMMANDS=sort", "--json", "sort -u 'a file'"); code != 0 || !strings.Contains(out, `"verdict":"allow"`) || !strings.Contains(out, `"a file"`) {
		t.Errorf("shlex form: %d %q", code, out)
	}
}

func TestProgressNotifications(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	got := make(chan *mcp.ProgressNotificationParams, 100)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) { got <- req.Params },
	})
	cmd := exec.Command(binary, dir)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "ALLOW_COMMANDS=sleep,echo", "MCP_SHELL_AUDIT_LOG=" + filepath.Join(t.TempDir(), "a"), "MCP_SHELL_RETAIN_DIR=" + t.TempDir()}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	params := &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"sleep", "1.3"}, "timeout": 9}}
	params.SetProgressToken("tok-1")
	if r, err := s.CallTool(ctx, params); err != nil || r.IsError {
		t.Fatalf("call: %v %v", err, r)
	}
	if len(got) < 2 {
		t.Fatalf("%d progress notifications for a 1.3 s command", len(got))
	}
	first := <-got
	if first.ProgressToken != "tok-1" || first.Total != 9 || first.Progress <= 0 || !strings.Contains(first.Message, "stdout") {
		t.Errorf("notification %+v", first)
	}
	// Without a token, none: anything arriving now must belong to tok-1.
	if _, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"sleep", "1.2"}}}); err != nil {
		t.Fatal(err)
	}
	for len(got) > 0 {
		if p := <-got; p.ProgressToken != "tok-1" {
			t.Errorf("progress sent for a call without a token: %+v", p)
		}
	}
}

func TestExecuteCommandTool(t *testing.T) {
	e := start(t, "", "ALLOW_COMMANDS=echo,false,sleep,head", "MCP_SHELL_TOOLS=shell_execute,execute_command", "MCP_SHELL_OUTPUT_LIMIT_BYTES=1000")
	tools, err := e.session.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != 7 {
		t.Fatalf("tools %v %v", tools, err)
	}
	exec := func(args map[string]any) (*mcp.CallToolResult, map[string]any) {
		res, err := e.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "execute_command", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			return res, nil
		}
		return res, structured(t, res)
	}
	if r, s := exec(map[string]any{"program": "echo", "args": []string{"|", ">", "x", ";"}}); r.IsError || s["stdout"] != "| > x ;\n" || s["exit_code"] != 0.0 {
		t.Errorf("operators must be data: %v %v", text(r), s)
	}
	if r, s := exec(map[string]any{"program": "false"}); r.IsError || s["exit_code"] != 1.0 {
		t.Errorf("non-zero exit is a normal result: %v %v", text(r), s)
	}
	if r, s := exec(map[string]any{"program": "sleep", "args": []string{"5"}, "timeout_ms": 300}); r.IsError || s["timed_out"] != true || s["exit_code"] != nil {
		t.Errorf("timeout is a normal result: %v %v", text(r), s)
	}
	if r, s := exec(map[string]any{"program": "head", "args": []string{"-c", "5000000", "/dev/zero"}}); r.IsError || s["stdout_truncated"] != true || s["exit_code"] != 0.0 || len(s["stdout"].(string)) != 1000 {
		t.Errorf("output past the cap is drained: %v", text(r))
	}
	for _, bad := range []map[string]any{
		{"program": ""}, {"program": "rm"}, {"program": "echo", "timeout_ms": 0}, {"program": "echo", "timeout_ms": 600001}, {"program": "echo", "cwd": "/"},
	} {
		if r, _ := exec(bad); !r.IsError {
			t.Errorf("%v accepted: %q", bad, text(r))
		}
	}
}

func TestLandlockSandbox(t *testing.T) {
	outside := t.TempDir()
	e := start(t, "", "ALLOW_COMMANDS=cp,cat", "MCP_SHELL_SANDBOX=landlock")
	os.WriteFile(filepath.Join(e.dir, "in.txt"), []byte("data\n"), 0o644)
	r := e.call(map[string]any{"command": []string{"cp", "in.txt", filepath.Join(outside, "x")}})
	// EACCES from Landlock, or EROFS from the read-only mounts of a root
	// server, whichever the kernel checks first.
	if !r.IsError || !strings.Contains(text(r), "Permission denied") && !strings.Contains(text(r), "Read-only file system") {
		t.Errorf("cp outside the allowed directory: %q", text(r))
	}
	if _, err := os.Stat(filepath.Join(outside, "x")); err == nil {
		t.Fatal("the confined cp wrote outside the allowed directory")
	}
	if r := e.call(map[string]any{"command": []string{"cp", "in.txt", "copy.txt"}}); r.IsError {
		t.Errorf("cp inside: %q", text(r))
	}
	if r := e.call(map[string]any{"command": []string{"cat", "/etc/hostname"}}); r.IsError {
		t.Errorf("reading a system file: %q", text(r))
	}
	recs := e.auditRecords()
	if len(recs) == 0 || recs[0]["sandbox"] != "landlock" || recs[0]["sandbox_abi"].(float64) < 4 {
		t.Errorf("audit does not record the sandbox: %v", recs)
	}
}

// TestDefaultSandbox: with nothing set, the server confines its children
// where the kernel offers Landlock ABI 4 (mode auto), says which mode
// applies in one start-up line (the one with its sandbox= attribute;
// another says which caches it uses), and records it in every audit record.
func TestDefaultSandbox(t *testing.T) {
	want := "limits"
	if abi, err := sandbox.KernelABI(); err == nil && abi >= sandbox.ABINetwork {
		want = "landlock"
	}
	cmd := exec.Command(binary, t.TempDir())
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.Stdin = strings.NewReader("")
	out, _ := cmd.CombinedOutput()
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "msg=\"sandbox") && strings.Contains(l, " sandbox=") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "sandbox="+want) || !strings.Contains(lines[0], "requested=auto") {
		t.Errorf("start-up lines %q, want one saying sandbox=%s requested=auto", lines, want)
	}
	outside := t.TempDir()
	e := start(t, "", "ALLOW_COMMANDS=cp,cat")
	os.WriteFile(filepath.Join(e.dir, "in.txt"), []byte("data\n"), 0o644)
	r := e.call(map[string]any{"command": []string{"cp", "in.txt", filepath.Join(outside, "x")}})
	if _, err := os.Stat(filepath.Join(outside, "x")); want == "landlock" && (err == nil || !r.IsError) {
		t.Errorf("the default mode let cp write outside the allowed directory: %q", text(r))
	}
	if r := e.call(map[string]any{"command": []string{"cat", "in.txt"}}); r.IsError {
		t.Errorf("cat inside: %q", text(r))
	}
	for _, rec := range e.auditRecords() {
		if rec["sandbox"] != want {
			t.Errorf("audit record sandbox %v, want %s: %v", rec["sandbox"], want, rec)
		}
	}
}

func TestAuditToStdoutRefusedOverStdio(t *testing.T) {
	cmd := exec.Command(binary)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "MCP_SHELL_AUDIT_LOG=/dev/stdout"}
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "MCP_SHELL_AUDIT_LOG") {
		t.Fatalf("err %v out %q", err, out)
	}
}

// TestUnknownVariablesWarned: the server starts, and says at start-up
// which MCP_SHELL_* names it ignores with the name each most likely
// meant (a misspelling, seed 002's and the reference server's names).
func TestUnknownVariablesWarned(t *testing.T) {
	cmd := exec.Command(binary, t.TempDir())
	cmd.Env = []string{"PATH=/usr/bin:/bin", "ALLOW_COMMANDS=ls", "MCP_SHELL_OUTPUT_LIMIT=5", "MCP_SHELL_ALLOWED_WORKDIRS=/srv", "MCP_SHELL_ENV_ALLOWLIST=LANG", "MCP_SHELL_TOOLS=shell_execute"}
	cmd.Stdin = strings.NewReader("")
	out, _ := cmd.CombinedOutput()
	var warned []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "unknown variable") {
			warned = append(warned, l)
		}
	}
	want := [][2]string{{"MCP_SHELL_OUTPUT_LIMIT", "MCP_SHELL_OUTPUT_LIMIT_BYTES"}, {"MCP_SHELL_ALLOWED_WORKDIRS", "MCP_SHELL_ALLOWED_DIRECTORIES"}, {"MCP_SHELL_ENV_ALLOWLIST", "MCP_SHELL_CHILD_ENV_ALLOWLIST"}}
	if len(warned) != len(want) {
		t.Fatalf("start-up warnings %q, want one for each of %v", warned, want)
	}
	for i, w := range want {
		if !strings.Contains(warned[i], "name="+w[0]+" ") || !strings.Contains(warned[i], "nearest="+w[1]) {
			t.Errorf("warning %q, want %s with nearest %s", warned[i], w[0], w[1])
		}
	}
}

// TestEmptyAllowlistWarned: ALLOW_COMMANDS set to an empty value allows
// nothing (not the built-in profile), and start-up says so, naming it.
func TestEmptyAllowlistWarned(t *testing.T) {
	cmd := exec.Command(binary, t.TempDir())
	cmd.Env = []string{"PATH=/usr/bin:/bin", "ALLOW_COMMANDS="}
	cmd.Stdin = strings.NewReader("")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "the allowlist is empty") || !strings.Contains(string(out), "set=ALLOW_COMMANDS") || strings.Contains(string(out), "built-in read-only profile\" commands=") {
		t.Errorf("start-up with ALLOW_COMMANDS empty:\n%s", out)
	}
}
