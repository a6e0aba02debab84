package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
)

// testOptions are the options the default configuration gives, allowing
// commands, with a fresh allowed directory.
func testOptions(t testing.TB, commands ...string) Options {
	t.Helper()
	return testOptionsWith(t, policy.Settings{Commands: commands})
}

// testOptionsWith is testOptions for a policy of settings, whose
// AllowedDirs, when empty, is a fresh directory.
func testOptionsWith(t testing.TB, settings policy.Settings) Options {
	t.Helper()
	if len(settings.AllowedDirs) == 0 {
		dir, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		settings.AllowedDirs = []string{dir}
	}
	return Options{
		Limits: Limits{DefaultTimeout: 30 * time.Second, MaxTimeout: 300 * time.Second, OutputLimit: 1 << 20},
		Tools:  []string{"shell_execute"}, MaxConcurrent: 16, SandboxMode: "off",
		Policy:     policy.FromSettings(settings, policy.Sandbox{}),
		Advertised: Allowlist{Commands: settings.Commands},
	}
}

// auditLog collects a server's audit records in memory.
type auditLog struct {
	l   *audit.Logger
	buf bytes.Buffer
}

// String is what has been written so far, once the queue is flushed.
func (a *auditLog) String() string {
	a.l.Flush(context.Background())
	return a.buf.String()
}

// newServer builds a server from o with audit records collected in the
// returned log.
func newServer(t testing.TB, o Options) (*Server, *auditLog) {
	t.Helper()
	log := &auditLog{}
	log.l = audit.New(&log.buf)
	o.Audit = log.l
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s, log
}

// newTestServer is newServer(testOptions(commands)).
func newTestServer(t testing.TB, commands ...string) (*Server, *auditLog) {
	t.Helper()
	return newServer(t, testOptions(t, commands...))
}

func connect(t testing.TB, s *Server) *mcp.ClientSession {
	t.Helper()
	return connectWith(t, s, nil)
}

func connectWith(t testing.TB, s *Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := s.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func records(t *testing.T, log fmt.Stringer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(log.String()), "\n") {
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
	t.Parallel()
	s, buf := newTestServer(t, "echo")
	cs := connect(t, s)
	calls := []struct {
		tool string
		args map[string]any
		want audit.Result
		kind audit.ErrorKind
	}{
		{"shell_execute", map[string]any{"command": []string{"echo", "hi"}}, audit.Success, ""},
		{"shell_execute", map[string]any{"command": []string{"rm", "x"}}, audit.Rejected, ""},
		{"shell_execute", map[string]any{"command": "echo"}, audit.InvalidRequest, audit.KindInvalidArguments},
		{"shell_execute", map[string]any{"command": []string{"echo"}, "bogus": true}, audit.InvalidRequest, audit.KindInvalidArguments},
		{"shell_execute", map[string]any{"command": []string{"echo"}, "directory": "/"}, audit.Rejected, ""},
		{"no_such_tool", map[string]any{}, audit.InvalidRequest, audit.KindProtocol},
	}
	for _, c := range calls {
		cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
	}
	recs := records(t, buf)
	if len(recs) != len(calls) {
		t.Fatalf("%d audit records for %d calls", len(recs), len(calls))
	}
	for i, c := range calls {
		if recs[i]["result_type"] != string(c.want) || recs[i]["error_type"] != nonEmpty(string(c.kind)) {
			t.Errorf("call %d %v: result_type %v error_type %v, want %s %q", i, c.args, recs[i]["result_type"], recs[i]["error_type"], c.want, c.kind)
		}
	}
	if recs[1]["rule"] != string(policy.CodeNotAllowed) || !strings.Contains(recs[1]["rejection_reason"].(string), "rm") {
		t.Errorf("rejection record %v", recs[1])
	}
}

// nonEmpty is s, or nil for "": how an absent JSON field decodes.
func nonEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// TestSchemaErrorText pins the client's text for arguments that fail the
// schema: the reference's prefix, one sentence naming the field and the
// bound (issue 18 item 10: not "0/1 is less than 1.000000"), the reminder.
func TestSchemaErrorText(t *testing.T) {
	t.Parallel()
	o := testOptions(t, "echo")
	o.Tools = []string{"shell_execute", "execute_command"}
	s, _ := newServer(t, o)
	cs := connect(t, s)
	const shape = ` (expected {"command": ["program", "arg", ...]} with optional "stdin", "directory", "timeout" (integer seconds >= 1), "envs"; execute_command takes "program", "args", "cwd", "timeout_ms" (1..600000), "stdin")`
	long := make([]string, MaxArgs+1)
	for i := range long {
		long[i] = "x"
	}
	for _, tt := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"shell_execute", map[string]any{}, `"command" is required`},
		{"shell_execute", map[string]any{"command": "echo"}, `"command" must be an array of strings, not a string ("echo")`},
		{"shell_execute", map[string]any{"command": nil}, `"command" must be an array of strings, not null`},
		{"shell_execute", map[string]any{"command": []any{}}, `"command" must have at least 1 element, got 0`},
		{"shell_execute", map[string]any{"command": long}, `"command" must have at most 4096 elements, got 4097`},
		{"shell_execute", map[string]any{"command": []any{"echo", 1}}, `"command" element 1 must be a string, not a number (1)`},
		{"shell_execute", map[string]any{"command": []string{"echo"}, "bogus": true}, `unknown field "bogus"; the fields are command, directory, envs, stdin, timeout`},
		{"shell_execute", map[string]any{"command": []string{"echo"}, "timeout": 0}, `"timeout" must be at least 1, got 0`},
		{"shell_execute", map[string]any{"command": []string{"echo"}, "timeout": "5"}, `"timeout" must be an integer, not a string ("5")`},
		{"shell_execute", map[string]any{"command": []string{"echo"}, "timeout": 1.5}, `"timeout" must be an integer, not a number (1.5)`},
		{"shell_execute", map[string]any{"command": []string{"echo"}, "timeout": true}, `"timeout" must be an integer, not a boolean (true)`},
		{"shell_execute", map[string]any{"command": []string{"echo"}, "directory": nil}, `"directory" must be a string, not null`},
		{"shell_execute", map[string]any{"command": []string{"echo"}, "envs": map[string]any{"LANG": 1}}, `"envs" entry "LANG" must be a string, not a number (1)`},
		{"execute_command", map[string]any{"program": "echo", "timeout_ms": 0}, `"timeout_ms" must be at least 1, got 0`},
		{"execute_command", map[string]any{"program": "echo", "timeout_ms": 700000}, `"timeout_ms" must be at most 600000, got 700000`},
		{"execute_command", map[string]any{"program": ""}, `"program" must not be empty`},
		{"execute_command", map[string]any{"args": []string{"x"}}, `"program" is required`},
	} {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
		if want := "Input validation error: " + tt.want + shape; err != nil || !r.IsError || resultText(r) != want {
			t.Errorf("%s %v: err %v, text\n%s\nwant\n%s", tt.tool, tt.args, err, resultText(r), want)
		}
	}
}

// TestExplainInvalidFallsBack: explainInvalid finds nothing in a valid
// value (the validator's text is then kept) and names a non-object.
func TestExplainInvalidFallsBack(t *testing.T) {
	t.Parallel()
	if got := explainInvalid(shellInputSchema(), map[string]any{"command": []any{"echo"}, "timeout": 2.0}); got != "" {
		t.Errorf("valid arguments explained as %q", got)
	}
	if got := explainInvalid(shellInputSchema(), []any{"echo"}); got != "the arguments must be an object, not an array" {
		t.Errorf("non-object: %q", got)
	}
}

func TestPanicBecomesToolError(t *testing.T) {
	t.Parallel()
	s, buf := newTestServer(t, "echo")
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
	if len(recs) != 1 || recs[0]["result_type"] != string(audit.ServerError) || recs[0]["error_type"] != string(audit.KindPanic) {
		t.Fatalf("audit %v", recs)
	}
}

// TestShutdownTerminatesRunningCalls: Shutdown kills a running call's
// process group and returns only once the call has been audited.
func TestShutdownTerminatesRunningCalls(t *testing.T) {
	t.Parallel()
	s, buf := newTestServer(t, "sleep")
	running := make(chan struct{}, 1)
	cs := connectWith(t, s, &mcp.ClientOptions{ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
		select {
		case running <- struct{}{}:
		default:
		}
	}})
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		params := &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"sleep", "30"}}}
		params.SetProgressToken("p")
		r, _ := cs.CallTool(context.Background(), params)
		done <- r
	}()
	<-running // the first progress notification: the child has started
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	recs := records(t, buf) // written before Shutdown returned
	if len(recs) != 1 || recs[0]["result_type"] != string(audit.Cancelled) {
		t.Fatalf("audit at Shutdown's return: %v", recs)
	}
	if r := <-done; r == nil || !r.IsError || !strings.Contains(resultText(r), "cancelled") {
		t.Fatalf("running call after Shutdown: %+v", r)
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatalf("second Shutdown: %v", err)
	}
}

// TestCallsAfterShutdownAreCancelledAtOnce: nothing starts once Shutdown
// has begun, and the refusal is still audited.
func TestCallsAfterShutdownAreCancelledAtOnce(t *testing.T) {
	t.Parallel()
	s, buf := newTestServer(t, "sleep")
	cs := connect(t, s)
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"sleep", "30"}}})
	if err != nil || !r.IsError || !strings.Contains(resultText(r), "cancelled") {
		t.Fatalf("call after Shutdown: %v %+v", err, r)
	}
	recs := records(t, buf)
	if len(recs) != 1 || recs[0]["result_type"] != string(audit.Cancelled) || recs[0]["error"] != "the server is shutting down" || recs[0]["stdout_bytes"] != 0.0 {
		t.Fatalf("audit %v", recs)
	}
}

func TestDescriptionIsSortedAndStable(t *testing.T) {
	t.Parallel()
	o := testOptions(t)
	o.Advertised = Allowlist{Commands: []string{"zz", "aa", "mm"}, Patterns: []string{"x[0-9]"}}
	s, _ := newServer(t, o)
	d := s.description("lead", 30*time.Second, true)
	if !strings.Contains(d, "Allowed commands: aa, mm, zz") || !strings.Contains(d, "Allowed patterns: x[0-9]") || !strings.Contains(d, "output cap: 1048576 bytes") {
		t.Errorf("description %q", d)
	}
}

// TestDescriptionListsRefusedNamesApart follows issue 18 item 2: an
// allowlisted name the policy always refuses is not advertised as allowed.
func TestDescriptionListsRefusedNamesApart(t *testing.T) {
	t.Parallel()
	o := testOptions(t)
	o.Advertised = Allowlist{Commands: []string{"sh", "ls", "bash", "git", "python3.12"}}
	s, _ := newServer(t, o)
	d := s.description("lead", 30*time.Second, true)
	for _, want := range []string{"Allowed commands: git, ls\n", "Always refused by the security policy although listed: bash, python3.12, sh\n"} {
		if !strings.Contains(d, want) {
			t.Errorf("description lacks %q:\n%s", want, d)
		}
	}
}

func TestPrefixChars(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	s, buf := newTestServer(t, "echo")
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
	if !strings.Contains(line, "https://[REDACTED]@git.example.invalid/org/repo.git") {
		t.Errorf("audit lost the readable URL: %s", line)
	}
}

// TestOutputsMatchTheirSchemas stands in for the validation pass the typed
// SDK registration would run on every call (addTool skips it).
func TestOutputsMatchTheirSchemas(t *testing.T) {
	t.Parallel()
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

// TestInitializeNamesOnlyExposedTools follows issue 18 item 8: the
// instructions name only the tools exposed, and tools.listChanged is not
// advertised (the list never changes).
func TestInitializeNamesOnlyExposedTools(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		tools         []string
		named, absent string
	}{
		{[]string{"shell_execute"}, "shell_execute", "execute_command"},
		{[]string{"execute_command"}, "execute_command", "shell_execute"},
		{[]string{"shell_execute", "execute_command"}, "execute_command takes", ""},
	} {
		o := testOptions(t)
		o.Tools = tt.tools
		s, _ := newServer(t, o)
		init := connect(t, s).InitializeResult()
		if !strings.Contains(init.Instructions, tt.named) || tt.absent != "" && strings.Contains(init.Instructions, tt.absent) {
			t.Errorf("tools %v: instructions %q", tt.tools, init.Instructions)
		}
		if init.Capabilities.Tools == nil || init.Capabilities.Tools.ListChanged {
			t.Errorf("tools %v: capabilities.tools %+v, want present without listChanged", tt.tools, init.Capabilities.Tools)
		}
	}
}
