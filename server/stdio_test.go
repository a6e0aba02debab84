package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioPipes runs s.ServeStdio over pipes until the test ends; the test
// writes the server's input to in and reads its output from out.
type stdioPipes struct {
	in     *io.PipeWriter
	out    *io.PipeReader
	done   chan error
	cancel context.CancelFunc
}

func serveStdioPipes(t testing.TB, s *Server) *stdioPipes {
	t.Helper()
	serverIn, in := io.Pipe()
	out, serverOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	p := &stdioPipes{in: in, out: out, done: make(chan error, 1), cancel: cancel}
	go func() { p.done <- s.ServeStdio(ctx, serverIn, serverOut); serverOut.Close() }()
	t.Cleanup(func() {
		cancel()
		in.Close()
		go io.Copy(io.Discard, out)
		<-p.done
	})
	return p
}

// TestStdioServesEveryProtocolVersion: each
// version the SDK supports is negotiated over the framing layer, runs a
// call, and a client's cancellation ends the call.
func TestStdioServesEveryProtocolVersion(t *testing.T) {
	for _, v := range mcp.SupportedProtocolVersions() {
		t.Run(v, func(t *testing.T) {
			s, recs := newNotifyingServer(t, "echo", "sleep")
			p := serveStdioPipes(t, s)
			opts, progress := progressSignal()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, opts).Connect(ctx, &mcp.IOTransport{Reader: p.out, Writer: p.in}, &mcp.ClientSessionOptions{ProtocolVersion: v})
			if err != nil {
				t.Fatal(err)
			}
			if got := cs.InitializeResult().ProtocolVersion; got != v {
				t.Fatalf("negotiated %s", got)
			}
			r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"echo", v}}})
			if err != nil || resultText(r) != v+"\n" {
				t.Fatalf("call: %v %+v", err, r)
			}
			nextRecord(t, recs)
			stop, errc := startedCall(t, cs, progress)
			stop()
			<-errc
			if rec := nextRecord(t, recs); rec["result_type"] != "cancelled" || rec["error"] != "the client cancelled the call" {
				t.Fatalf("record %v", rec)
			}
		})
	}
}

// rawStdio speaks JSON-RPC lines to a ServeStdio session.
type rawStdio struct {
	t   *testing.T
	p   *stdioPipes
	out *bufio.Scanner
}

func newRawStdio(t *testing.T, s *Server) *rawStdio {
	t.Helper()
	return newRawStdioAt(t, s, "2025-11-25")
}

// newRawStdioAt is newRawStdio initialized at protocol version.
func newRawStdioAt(t *testing.T, s *Server, version string) *rawStdio {
	t.Helper()
	r := openRawStdio(t, s)
	r.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	r.reply()
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r
}

// openRawStdio is a raw session that has sent nothing yet.
func openRawStdio(t *testing.T, s *Server) *rawStdio {
	t.Helper()
	p := serveStdioPipes(t, s)
	r := &rawStdio{t: t, p: p, out: bufio.NewScanner(p.out)}
	r.out.Buffer(nil, 1<<20)
	return r
}

func (r *rawStdio) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.p.in, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

// reply is the next message the server wrote, decoded.
func (r *rawStdio) reply() map[string]any {
	r.t.Helper()
	if !r.out.Scan() {
		r.t.Fatalf("no reply: %v", r.out.Err())
	}
	var m map[string]any
	if err := json.Unmarshal(r.out.Bytes(), &m); err != nil {
		r.t.Fatalf("reply %q: %v", r.out.Text(), err)
	}
	return m
}

// replyTo skips notifications up to the response to id.
func (r *rawStdio) replyTo(id float64) map[string]any {
	r.t.Helper()
	for {
		m := r.reply()
		if m["id"] == id {
			return m
		}
		if _, isNote := m["method"]; !isNote {
			r.t.Fatalf("unexpected response %v while waiting for %v", m, id)
		}
	}
}

// stopBound is what the tests hold a stop to. StopDeadline is the
// product's promise, so a stop is bounded, but with room for a loaded
// machine's scheduling: a server that waited for its calls (sleep 30)
// still fails, one that is slow to be scheduled does not.
const stopBound = StopDeadline + 10*time.Second

const sleepCall = `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"_meta":{"progressToken":"p%d"},"name":"shell_execute","arguments":{"command":["sleep","30"]}}}`

// TestStdioCancelledCallGetsNoResponse: after
// notifications/cancelled, no response for that id is written; the
// record stays; the session goes on.
func TestStdioCancelledCallGetsNoResponse(t *testing.T) {
	s, recs := newNotifyingServer(t, "sleep", "echo")
	r := newRawStdio(t, s)
	r.send(fmt.Sprintf(sleepCall, 5, 5))
	if m := r.reply(); m["method"] != "notifications/progress" {
		t.Fatalf("expected progress first, got %v", m)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"test"}}`)
	if rec := nextRecord(t, recs); rec["result_type"] != "cancelled" {
		t.Fatalf("record %v", rec)
	}
	r.send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"shell_execute","arguments":{"command":["echo","after"]}}}`)
	if m := r.replyTo(6); m["result"] == nil {
		t.Fatalf("the session did not go on: %v", m)
	}
	// replyTo fails on any other response: id 5 was never answered.
}

// TestStdioStopAnswersRunningCalls: at the end of stdin and at a signal,
// every running call is answered with its cancelled result, recorded, and
// ServeStdio returns within StopDeadline (held to stopBound).
func TestStdioStopAnswersRunningCalls(t *testing.T) {
	for _, how := range []string{"stdin EOF", "signal"} {
		t.Run(how, func(t *testing.T) {
			s, recs := newNotifyingServer(t, "sleep")
			r := newRawStdio(t, s)
			const n = 8
			for i := 1; i <= n; i++ {
				r.send(fmt.Sprintf(sleepCall, i, i))
			}
			for started := 0; started < n; { // one progress each: every child runs
				if m := r.reply(); m["method"] == "notifications/progress" {
					started++
				}
			}
			begin := time.Now()
			if how == "signal" {
				r.p.cancel()
			} else {
				r.p.in.Close()
			}
			answered := 0
			for answered < n {
				m := r.reply()
				if res, ok := m["result"].(map[string]any); ok && res["isError"] == true {
					answered++
				}
			}
			select {
			case <-r.p.done:
			case <-time.After(stopBound):
				t.Fatalf("ServeStdio did not return within %v", stopBound)
			}
			took := time.Since(begin)
			for range n {
				if rec := nextRecord(t, recs); rec["result_type"] != "cancelled" || rec["error"] != "the server is shutting down" {
					t.Fatalf("record %v", rec)
				}
			}
			t.Logf("%s: %d running calls answered and recorded, stopped in %v (StopDeadline %v)", how, n, took.Round(time.Millisecond), StopDeadline)
			r.p.done <- nil // for the cleanup
		})
	}
}
