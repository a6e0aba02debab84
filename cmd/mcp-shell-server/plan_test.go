package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// TestCheckAndServerAgree: `check --jsonl` and the server take the same
// path from a request to a verdict, so the same request gets the same
// verdict and, when refused, the same code, whatever the reason (argv,
// NUL bytes, per-call variables, the directory, execute_command's
// data-only argv).
func TestCheckAndServerAgree(t *testing.T) {
	env := []string{"ALLOW_COMMANDS=echo,sort,git,find", "MCP_SHELL_CHILD_ENV_ALLOWLIST=LANG,LD_PRELOAD", "MCP_SHELL_TOOLS=shell_execute,execute_command"}
	e := start(t, "", env...)
	rows := []struct {
		argv  []string
		envs  map[string]string
		exact bool
	}{
		{argv: []string{"echo", "hi"}},
		{argv: []string{"echo", "a\x00b"}},
		{argv: []string{"echo", "a\x00b"}, exact: true},
		{argv: []string{"sort", "-o", "/etc/x", "in"}},
		{argv: []string{"find", ".", "-exec", "id", ";"}},
		{argv: []string{"git", "-c", "core.pager=id", "log"}},
		{argv: []string{"bash", "-c", "id"}},
		{argv: []string{"echo", "x"}, envs: map[string]string{"HOME": "/x"}},
		{argv: []string{"echo", "x"}, envs: map[string]string{"LD_PRELOAD": "/x.so"}},
		{argv: []string{"echo", "x"}, envs: map[string]string{"LANG": "C"}},
		{argv: []string{"echo", "|", "sort"}, exact: true},
		{argv: []string{"echo", ";", "sort"}},
	}
	var lines []string
	for i, r := range rows {
		e.callTool(r.argv, r.envs, r.exact)
		line, _ := json.Marshal(map[string]any{"id": i, "argv": r.argv, "envs": r.envs, "exact": r.exact, "directory": e.dir})
		lines = append(lines, string(line))
	}
	cmd := exec.Command(binary, "check", "--jsonl")
	cmd.Env = append([]string{"PATH=/usr/local/bin:/usr/bin:/bin"}, env...)
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("check --jsonl: %v", err)
	}
	verdicts := map[int]map[string]any{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		verdicts[int(v["id"].(float64))] = v
	}
	recs := e.auditRecords()
	if len(recs) != len(rows) {
		t.Fatalf("%d records for %d calls", len(recs), len(rows))
	}
	for i, r := range rows {
		v, rec := verdicts[i], recs[i]
		server := "allow"
		if rec["result_type"] == "rejected" {
			server = "reject"
		}
		if v["verdict"] != server {
			t.Errorf("%q: check says %v, the server %v (%v)", r.argv, v["verdict"], rec["result_type"], rec["reason"])
			continue
		}
		if server == "reject" && v["rule"] != rec["rule"] {
			t.Errorf("%q %v: check's code %v, the server's %v", r.argv, r.envs, v["rule"], rec["rule"])
		}
	}
}

// callTool calls shell_execute, or execute_command when exact.
func (e *e2e) callTool(argv []string, envs map[string]string, exact bool) {
	e.t.Helper()
	if exact {
		if _, err := e.session.CallTool(e.t.Context(), &mcp.CallToolParams{Name: "execute_command", Arguments: map[string]any{"program": argv[0], "args": argv[1:]}}); err != nil {
			e.t.Fatal(err)
		}
		return
	}
	args := map[string]any{"command": argv}
	if envs != nil {
		args["envs"] = envs
	}
	e.call(args)
}

// TestAuditChildEnvIsThePlans: the audit record's child_env names every
// variable the children got, the sandbox's cache variables of a confined
// go stage included (GOCACHE, GOMODCACHE, GOPATH) and its TMPDIR.
func TestAuditChildEnvIsThePlans(t *testing.T) {
	if abi, err := sandbox.KernelABI(); err != nil || abi < sandbox.ABINetwork {
		t.Skip("no Landlock: the sandbox adds no cache variables to a stage it does not confine")
	}
	goBin := testenv.Program(t, "go")
	e := start(t, "", "ALLOW_COMMANDS=go", fmt.Sprintf("MCP_SHELL_SAFE_PATH=%s:/usr/bin:/bin", filepath.Dir(goBin)), "MCP_SHELL_SANDBOX_CACHE_DIR="+t.TempDir())
	if r := e.call(map[string]any{"command": []string{"go", "env", "GOCACHE"}}); r.IsError {
		t.Fatalf("go env: %s", text(r))
	}
	recs := e.auditRecords()
	var names []string
	for _, n := range recs[len(recs)-1]["child_env"].([]any) {
		names = append(names, n.(string))
	}
	for _, want := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "TMPDIR", "PATH"} {
		if !slices.Contains(names, want) {
			t.Errorf("child_env %q lacks %s", names, want)
		}
	}
}
