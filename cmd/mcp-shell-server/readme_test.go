package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/mcptest"
)

// readmeBlocks returns the README's fenced blocks tagged LANG NAME, by
// NAME.
func readmeBlocks(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range regexp.MustCompile("(?s)```[a-z]+ ([a-z-]+)\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		out[m[1]] = m[2]
	}
	return out
}

// quickStart is a README quick-start command line: its variable
// assignments and its directory arguments.
type quickStart struct {
	env  []string
	dirs []string
}

// parseQuickStart reads "NAME=VALUE ... mcp-shell-server DIR..." with
// backslash continuations, as a shell would split it (the blocks use no
// quotes).
func parseQuickStart(t *testing.T, block string) quickStart {
	t.Helper()
	words := strings.Fields(strings.ReplaceAll(block, "\\\n", " "))
	var q quickStart
	i := 0
	for ; i < len(words) && strings.Contains(words[i], "="); i++ {
		q.env = append(q.env, words[i])
	}
	if i == len(words) || words[i] != "mcp-shell-server" {
		t.Fatalf("quick start %q does not run mcp-shell-server after its assignments", block)
	}
	q.dirs = words[i+1:]
	if len(q.dirs) != 1 || !strings.HasPrefix(q.dirs[0], "~/") {
		t.Fatalf("quick start %q: want one directory beneath ~", block)
	}
	return q
}

// startQuickStart starts the binary as the quick start says, serving a
// fresh git repository with a small Go module in place of its directory,
// and connects a client.
func startQuickStart(t *testing.T, q quickStart) (*mcp.ClientSession, string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":  "module example.com/demo\n\ngo 1.22\n",
		"main.go": "package main\n\n// TODO: say more.\nfunc main() { println(\"demo\") }\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if git, err := exec.LookPath("git"); err == nil {
		if out, err := exec.Command(git, "-C", dir, "init", "-q").CombinedOutput(); err != nil {
			t.Fatalf("git init: %v %s", err, out)
		}
	}
	cmd := exec.Command(binary, dir)
	cmd.Env = append([]string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + os.Getenv("HOME"), "MCP_SHELL_LOG_LEVEL=error",
		"MCP_SHELL_AUDIT_LOG=" + filepath.Join(t.TempDir(), "audit.jsonl"), "MCP_SHELL_RETAIN_DIR=" + t.TempDir()}, q.env...)
	cmd.Stderr = os.Stderr
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "readme", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("starting %v: %v", q, err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dir
}

// allowed is the ALLOW_COMMANDS list of a quick start.
func (q quickStart) allowed() []string {
	for _, e := range q.env {
		if v, ok := strings.CutPrefix(e, "ALLOW_COMMANDS="); ok {
			return strings.Split(v, ",")
		}
	}
	return nil
}

// installed reports whether program is in the quick start's
// MCP_SHELL_SAFE_PATH (or the default), where the server looks for it.
func (q quickStart) installed(program string) bool {
	path := childenv.DefaultPath
	for _, tc := range childenv.Toolchains(os.Getenv("HOME")) { // the default's additions
		path += string(filepath.ListSeparator) + tc.Bin
	}
	for _, e := range q.env {
		if v, ok := strings.CutPrefix(e, "MCP_SHELL_SAFE_PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if fi, err := os.Stat(filepath.Join(dir, program)); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// TestREADMEQuickStartDev runs the everyday-development quick start as
// written: the server starts with its allowlist, every call the README
// shows succeeds (a call whose program is missing here is skipped), the
// file the redirection example writes appears, and the commands the
// README says are refused are refused, before anything runs.
func TestREADMEQuickStartDev(t *testing.T) {
	blocks := readmeBlocks(t)
	q := parseQuickStart(t, blocks["quickstart-dev"])
	for _, p := range q.allowed() {
		if out, err := exec.Command(binary, "check", "--", p).CombinedOutput(); err != nil && strings.Contains(string(out), "name.refused") {
			t.Errorf("the quick start allowlists %s, which the policy always refuses", p)
		}
	}
	s, dir := startQuickStart(t, q)
	calls := strings.Split(strings.TrimSpace(blocks["quickstart-dev-calls"]), "\n")
	if len(calls) < 4 {
		t.Fatalf("README shows %d quick-start calls", len(calls))
	}
	for _, line := range calls {
		var args map[string]any
		if err := json.Unmarshal([]byte(line), &args); err != nil {
			t.Fatalf("call %s is not JSON: %v", line, err)
		}
		argv, _ := args["command"].([]any)
		if !q.installed(argv[0].(string)) {
			t.Logf("%s is not installed here: %s skipped", argv[0], line)
			continue
		}
		r, sc := mcptest.CallTool(t, s, "shell_execute", args)
		if r.IsError || sc["exit_code"] != float64(0) {
			t.Errorf("README call %s failed: %v", line, text(r))
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "NOTES.md")); err != nil || string(b) != "# Notes\n" {
		t.Errorf("the redirection example left NOTES.md = %q, %v", b, err)
	}
	readme, _ := os.ReadFile(filepath.Join("..", "..", "README.md"))
	for _, refused := range [][]string{{"go", "generate", "./..."}, {"git", "-c", "core.pager=less", "log"}, {"find", ".", "-exec", "sh"}, {"sort", "-o", "/etc/x"}} {
		if !strings.Contains(string(readme), strings.Join(refused[:min(len(refused), 3)], " ")) {
			t.Errorf("README no longer names %q as refused: update this test with it", refused)
		}
		r, _ := mcptest.CallTool(t, s, "shell_execute", map[string]any{"command": refused})
		if !r.IsError || !strings.Contains(text(r), "rejected") {
			t.Errorf("%q was not refused: %s", refused, text(r))
		}
	}
}

// TestREADMEQuickStartReviewer: the reviewer's server starts as written,
// offers no job tools, reads and searches, and refuses the writers it
// does not list.
func TestREADMEQuickStartReviewer(t *testing.T) {
	q := parseQuickStart(t, readmeBlocks(t)["quickstart-review"])
	if slices.Contains(q.allowed(), "cp") || slices.Contains(q.allowed(), "mv") {
		t.Fatalf("the reviewer allowlist has a writer: %v", q.allowed())
	}
	s, _ := startQuickStart(t, q)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tools, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if strings.HasPrefix(tool.Name, "job_") {
			t.Errorf("the reviewer's server offers %s", tool.Name)
		}
	}
	if r, sc := mcptest.CallTool(t, s, "shell_execute", map[string]any{"command": []string{"grep", "-rn", "TODO", "."}}); r.IsError || sc["exit_code"] != float64(0) {
		t.Errorf("grep in the reviewer's server: %s", text(r))
	}
	if r, _ := mcptest.CallTool(t, s, "shell_execute", map[string]any{"command": []string{"cp", "main.go", "copy.go"}}); !r.IsError || !strings.Contains(text(r), "not allowed") {
		t.Errorf("cp in the reviewer's server: %s", text(r))
	}
}
