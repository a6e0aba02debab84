package server

import (
	"context"
	"net"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/mcptest"
)

// The per-call dispatch: what a call costs the server besides its
// process. BenchmarkDispatchRefused is a call the policy refuses (nothing
// starts: SDK dispatch, argument decoding and validation, policy, audit
// record, result); BenchmarkDispatchTrue adds the run of true. Both over
// an in-memory session; BenchmarkDispatchRefusedHTTP over Streamable HTTP
// on loopback, where the SDK also checks the request's headers against
// the tool's input schema (see encodedSchema).

func BenchmarkDispatchRefused(b *testing.B) {
	s, _ := newTestServer(b, "true")
	benchCall(b, connect(b, s), []string{"ls"}, true)
}

func BenchmarkDispatchTrue(b *testing.B) {
	s, _ := newTestServer(b, "true")
	benchCall(b, connect(b, s), []string{"true"}, false)
}

func BenchmarkDispatchRefusedHTTP(b *testing.B) {
	s, _ := newTestServer(b, "true")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeStreamable(ctx, ln, HTTPOptions{Token: testToken, MaxBody: 1 << 20}) }()
	b.Cleanup(func() { cancel(); <-done })
	tr := &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp", HTTPClient: &http.Client{Transport: mcptest.Bearer{Token: testToken, Next: http.DefaultTransport}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	benchCall(b, cs, []string{"ls"}, true)
}

// benchCall calls shell_execute with command in a loop; refused says
// whether the answer must be a tool error.
func benchCall(b *testing.B, cs *mcp.ClientSession, command []string, refused bool) {
	params := &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": command}}
	b.ReportAllocs()
	for b.Loop() {
		r, err := cs.CallTool(context.Background(), params)
		if err != nil || r.IsError != refused {
			b.Fatalf("%v: error %v, result %+v", command, err, r)
		}
	}
}
