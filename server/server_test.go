package server

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/config"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
)

// newTestServer builds a server over cfg's environment with audit records
// collected in the returned buffer.
func newTestServer(t testing.TB, env map[string]string) (*Server, *bytes.Buffer) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadFrom(env, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	s, err := New(Options{Config: cfg, Policy: policy.FromSettings(cfg.PolicySettings()), Audit: audit.New(&buf)})
	if err != nil {
		t.Fatal(err)
	}
	return s, &buf
}

func connect(t testing.TB, s *Server) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := s.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func records(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func TestOneAuditRecordPerCall(t *testing.T) {
	s, buf := newTestServer(t, map[string]string{"ALLOW_COMMANDS": "echo"})
	cs := connect(t, s)
	calls := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"command": []string{"echo", "hi"}}, "success"},
		{map[string]any{"command": []string{"rm", "x"}}, "rejected"},
		{map[string]any{"command": "echo"}, "invalid_request"},
		{map[string]any{"command": []string{"echo"}, "bogus": true}, "invalid_request"},
		{map[string]any{"command": []string{"echo"}, "directory": "/"}, "rejected"},
	}
	for _, c := range calls {
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "shell_execute", Arguments: c.args}); err != nil {
			t.Fatal(err)
		}
	}
	recs := records(t, buf)
	if len(recs) != len(calls) {
		t.Fatalf("%d audit records for %d calls", len(recs), len(calls))
	}
	for i, c := range calls {
		if recs[i]["result_type"] != c.want {
			t.Errorf("call %d %v: result_type %v, want %s", i, c.args, recs[i]["result_type"], c.want)
		}
	}
	if recs[1]["rule"] != string(policy.CodeNotAllowed) || !strings.Contains(recs[1]["rejection_reason"].(string), "rm") {
		t.Errorf("rejection record %v", recs[1])
	}
}

func TestPanicBecomesToolError(t *testing.T) {
	s, buf := newTestServer(t, map[string]string{"ALLOW_COMMANDS": "echo"})
	h := s.auditMiddleware(func(context.Context, string, mcp.Request) (mcp.Result, error) { panic("boom") })
	res, err := h(context.Background(), "tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "shell_execute"}})
	if err != nil {
		t.Fatal(err)
	}
	r, ok := res.(*mcp.CallToolResult)
	if !ok || !r.IsError || strings.Contains(resultText(r), "boom") {
		t.Fatalf("result %+v: want a tool error that hides the panic value", res)
	}
	recs := records(t, buf)
	if len(recs) != 1 || recs[0]["result_type"] != "server_error" {
		t.Fatalf("audit %v", recs)
	}
}

func TestShutdownCancelsRunningCalls(t *testing.T) {
	s, _ := newTestServer(t, map[string]string{"ALLOW_COMMANDS": "sleep"})
	cs := connect(t, s)
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		r, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"sleep", "30"}}})
		done <- r
	}()
	// Shutdown must wait for a call that is already running; one that
	// starts after it is cancelled at once. Either way the call ends.
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatalf("second Shutdown: %v", err)
	}
	if r := <-done; r == nil || !r.IsError {
		t.Fatalf("call after shutdown: %+v", r)
	}
}

func TestDescriptionIsSortedAndStable(t *testing.T) {
	s, _ := newTestServer(t, map[string]string{"ALLOW_COMMANDS": "zz,aa,mm", "ALLOW_PATTERNS": "x[0-9]"})
	d := s.description("lead")
	if !strings.Contains(d, "Allowed commands: aa, mm, zz") || !strings.Contains(d, "Allowed patterns: x[0-9]") || !strings.Contains(d, "output cap: 1048576 bytes") {
		t.Errorf("description %q", d)
	}
}

func TestOverlayHardeningWins(t *testing.T) {
	got := overlay([]string{"GIT_PAGER=less", "LANG=C", "PATH=/bin"}, []string{"GIT_PAGER=cat", "GIT_PROXY_COMMAND="})
	want := []string{"LANG=C", "PATH=/bin", "GIT_PAGER=cat", "GIT_PROXY_COMMAND="}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("overlay = %q, want %q", got, want)
	}
}

func TestPrefixChars(t *testing.T) {
	for _, tt := range []struct {
		text string
		n    int
		want int
	}{{"abc", 2, 2}, {"abc", 5, 3}, {"héllo", 2, 3}, {"", 3, 0}, {"\xff\xfeab", 2, 2}} {
		if got := prefixChars(tt.text, tt.n); got != tt.want {
			t.Errorf("prefixChars(%q, %d) = %d, want %d", tt.text, tt.n, got, tt.want)
		}
	}
}

// TestAuditRedactsCredentials follows bugreport br-30: the child gets the
// argv unchanged, the audit record masks credentials.
func TestAuditRedactsCredentials(t *testing.T) {
	s, buf := newTestServer(t, map[string]string{"ALLOW_COMMANDS": "echo"})
	cs := connect(t, s)
	args := []string{"echo", "https://user:s3cr3t-value@git.example.invalid/org/repo.git", "telegram.token=abc123", "Bearer eyJhbGciOi"}
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": args}})
	if err != nil || r.IsError {
		t.Fatalf("call: %v %v", err, r)
	}
	if got := resultText(r); got != strings.Join(args[1:], " ")+"\n" {
		t.Errorf("child saw %q", got)
	}
	line := buf.String()
	for _, secret := range []string{"s3cr3t-value", "abc123", "eyJhbGciOi"} {
		if strings.Contains(line, secret) {
			t.Errorf("audit leaks %q: %s", secret, line)
		}
	}
	if !strings.Contains(line, "https://user:***@git.example.invalid/org/repo.git") {
		t.Errorf("audit lost the readable URL: %s", line)
	}
}

// TestOutputsMatchTheirSchemas stands in for the validation pass the typed
// SDK registration would run on every call (addTool skips it).
func TestOutputsMatchTheirSchemas(t *testing.T) {
	code, sig := 0, "SIGKILL"
	shell, err := shellOutputSchema()
	if err != nil {
		t.Fatal(err)
	}
	exec, err := jsonschema.For[ExecOutput](nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		schema *jsonschema.Schema
		out    any
	}{
		{shell, &ShellOutput{Stdout: "x", Status: 0, ExitCode: &code, Stages: []StageOutput{{Command: "echo", ExitCode: &code}}}},
		{shell, &ShellOutput{Status: -1, Signal: &sig, TimedOut: true, Stages: []StageOutput{{Command: "sleep", Signal: &sig}}}},
		{shell, structured(runner.Result{})},
		{exec, &ExecOutput{ExitCode: &code, Stdout: "\u0000\ufffd"}},
		{exec, &ExecOutput{TimedOut: true, Signal: &sig}},
	} {
		resolved, err := c.schema.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(c.out)
		var v any
		json.Unmarshal(raw, &v)
		if err := resolved.Validate(v); err != nil {
			t.Errorf("%s does not match its schema: %v", raw, err)
		}
	}
}
