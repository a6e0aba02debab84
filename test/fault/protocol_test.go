//go:build linux

// Fault injection with malformed JSON-RPC, a full retain directory (a
// tmpfs): Linux.

package fault

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLargeIDs: an integer id a double cannot hold exactly (just above
// 2^53) is refused on both transports, so two requests never collide; ids
// up to 2^53 are served.
func TestLargeIDs(t *testing.T) {
	const exact, above = "9007199254740992", "9007199254740993"
	s := startStdio(t, "ALLOW_COMMANDS=echo")
	s.send(`{"jsonrpc":"2.0","id":` + exact + `,"method":"tools/list"}`)
	okExact := s.next()["result"] != nil
	s.send(`{"jsonrpc":"2.0","id":` + above + `,"method":"tools/list"}`)
	m := s.next()
	stdioCode := errorCode(m)
	h := startHTTP(t, "ALLOW_COMMANDS=echo")
	const meta = `"params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`
	exactStatus, exactBody := h.raw(t, `{"jsonrpc":"2.0","id":`+exact+`,"method":"tools/list",`+meta+`}`)
	httpExact := strings.Contains(exactBody, `"id":`+exact+`,"result"`)
	status, body := h.raw(t, `{"jsonrpc":"2.0","id":`+above+`,"method":"tools/list",`+meta+`}`)
	var reply map[string]any
	json.Unmarshal([]byte(sseData(body)), &reply)
	httpCode := errorCode(reply)
	t.Logf("stdio: id %s served %v, id %s answered with code %v (%v); http: id %s served %v (status %d), id %s: status %d, code %v",
		exact, okExact, above, stdioCode, m["id"], exact, httpExact, exactStatus, above, status, httpCode)
	if !okExact || !httpExact || stdioCode != -32600 || httpCode != -32600 {
		t.Errorf("want 2^53 served and 2^53+1 refused with -32600 on both transports")
	}
}

// TestProtocolAnswers: a request with an id and no method gets an error
// reply and a record; a second initialize gets a JSON-RPC error code.
func TestProtocolAnswers(t *testing.T) {
	s := startStdio(t, "ALLOW_COMMANDS=echo")
	// A ping follows, so a message left unanswered shows as the ping's
	// answer coming first instead of a hang.
	s.send(`{"jsonrpc":"2.0","id":1}`)
	s.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	noMethod := s.next()
	if noMethod["id"] != "after" {
		s.response("after")
	}
	s.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fault","version":"0"}}}`)
	again := s.response(2)
	s.send(call(3, map[string]any{"command": []string{"echo", "alive"}}))
	alive := text(s.response(3)) == "alive\n"
	s.in.Close()
	for s.next() != nil {
	}
	s.cmd.Wait()
	protocol := 0
	for _, r := range records(t, s.audit) {
		if r["error_type"] == "protocol" {
			protocol++
		}
	}
	h := startHTTP(t, "ALLOW_COMMANDS=echo")
	status, body := h.raw(t, `{"jsonrpc":"2.0","id":1}`)
	var httpReply map[string]any
	json.Unmarshal([]byte(sseData(body)), &httpReply)
	t.Logf("stdio: {id:1} without method answered code %v id %v; second initialize code %v; session alive %v; %d protocol records; http: status %d code %v",
		errorCode(noMethod), noMethod["id"], errorCode(again), alive, protocol, status, errorCode(httpReply))
	if errorCode(noMethod) != -32600 || fmt.Sprint(noMethod["id"]) != "1" || errorCode(again) == 0 || !alive || protocol < 2 {
		t.Errorf("want -32600 with id 1, a non-zero code for the second initialize, the session alive, two protocol records")
	}
	if errorCode(httpReply) != -32600 {
		t.Errorf("http: want -32600 for a request without a method, got status %d body %q", status, body)
	}
}

// TestRetainedOutputGone: resources/read of an evicted output says it was
// evicted and why; once the retain directory is full, a result no longer
// points to read_output for bytes that were never kept.
func TestRetainedOutputGone(t *testing.T) {
	retain := tmpfs(t, 64<<10)
	s := startStdio(t, "ALLOW_COMMANDS=cat", "MCP_SHELL_RETAIN_DIR="+retain, "MCP_SHELL_RETAIN_QUOTA_BYTES=1048576", "MCP_SHELL_RETAIN_BYTES=1048576", "MCP_SHELL_TEXT_LIMIT_BYTES=1000")
	big := strings.Repeat("0123456789abcdef\n", 200<<10/17)
	if err := os.WriteFile(filepath.Join(s.dir, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	s.send(call(1, map[string]any{"command": []string{"cat", "big.txt"}}))
	res := s.response(1)
	out := text(res)
	sc, _ := res["result"].(map[string]any)["structuredContent"].(map[string]any)
	id, _ := sc["output_id"].(string)
	marker := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "[...") {
			marker = l
		}
	}
	// The marker may point to read_output only for the part kept.
	pointsToRead := strings.Contains(marker, "read_output")
	t.Logf("200 KiB output, retain directory of 64 KiB: output_id %q; the text's marker: %q", id, marker)
	if marker == "" || (pointsToRead && !strings.Contains(marker, "up to byte 65536 only")) {
		t.Errorf("the result points to read_output for bytes the full retain directory never kept: %q", marker)
	}
	s.in.Close()
	s.cmd.Wait()

	// Eviction: a quota of two outputs' worth.
	e := startStdio(t, "ALLOW_COMMANDS=cat", "MCP_SHELL_RETAIN_QUOTA_BYTES=4096", "MCP_SHELL_RETAIN_BYTES=2048")
	if err := os.WriteFile(filepath.Join(e.dir, "two.txt"), []byte(strings.Repeat("y", 2048)), 0o644); err != nil {
		t.Fatal(err)
	}
	var first string
	for i := 1; i <= 4; i++ {
		e.send(call(i, map[string]any{"command": []string{"cat", "two.txt"}}))
		r := e.response(i)
		if i == 1 {
			sc, _ := r["result"].(map[string]any)["structuredContent"].(map[string]any)
			first, _ = sc["output_id"].(string)
		}
	}
	e.send(`{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"shell-output://` + first + `/stdout"}}`)
	m := e.response(9)
	msg := fmt.Sprint(m["error"])
	t.Logf("resources/read of the evicted output %s: %s", first, msg)
	if !strings.Contains(msg, "evicted") {
		t.Errorf("resources/read of an evicted output does not say evicted: %v", m)
	}
}

// raw POSTs one stateless (2026-07-28) message with the token and returns
// the status and body.
func (h *httpServer) raw(t *testing.T, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	var m struct{ Method string }
	if json.Unmarshal([]byte(body), &m) == nil && m.Method != "" {
		req.Header.Set("Mcp-Method", m.Method)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// sseData is the data of the first server-sent event in body, or body.
func sseData(body string) string {
	for _, l := range strings.Split(body, "\n") {
		if d, ok := strings.CutPrefix(l, "data: "); ok {
			return d
		}
	}
	return body
}

func errorCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}
