package server

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
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

// rpcError is a response's error code, or 0 when it has none.
func rpcError(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return code
}

// TestServedMethodsAreTheAdvertisedOnes: initialize advertises tools
// without listChanged and, with retention, resources with subscribe and
// without listChanged (the list is always empty); a method of a
// capability not advertised (logging, prompts, completions, resources
// without retention) is method not found, not an empty answer.
func TestServedMethodsAreTheAdvertisedOnes(t *testing.T) {
	t.Parallel()
	for _, retain := range []bool{false, true} {
		t.Run(fmt.Sprint("retention ", retain), func(t *testing.T) {
			o := testOptions(t, "echo")
			if retain {
				o = jobOptions(t, "echo")
			}
			s, _ := newServer(t, o)
			t.Cleanup(func() { s.Shutdown(t.Context()) })
			r := openRawStdio(t, s)
			init := result(t, r.request(0, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "raw", "version": "0"}}))
			caps, _ := json.Marshal(init["capabilities"])
			want := `{"tools":{}}`
			if retain {
				want = `{"resources":{"subscribe":true},"tools":{}}`
			}
			if string(caps) != want {
				t.Errorf("capabilities %s, want %s", caps, want)
			}
			r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			calls := []struct {
				method string
				params any
				served bool
			}{
				{"tools/list", map[string]any{}, true},
				{"ping", map[string]any{}, true},
				{"logging/setLevel", map[string]any{"level": "info"}, false},
				{"prompts/list", map[string]any{}, false},
				{"prompts/get", map[string]any{"name": "x"}, false},
				{"completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "x"}, "argument": map[string]any{"name": "a", "value": "b"}}, false},
				{"resources/list", map[string]any{}, retain},
				{"resources/templates/list", map[string]any{}, retain},
				{"bogus/method", map[string]any{}, false},
			}
			for i, c := range calls {
				m := r.request(i+1, c.method, c.params)
				if code := rpcError(m); c.served && code != 0 || !c.served && code != -32601 {
					t.Errorf("%s: %v, want served %v", c.method, m, c.served)
				}
			}
		})
	}
}

// TestRequestBeforeInitializeIsAnInvalidRequest: the SDK refuses a
// request before initialize with code 0, which no JSON-RPC range holds;
// the answer carries -32600 and the SDK's sentence.
func TestRequestBeforeInitializeIsAnInvalidRequest(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, "echo")
	r := openRawStdio(t, s)
	m := r.request(1, "tools/list", map[string]any{})
	if rpcError(m) != -32600 || !strings.Contains(fmt.Sprint(m["error"]), beforeInitialize) {
		t.Fatalf("tools/list before initialize: %v", m)
	}
	if m := r.request(2, "ping", map[string]any{}); rpcError(m) != 0 {
		t.Errorf("ping before initialize: %v", m)
	}
}

// TestBatchesAt20250326: a session at 2025-03-26, whose revision says
// receivers must accept JSON-RPC batches, gets one array answering each
// request of the batch (tool results whole, an invalid element's error
// among them) and nothing for its notifications; other revisions get one
// error per request, as before.
func TestBatchesAt20250326(t *testing.T) {
	t.Parallel()
	const batch = `[{"jsonrpc":"2.0","id":11,"method":"ping"},` +
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"x","progress":1}},` +
		`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"shell_execute","arguments":{"command":["echo","in a batch"]}}},` +
		`{"jsonrpc":"2.0","id":13,"method":5},` +
		`{"jsonrpc":"2.0","id":14,"method":"tools/list"}]`
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		t.Run(v, func(t *testing.T) {
			s, _ := newTestServer(t, "echo")
			r := newRawStdioAt(t, s, v)
			r.send(batch)
			if !r.out.Scan() {
				t.Fatal("no answer")
			}
			var answers []map[string]any
			if err := json.Unmarshal(r.out.Bytes(), &answers); err != nil {
				t.Fatalf("answer %s: %v", r.out.Bytes(), err)
			}
			byID := map[float64]map[string]any{}
			for _, a := range answers {
				byID[a["id"].(float64)] = a
			}
			if len(answers) != 4 || len(byID) != 4 {
				t.Fatalf("%d answers for 4 requests: %s", len(answers), r.out.Bytes())
			}
			if v != "2025-03-26" {
				for id, a := range byID {
					if rpcError(a) != -32600 {
						t.Errorf("id %v: %v, want the batch refused", id, a)
					}
				}
				return
			}
			if rpcError(byID[11]) != 0 || rpcError(byID[14]) != 0 || rpcError(byID[13]) != -32600 {
				t.Errorf("answers %s", r.out.Bytes())
			}
			res := result(t, byID[12])
			if sc, _ := res["structuredContent"].(map[string]any); sc["stdout"] != "in a batch\n" {
				t.Errorf("tools/call in the batch: %v", res)
			}
			// The session goes on, one message per line.
			if m := r.request(20, "ping", map[string]any{}); rpcError(m) != 0 {
				t.Errorf("after the batch: %v", m)
			}
		})
	}
}

// TestHTTPUnservedMethodsAreJSONRPC: over Streamable HTTP a request of a
// method the server does not serve gets a JSON-RPC -32601 error (the SDK
// answered HTTP 400 text/plain), an unknown notification 202, and a
// request without a session other than initialize a JSON-RPC -32600
// error with HTTP 400 (the SDK opened a session for it and answered with
// code 0).
func TestHTTPUnservedMethodsAreJSONRPC(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t, "echo")
	url := httpServer(t, s)
	post := func(session, body string) (*http.Response, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set(sessionHeader, session)
			req.Header.Set(protocolHeader, "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		var m map[string]any
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			for _, line := range strings.Split(string(data), "\n") {
				if d, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(d, `"id"`) {
					data = []byte(d)
				}
			}
		}
		json.Unmarshal(data, &m)
		return resp, m
	}
	resp, _ := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	session := resp.Header.Get(sessionHeader)
	if session == "" {
		t.Fatal("no session")
	}
	post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, tt := range []struct {
		name, session, body string
		status              int
		code                float64
	}{
		{"unknown method", session, `{"jsonrpc":"2.0","id":2,"method":"bogus/method"}`, 200, -32601},
		{"capability not offered", session, `{"jsonrpc":"2.0","id":3,"method":"prompts/list"}`, 200, -32601},
		{"served method", session, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`, 200, 0},
		{"unknown notification", session, `{"jsonrpc":"2.0","method":"notifications/bogus"}`, 202, 0},
		{"no session", "", `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, 400, -32600},
	} {
		resp, m := post(tt.session, tt.body)
		if resp.StatusCode != tt.status || rpcError(m) != tt.code || tt.status != 202 && m["jsonrpc"] != "2.0" {
			t.Errorf("%s: HTTP %d %s %v, want HTTP %d code %v", tt.name, resp.StatusCode, resp.Header.Get("Content-Type"), m, tt.status, tt.code)
		}
	}
}
