package server

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/mcptest"
)

// request sends one JSON-RPC request of method with params (marshalled)
// and returns the response to it.
func (r *rawStdio) request(id int, method string, params any) map[string]any {
	r.t.Helper()
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		r.t.Fatal(err)
	}
	r.send(string(b))
	return r.replyTo(float64(id))
}

// result is a response's result, failing the test on an error response.
func result(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	res, ok := m["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result: %v", m)
	}
	return res
}

// startJob starts echo as a background job over r and waits for its end;
// it returns the job id.
func (r *rawStdio) startJob(id int) string {
	r.t.Helper()
	res := result(r.t, r.request(id, "tools/call", map[string]any{"name": "shell_execute", "arguments": map[string]any{"command": []string{"echo", "hi"}, "background": true}}))
	sc, _ := res["structuredContent"].(map[string]any)
	job, _ := sc["job_id"].(string)
	if job == "" {
		r.t.Fatalf("no job id: %v", res)
	}
	result(r.t, r.request(id+1, "tools/call", map[string]any{"name": "job_status", "arguments": map[string]any{"id": job, "wait": 30}}))
	return job
}

// TestEmptyStreamReadsAsEmptyText: a retained stream that is empty (a
// job's stderr, mostly) reads as a text content with "text": "" on the
// wire, which MCP requires of a text resource; the SDK's encoder would
// leave the member out.
func TestEmptyStreamReadsAsEmptyText(t *testing.T) {
	t.Parallel()
	s, _, _ := newJobServer(t, jobOptions(t, "echo"))
	r := newRawStdio(t, s)
	job := r.startJob(1)
	for stream, want := range map[string]string{"stderr": "", "stdout": "hi\n"} {
		res := result(t, r.request(10, "resources/read", map[string]any{"uri": outputURI(job, stream)}))
		contents, _ := res["contents"].([]any)
		if len(contents) != 1 {
			t.Fatalf("%s: contents %v", stream, res)
		}
		c := contents[0].(map[string]any)
		if text, ok := c["text"].(string); !ok || text != want || c["uri"] != outputURI(job, stream) || res["cacheScope"] != "private" {
			t.Errorf("%s read as %v, want text %q", stream, res, want)
		}
	}
}

// TestJobLinksFollowTheProtocolRevision: a call that became a job links
// its streams with resource_link content where the session's revision
// defines it (2025-06-18 on), and names the same URIs in a text line for
// the older revisions, whose clients reject an unknown content type.
func TestJobLinksFollowTheProtocolRevision(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		t.Run(v, func(t *testing.T) {
			s, _, _ := newJobServer(t, jobOptions(t, "echo"))
			r := newRawStdioAt(t, s, v)
			res := result(t, r.request(1, "tools/call", map[string]any{"name": "shell_execute", "arguments": map[string]any{"command": []string{"echo", "hi"}, "background": true}}))
			job := res["structuredContent"].(map[string]any)["job_id"].(string)
			var types []string
			var text strings.Builder
			for _, c := range res["content"].([]any) {
				c := c.(map[string]any)
				types = append(types, c["type"].(string))
				if c["type"] == "text" {
					text.WriteString(c["text"].(string))
				}
			}
			want := "text,resource_link,resource_link"
			if v < linksFrom {
				want = "text,text"
				for _, stream := range []string{"stdout", "stderr"} {
					if !strings.Contains(text.String(), outputURI(job, stream)) {
						t.Errorf("the text does not name %s: %q", outputURI(job, stream), text.String())
					}
				}
			}
			if got := strings.Join(types, ","); got != want {
				t.Errorf("content types %s, want %s", got, want)
			}
			if !strings.Contains(text.String(), fmt.Sprintf("background job %s", job)) {
				t.Errorf("the text does not give the job id: %q", text.String())
			}
		})
	}
}

// TestIntegralNumbersAreIntegers: an integer field takes every JSON
// spelling of an integer (2.0, 1e3, 1000.0), as JSON Schema's "integer"
// does; Go's decoder alone refuses them for an int64 with its own text.
func TestIntegralNumbersAreIntegers(t *testing.T) {
	t.Parallel()
	o := testOptions(t, "echo")
	o.Tools = []string{"shell_execute", "execute_command"}
	s, _ := newServer(t, o)
	r := newRawStdio(t, s)
	for i, tt := range []struct{ args, field string }{
		{`{"command":["echo","x"],"timeout":2.0}`, ""},
		{`{"command":["echo","x"],"timeout":2e0}`, ""},
		{`{"program":"echo","args":["x"],"timeout_ms":1e3}`, "timeout_ms"},
		{`{"program":"echo","args":["x"],"timeout_ms":1000.0}`, "timeout_ms"},
		{`{"program":"echo","args":["x"],"timeoutMs":1000.000}`, "timeout_ms"},
	} {
		tool := "shell_execute"
		if strings.Contains(tt.args, "program") {
			tool = "execute_command"
		}
		r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, i+1, tool, tt.args))
		res := result(t, r.replyTo(float64(i+1)))
		if res["isError"] == true {
			t.Errorf("%s: %v", tt.args, res)
			continue
		}
		if sc, _ := res["structuredContent"].(map[string]any); tt.field != "" && sc[tt.field] != 1000.0 {
			t.Errorf("%s: %s %v, want 1000", tt.args, tt.field, sc[tt.field])
		}
	}
}

// TestExecJobTimeoutDefaultsToTheJobMaximum: a background execute_command
// without timeout_ms runs up to the job maximum, as its schema says, not
// the tool's foreground default (120 s); with one, that one (in either
// spelling), clamped to the job maximum.
func TestExecJobTimeoutDefaultsToTheJobMaximum(t *testing.T) {
	t.Parallel()
	o := jobOptions(t, "echo")
	o.Tools = []string{"shell_execute", "execute_command"}
	o.Jobs.MaxJobTime = 900 * time.Second
	_, cs, _ := newJobServer(t, o)
	for _, tt := range []struct {
		args map[string]any
		want float64
	}{
		{map[string]any{}, 900},
		{map[string]any{"timeout_ms": 5000}, 5},
		{map[string]any{"timeoutMs": 7000}, 7},
		{map[string]any{"timeout_ms": 600000}, 600},
	} {
		args := map[string]any{"program": "echo", "background": true}
		maps.Copy(args, tt.args)
		_, m := mcptest.CallTool(t, cs, "execute_command", args)
		_, st := mcptest.CallTool(t, cs, "job_status", map[string]any{"id": m["job_id"]})
		if st["timeout_seconds"] != tt.want {
			t.Errorf("%v: job timeout %v, want %v", tt.args, st["timeout_seconds"], tt.want)
		}
	}
	// In the foreground the tool's default applies, clamped to the
	// server maximum (300 s here).
	_, m := mcptest.CallTool(t, cs, "execute_command", map[string]any{"program": "echo"})
	if m["timeout_ms"] != 120000.0 {
		t.Errorf("foreground timeout_ms %v, want 120000", m["timeout_ms"])
	}
}
