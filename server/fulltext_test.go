package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFullTextAnswersAreExact: with MCP_SHELL_TEXT_LIMIT_BYTES=0 the text
// items are deferred with the structured output and spliced in as the
// answer goes out, over stdio and over HTTP (every protocol version, so
// the session and the stateless handlers): the client reads the output
// exactly, in the text and in the structured stdout, for a success and a
// tool error, also when the output prints what a placeholder looks like.
func TestFullTextAnswersAreExact(t *testing.T) {
	var b strings.Builder
	for b.Len() < 3*deferTextMin {
		b.WriteString("line \"quoted\" \\ back\x00\x01\t\u2028\u2029 é 日本 {\"text\":\"mcp-shell-deferred-0123456789abcdef-1\"}:\"mcp-shell-deferred-\n")
	}
	want := b.String()
	// One server per transport: the end of a stdio session stops its
	// server.
	newServer := func(t *testing.T) *Server {
		s, _ := newTestServer(t, "cat")
		s.opts.Limits.TextLimit = 0
		if err := os.WriteFile(filepath.Join(s.opts.Policy.AllowedDirs()[0], "big.txt"), []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return s
	}
	check := func(t *testing.T, cs *mcp.ClientSession) {
		t.Helper()
		ctx := context.Background()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"cat", "big.txt"}}})
		if err != nil || r.IsError {
			t.Fatalf("call: %v %.300q", err, resultText(r))
		}
		if got := resultText(r); got != want {
			t.Errorf("text: %d bytes, want the %d of the output exactly (starts %.60q)", len(got), len(want), got)
		}
		m, _ := r.StructuredContent.(map[string]any)
		if got, _ := m["stdout"].(string); got != want {
			t.Errorf("structured stdout: %d bytes, want %d", len(got), len(want))
		}
		r, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"cat", "big.txt", "missing.txt"}}})
		if err != nil || !r.IsError {
			t.Fatalf("failing call: %v %+v", err, r)
		}
		if got := resultText(r); !strings.HasPrefix(got, "Error executing command: Command failed with exit status 1\n"+want) {
			t.Errorf("error text: %d bytes, starts %.80q", len(got), got)
		}
	}
	t.Run("stdio", func(t *testing.T) {
		p := serveStdioPipes(t, newServer(t))
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: p.out, Writer: p.in}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		check(t, cs)
	})
	url := httpServer(t, newServer(t))
	for _, v := range mcp.SupportedProtocolVersions() {
		t.Run("http-"+v, func(t *testing.T) { check(t, connectHTTP(t, url, v, nil)) })
	}
}
