package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/mcptest"
)

const testToken = "test-token-0123456789abcdef"

// httpServer serves s over Streamable HTTP on a loopback port until the
// test ends, and returns the /mcp URL.
func httpServer(t *testing.T, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeStreamable(ctx, ln, HTTPOptions{Token: testToken, MaxBody: 1 << 20}) }()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String() + "/mcp"
}

// connectHTTP connects an SDK client asking for protocol version.
func connectHTTP(t *testing.T, url, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: mcptest.Bearer{Token: testToken, Next: http.DefaultTransport}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, opts).Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect at %s: %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// notifyingLog signals every audit line written.
type notifyingLog struct {
	lines chan map[string]any
}

func (n notifyingLog) Write(p []byte) (int, error) {
	var m map[string]any
	if json.Unmarshal(p, &m) == nil {
		n.lines <- m
	}
	return len(p), nil
}

// newNotifyingServer builds a server whose audit records arrive on the
// returned channel.
func newNotifyingServer(t *testing.T, commands ...string) (*Server, <-chan map[string]any) {
	t.Helper()
	o := testOptions(t, commands...)
	n := notifyingLog{make(chan map[string]any, 100)}
	o.Audit = audit.New(n)
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s, n.lines
}

func nextRecord(t *testing.T, recs <-chan map[string]any) map[string]any {
	t.Helper()
	select {
	case r := <-recs:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no audit record within 10s")
		return nil
	}
}

// startedCall starts a long call with a progress token and returns once
// its child runs (the first progress notification), with the call's
// cancel and its result channel.
func startedCall(t *testing.T, cs *mcp.ClientSession, progress <-chan struct{}) (context.CancelFunc, <-chan error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		p := &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"sleep", "30"}}}
		p.SetProgressToken("p")
		_, err := cs.CallTool(ctx, p)
		errc <- err
	}()
	select {
	case <-progress:
	case <-time.After(10 * time.Second):
		t.Fatal("the call never started")
	}
	return cancel, errc
}

func progressSignal() (*mcp.ClientOptions, <-chan struct{}) {
	ch := make(chan struct{}, 1)
	return &mcp.ClientOptions{ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
		select {
		case ch <- struct{}{}:
		default:
		}
	}}, ch
}

// TestHTTPServesEveryProtocolVersion: one endpoint
// negotiates each version the SDK supports, runs a call, and a client's
// cancellation ends the call's process in each.
func TestHTTPServesEveryProtocolVersion(t *testing.T) {
	s, recs := newNotifyingServer(t, "echo", "sleep")
	url := httpServer(t, s)
	for _, v := range mcp.SupportedProtocolVersions() {
		t.Run(v, func(t *testing.T) {
			opts, progress := progressSignal()
			cs := connectHTTP(t, url, v, opts)
			if got := cs.InitializeResult().ProtocolVersion; got != v {
				t.Fatalf("negotiated %s, asked for %s", got, v)
			}
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"echo", v}}})
			if err != nil || r.IsError || resultText(r) != v+"\n" {
				t.Fatalf("call: %v %+v", err, r)
			}
			if rec := nextRecord(t, recs); rec["result_type"] != "success" {
				t.Fatalf("record %v", rec)
			}
			cancel, errc := startedCall(t, cs, progress)
			begin := time.Now()
			cancel()
			<-errc
			rec := nextRecord(t, recs)
			if rec["result_type"] != "cancelled" {
				t.Fatalf("record after cancelling: %v", rec)
			}
			t.Logf("%s: call cancelled and recorded %v after the client cancelled (%v)", v, time.Since(begin).Round(time.Millisecond), rec["error"])
		})
	}
}

// TestHTTPSessionDeleteCancelsItsCalls: closing a session (DELETE) ends
// its running call at once, and the DELETE does not wait for the command.
func TestHTTPSessionDeleteCancelsItsCalls(t *testing.T) {
	s, recs := newNotifyingServer(t, "sleep")
	url := httpServer(t, s)
	for _, v := range []string{"2025-11-25", "2025-03-26"} {
		t.Run(v, func(t *testing.T) {
			opts, progress := progressSignal()
			cs := connectHTTP(t, url, v, opts)
			_, errc := startedCall(t, cs, progress)
			begin := time.Now()
			// The SDK client's Close waits for its calls before it sends
			// DELETE: send it as a client that does not.
			req, _ := http.NewRequest(http.MethodDelete, url, nil)
			req.Header.Set("Authorization", "Bearer "+testToken)
			req.Header.Set("Mcp-Session-Id", cs.ID())
			req.Header.Set("Mcp-Protocol-Version", v)
			resp, err := http.DefaultClient.Do(req)
			if err != nil || resp.StatusCode != http.StatusNoContent {
				t.Fatalf("DELETE: %v %v", resp, err)
			}
			took := time.Since(begin)
			rec := nextRecord(t, recs)
			if rec["result_type"] != "cancelled" || rec["error"] != "the client closed the session" {
				t.Fatalf("record %v", rec)
			}
			if took > stopBound {
				t.Errorf("closing the session took %v, more than %v", took, stopBound)
			}
			<-errc
			t.Logf("%s: session closed in %v (StopDeadline %v), its call cancelled", v, took.Round(time.Millisecond), StopDeadline)
		})
	}
}

// rawSession opens a session at a legacy version with raw requests, so a
// test can drop a POST's connection itself.
func rawSession(t *testing.T, url, version string) string {
	t.Helper()
	resp := rawPost(t, context.Background(), url, "", version, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`, version))
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	if id == "" {
		t.Fatalf("no session id (status %d)", resp.StatusCode)
	}
	resp = rawPost(t, context.Background(), url, id, version, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	resp.Body.Close()
	return id
}

func rawPost(t *testing.T, ctx context.Context, url, session, version, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if version != "" && (session != "" || version >= statelessFrom) {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	if version >= statelessFrom && strings.Contains(body, `"tools/call"`) {
		// SEP-2575 routing headers, required at 2026-07-28.
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "shell_execute")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// callBody is a tools/call running sleep with a progress token, with the
// per-request _meta of 2026-07-28 when version asks for it.
func callBody(version string) string {
	meta := `"progressToken":"p"`
	if version >= statelessFrom {
		meta += fmt.Sprintf(`,"io.modelcontextprotocol/protocolVersion":%q,"io.modelcontextprotocol/clientCapabilities":{}`, version)
	}
	return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{` + meta + `},"name":"shell_execute","arguments":{"command":["sleep","30"]}}}`
}

// waitForProgress reads a POST's event stream until the first progress
// notification (the child runs).
func waitForProgress(t *testing.T, body io.Reader) *bufio.Reader {
	t.Helper()
	br := bufio.NewReader(body)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended before progress: %v (read %q)", err, line)
		}
		if strings.Contains(line, "notifications/progress") {
			return br
		}
	}
}

// TestHTTPDisconnectCancelsItsCalls: a client that drops the connection
// of a POST while its call runs ends the call, at every protocol version.
func TestHTTPDisconnectCancelsItsCalls(t *testing.T) {
	s, recs := newNotifyingServer(t, "sleep")
	url := httpServer(t, s)
	for _, v := range []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"} {
		t.Run(v, func(t *testing.T) {
			session := ""
			if v < statelessFrom {
				session = rawSession(t, url, v)
			}
			ctx, drop := context.WithCancel(context.Background())
			resp := rawPost(t, ctx, url, session, v, callBody(v))
			waitForProgress(t, resp.Body)
			begin := time.Now()
			drop()
			resp.Body.Close()
			rec := nextRecord(t, recs)
			if rec["result_type"] != "cancelled" {
				t.Fatalf("record %v", rec)
			}
			t.Logf("%s: call cancelled %v after the disconnect (%v)", v, time.Since(begin).Round(time.Millisecond), rec["error"])
		})
	}
}

// TestHTTPCancelledCallGetsNoResponse: after
// notifications/cancelled, the call's POST ends without a response; the
// audit record stays.
func TestHTTPCancelledCallGetsNoResponse(t *testing.T) {
	s, recs := newNotifyingServer(t, "sleep")
	url := httpServer(t, s)
	const v = "2025-11-25"
	session := rawSession(t, url, v)
	resp := rawPost(t, context.Background(), url, session, v, callBody(v))
	br := waitForProgress(t, resp.Body)
	c := rawPost(t, context.Background(), url, session, v, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"test"}}`)
	c.Body.Close()
	rest, _ := io.ReadAll(br)
	resp.Body.Close()
	if strings.Contains(string(rest), `"id":7`) {
		t.Errorf("the cancelled call was answered: %s", rest)
	}
	if rec := nextRecord(t, recs); rec["result_type"] != "cancelled" || rec["error"] != "the client cancelled the call" {
		t.Errorf("record %v", rec)
	}
}

// TestHTTPRefusals: 401 names the scheme and closes without reading the
// body; 403 and 413 are audited; records are rate-limited and count what
// they left out.
func TestHTTPRefusals(t *testing.T) {
	s, recs := newNotifyingServer(t)
	url := httpServer(t, s)
	host := strings.TrimPrefix(strings.TrimSuffix(url, "/mcp"), "http://")

	// 401 while the body is still coming: the answer does not wait.
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", host)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer while the body is pending: %v", err)
	}
	if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != `Bearer realm="mcp-shell-server"` || !resp.Close {
		t.Errorf("401: status %d, WWW-Authenticate %q, close %v", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), resp.Close)
	}
	if rec := nextRecord(t, recs); rec["result_type"] != "unauthorized" || rec["http_status"] != 401.0 || rec["error_type"] != "token" {
		t.Errorf("401 record %v", rec)
	}

	do := func(mod func(*http.Request)) int {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		mod(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := do(func(r *http.Request) { r.Host = "evil.example" }); st != 403 {
		t.Errorf("foreign Host: %d", st)
	}
	if rec := nextRecord(t, recs); rec["http_status"] != 403.0 || rec["error_type"] != "origin" {
		t.Errorf("403 record %v", rec)
	}
	if st := do(func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }); st != 403 {
		t.Errorf("cross-origin: %d", st)
	}
	if rec := nextRecord(t, recs); rec["http_status"] != 403.0 {
		t.Errorf("cross-origin record %v", rec)
	}
	if st := do(func(r *http.Request) {
		r.Body = io.NopCloser(strings.NewReader(strings.Repeat(" ", 2<<20)))
		r.ContentLength = 2 << 20
	}); st != 413 {
		t.Errorf("large body: %d", st)
	}
	if rec := nextRecord(t, recs); rec["http_status"] != 413.0 || rec["error_type"] != "body_too_large" {
		t.Errorf("413 record %v", rec)
	}

	// A flood: the burst is recorded, the rest counted.
	const flood = 200
	for range flood {
		if st := do(func(r *http.Request) { r.Header.Del("Authorization") }); st != 401 {
			t.Fatalf("status %d", st)
		}
	}
	s.opts.Audit.Flush(context.Background())
	written, suppressed := 0, 0
	for len(recs) > 0 {
		n, _ := (<-recs)["suppressed"].(float64) // records let through mid-flood count too
		suppressed += int(n)
		written++
	}
	if written >= flood/2 {
		t.Errorf("%d records for %d refused requests: not rate-limited", written, flood)
	}
	// The next record written carries the count of those left out.
	time.Sleep(time.Second / refusalRate) // the bucket refills with time: no event to wait on
	do(func(r *http.Request) { r.Header.Del("Authorization") })
	rec := nextRecord(t, recs)
	n, _ := rec["suppressed"].(float64)
	suppressed += int(n)
	if suppressed+written != flood {
		t.Errorf("suppressed %d + written %d != %d", suppressed, written, flood)
	}
	t.Logf("%d refused requests: %d records written, %d counted as suppressed", flood, written, suppressed)
}
