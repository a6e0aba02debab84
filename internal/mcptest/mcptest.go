// Package mcptest holds what the end-to-end tests of several packages do
// the same way as an MCP client: call a tool and decode its structured
// content, and send a bearer token over HTTP. It is imported by tests
// only.
package mcptest

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callTimeout bounds one tool call: generous, because the e2e suites run
// on loaded CI machines, and a hung call must still fail the test.
const callTimeout = 60 * time.Second

// CallTool calls a tool and decodes its structured content into a map; a
// transport or protocol error fails the test.
func CallTool(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	var m map[string]any
	if r.StructuredContent != nil {
		raw, err := json.Marshal(r.StructuredContent)
		if err == nil {
			err = json.Unmarshal(raw, &m)
		}
		if err != nil {
			t.Fatalf("%s: structured content: %v", name, err)
		}
	}
	return r, m
}

// Bearer is an http.RoundTripper that adds "Authorization: Bearer Token"
// to every request before handing it to Next.
type Bearer struct {
	Token string
	Next  http.RoundTripper
}

// RoundTrip implements http.RoundTripper on a clone of r, as the
// interface requires.
func (b Bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.Token)
	return b.Next.RoundTrip(r)
}
