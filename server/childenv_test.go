package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
)

// TestRealToolsWorkInTheChildEnvironment: with the child HOME the operator
// configures (by default the server's), git commit finds the user's
// identity in ~/.gitconfig and go build finds a cache directory (both
// fail with no HOME at all).
func TestRealToolsWorkInTheChildEnvironment(t *testing.T) {
	testenv.Programs(t, "git", "go")
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = Test User\n\temail = test@example.invalid\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := testOptionsWith(t, policy.Settings{Commands: []string{"git", "go"},
		ChildEnv: childenv.Config{Home: home, SafePath: "/usr/local/go/bin:" + childenv.DefaultPath}})
	// go starts with a cold build cache: seconds for the package below,
	// more on a loaded CI machine.
	o.Limits.DefaultTimeout, o.Limits.MaxTimeout = 5*time.Minute, 5*time.Minute
	s, _ := newServer(t, o)
	cs := connect(t, s)
	work := o.Policy.AllowedDirs()[0]
	os.WriteFile(filepath.Join(work, "go.mod"), []byte("module example.invalid/m\n\ngo 1.22\n"), 0o644)
	// A package without imports: go build needs a cache directory for it,
	// but does not compile the runtime into the empty cache (minutes).
	os.WriteFile(filepath.Join(work, "m.go"), []byte("package m\n\nfunc F() int { return 1 }\n"), 0o644)
	for _, argv := range [][]string{
		{"git", "init", "-q"},
		{"git", "add", "go.mod"},
		{"git", "commit", "-q", "-m", "first"},
		{"git", "log", "--format=%an <%ae>"},
		{"go", "build", "-o", "m.a", "."},
	} {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": argv}})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			t.Fatalf("%q failed: %s", argv, text(res))
		}
		if argv[1] == "log" && !strings.Contains(text(res), "Test User <test@example.invalid>") {
			t.Errorf("git log says %q, want the identity from ~/.gitconfig", text(res))
		}
	}
	if _, err := os.Stat(filepath.Join(work, "m.a")); err != nil {
		t.Errorf("go build produced nothing: %v", err)
	}
}

// text joins a result's text content.
func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
