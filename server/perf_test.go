package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkCat1MiB is a round trip of shell_execute printing 1 MiB of text
// over an in-memory MCP session: the cost of carrying large output.
func BenchmarkCat1MiB(b *testing.B) {
	s, _ := newTestServer(b, "cat")
	dir := s.opts.AllowedDirs[0]
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("0123456789abcde\n", 1<<16)), 0o644); err != nil {
		b.Fatal(err)
	}
	cs := connect(b, s)
	params := &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"cat", "big.txt"}}}
	b.ReportAllocs()
	for b.Loop() {
		r, err := cs.CallTool(context.Background(), params)
		if err != nil || r.IsError {
			b.Fatal(err, r)
		}
	}
}

// BenchmarkStdioCat1MiB is BenchmarkCat1MiB through ServeStdio and the
// framing layer over pipes, the path a stdio client takes: the answer is
// encoded and written by the transport rather than handed over in memory.
func BenchmarkStdioCat1MiB(b *testing.B) {
	s, _ := newTestServer(b, "cat")
	dir := s.opts.AllowedDirs[0]
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("0123456789abcde\n", 1<<16)), 0o644); err != nil {
		b.Fatal(err)
	}
	p := serveStdioPipes(b, s)
	tr := &mcp.IOTransport{Reader: p.out, Writer: p.in}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "0"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	params := &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"cat", "big.txt"}}}
	b.ReportAllocs()
	for b.Loop() {
		r, err := cs.CallTool(context.Background(), params)
		if err != nil || r.IsError {
			b.Fatal(err, r)
		}
	}
}
