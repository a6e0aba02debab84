package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
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
