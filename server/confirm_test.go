package server

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
)

// confirmOptions are testOptions whose confirm tier holds touch and any
// "echo held ..." call; echo otherwise runs at once.
func confirmOptions(t testing.TB) Options {
	t.Helper()
	o := testOptionsWith(t, policy.Settings{Commands: []string{"echo", "touch"}, Confirm: policy.Confirm{
		Commands: []string{"touch"},
		Patterns: []*regexp.Regexp{regexp.MustCompile(`^(?:echo held.*)$`)}, PatternSources: []string{"echo held.*"},
	}})
	o.Tools = []string{"shell_execute", "execute_command"}
	return o
}

// answering is an elicitation handler that records each question and
// answers with action.
func answering(action string, asked chan<- *mcp.ElicitParams) *mcp.ClientOptions {
	return &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		if asked != nil {
			asked <- req.Params
		}
		return &mcp.ElicitResult{Action: action, Content: map[string]any{}}, nil
	}}
}

// connectAsking connects a client at 2025-11-25, the newest revision
// under which a server may send the client a request (the SDK client
// speaks 2026-07-28 otherwise).
func connectAsking(t testing.TB, s *Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := s.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callTool(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestConfirmAnswers: an accepted call runs, a declined or dismissed one
// is refused with nothing run (the canary file stays absent), and a
// client without the capability is refused with a sentence saying why
// and how to fix it; each record says how the question ended. A call the
// tier does not hold is never asked about.
func TestConfirmAnswers(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, action string
		noHandler    bool
		runs         bool
		code         string
		confirmed    audit.Confirmed
		says         string
	}{
		{name: "accept", action: "accept", runs: true, confirmed: audit.ConfirmAccepted},
		{name: "decline", action: "decline", code: string(CodeConfirmDeclined), confirmed: audit.ConfirmDeclined, says: "The user declined to run this command (it needs confirmation: confirm.command:touch)"},
		{name: "cancel", action: "cancel", code: string(CodeConfirmDeclined), confirmed: audit.ConfirmDeclined, says: "dismissed the confirmation"},
		{name: "no capability", noHandler: true, code: string(CodeConfirmUnavailable), confirmed: audit.ConfirmUnavailable,
			says: "the client did not declare the elicitation capability, so the server cannot ask the user, so nothing was run; use a client that supports MCP elicitation"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := confirmOptions(t)
			dir := o.Policy.AllowedDirs()[0]
			s, log := newServer(t, o)
			asked := make(chan *mcp.ElicitParams, 4)
			opts := answering(tt.action, asked)
			if tt.noHandler {
				opts = nil
			}
			cs := connectAsking(t, s, opts)
			if r := callTool(t, cs, "shell_execute", map[string]any{"command": []string{"echo", "free"}}); r.IsError || len(asked) != 0 {
				t.Fatalf("a call the tier does not hold: %s (asked %d)", resultText(r), len(asked))
			}
			r := callTool(t, cs, "shell_execute", map[string]any{"command": []string{"touch", "canary"}})
			_, err := os.Stat(filepath.Join(dir, "canary"))
			if ran := err == nil; ran != tt.runs || r.IsError == tt.runs {
				t.Fatalf("ran %v, result %s; want ran %v", ran, resultText(r), tt.runs)
			}
			if !strings.Contains(resultText(r), tt.says) {
				t.Errorf("result %q lacks %q", resultText(r), tt.says)
			}
			if !tt.noHandler {
				q := <-asked
				for _, want := range []string{`Stage 1: ["touch","canary"]`, "Directory: " + dir, "confirm.command:touch", "sandbox: off"} {
					if !strings.Contains(q.Message, want) {
						t.Errorf("question %q lacks %q", q.Message, want)
					}
				}
			}
			recs := records(t, log)
			if _, ok := recs[0]["confirmed"]; ok {
				t.Errorf("record of a call the tier did not hold: %v", recs[0])
			}
			rec := recs[1]
			if rec["confirmed"] != string(tt.confirmed) || (tt.code != "" && rec["rule"] != tt.code) {
				t.Errorf("record %v, want confirmed %s rule %s", rec, tt.confirmed, tt.code)
			}
		})
	}
}

// TestConfirmTimeout: a question nobody answers is a refusal naming the
// setting once the timeout passes, and the client's question is
// withdrawn (its handler's context ends).
func TestConfirmTimeout(t *testing.T) {
	t.Parallel()
	o := confirmOptions(t)
	o.ConfirmTimeout = 50 * time.Millisecond
	s, log := newServer(t, o)
	withdrawn := make(chan struct{})
	cs := connectAsking(t, s, &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		<-ctx.Done()
		close(withdrawn)
		return nil, ctx.Err()
	}})
	r := callTool(t, cs, "shell_execute", map[string]any{"command": []string{"echo", "held"}})
	if !r.IsError || !strings.Contains(resultText(r), "within 50ms (MCP_SHELL_CONFIRM_TIMEOUT_SECONDS); nothing was run") {
		t.Fatalf("result %s", resultText(r))
	}
	<-withdrawn
	if rec := records(t, log)[0]; rec["confirmed"] != string(audit.ConfirmTimeout) || rec["rule"] != string(CodeConfirmTimeout) {
		t.Errorf("record %v", rec)
	}
}

// heldQuestion is an elicitation handler that reports each question
// with whether the server then held a concurrency slot, and waits for
// its context or an answer on release.
func heldQuestion(s **Server) (*mcp.ClientOptions, <-chan int, chan<- string) {
	slots := make(chan int, 4)
	release := make(chan string)
	return &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		slots <- len((*s).sem)
		select {
		case a := <-release:
			return &mcp.ElicitResult{Action: a}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}, slots, release
}

// TestConfirmHoldsASlotAndEndsWithItsRequest: a held call takes its
// concurrency slot before the question goes out (foreground and
// background), and cancelling the request ends the wait at once: the
// record says cancelled, nothing ran and the slot is free again.
func TestConfirmHoldsASlotAndEndsWithItsRequest(t *testing.T) {
	t.Parallel()
	o := jobOptionsFrom(t, confirmOptions(t))
	o.MaxConcurrent = 1
	var s *Server
	opts, slots, _ := heldQuestion(&s)
	s, _, log := newJobServer(t, o)
	cs := connectAsking(t, s, opts)
	for _, bg := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"touch", "canary"}, "background": bg}})
			done <- err
		}()
		if held := <-slots; held != 1 {
			t.Errorf("background %v: %d slots held while the user is asked, want 1", bg, held)
		}
		cancel()
		<-done
	}
	s.gate.close()
	s.gate.wait() // every record written
	recs := log.records(t)
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2: %v", len(recs), recs)
	}
	for _, rec := range recs {
		if rec["result_type"] != string(audit.Cancelled) || rec["confirmed"] != string(audit.ConfirmCancelled) ||
			!strings.HasPrefix(rec["error"].(string), "cancelled while waiting for the user's confirmation") {
			t.Errorf("record %v", rec)
		}
	}
	if len(s.sem) != 0 {
		t.Errorf("%d slots still held", len(s.sem))
	}
	if _, err := os.Stat(filepath.Join(o.Policy.AllowedDirs()[0], "canary")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a cancelled held call ran: %v", err)
	}
}

// TestConfirmBackgroundAndExecuteCommand: execute_command is held as
// shell_execute is, and a background call is asked about before its job
// starts: accepted, its job runs and both its records say so; declined,
// no job is started.
func TestConfirmBackgroundAndExecuteCommand(t *testing.T) {
	t.Parallel()
	var s *Server
	opts, _, release := heldQuestion(&s)
	s, _, log := newJobServer(t, jobOptionsFrom(t, confirmOptions(t)))
	cs := connectAsking(t, s, opts)
	call := func(tool string, args map[string]any, answer string) *mcp.CallToolResult {
		res := make(chan *mcp.CallToolResult, 1)
		go func() { res <- callTool(t, cs, tool, args) }()
		release <- answer
		return <-res
	}
	r := call("execute_command", map[string]any{"program": "echo", "args": []string{"held", ";"}}, "accept")
	if r.IsError || !strings.Contains(resultText(r), "held ;") {
		t.Fatalf("accepted execute_command: %s", resultText(r))
	}
	r = call("shell_execute", map[string]any{"command": []string{"echo", "held", "bg"}, "background": true}, "accept")
	id, _ := r.StructuredContent.(map[string]any)["job_id"].(string)
	if r.IsError || id == "" {
		t.Fatalf("accepted background call: %s", resultText(r))
	}
	callTool(t, cs, "job_status", map[string]any{"id": id, "wait": 30})
	r = call("shell_execute", map[string]any{"command": []string{"echo", "held", "no"}, "background": true}, "decline")
	if !r.IsError || !strings.Contains(resultText(r), "declined") {
		t.Fatalf("declined background call: %s", resultText(r))
	}
	if running, queued := s.bg.table.Counts(); running+queued != 0 {
		t.Errorf("%d jobs running and %d queued after a decline", running, queued)
	}
	s.gate.close()
	s.gate.wait()
	got := map[string]string{}
	for _, rec := range log.records(t) {
		if rec["tool"] == "job_status" {
			continue
		}
		ev, _ := rec["event"].(string)
		confirmed, _ := rec["confirmed"].(string)
		got[rec["tool"].(string)+" "+ev+" "+rec["result_type"].(string)] = confirmed
	}
	want := map[string]string{
		"execute_command  success": "accepted", "shell_execute job_start started": "accepted",
		"shell_execute job_end success": "accepted", "shell_execute  rejected": "declined",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("record %q: confirmed %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
}

// TestConfirmStatelessHTTP: a request over stateless HTTP (2026-07-28)
// cannot be asked about, whatever capabilities it names; the refusal
// says so and how to connect instead. A stateful session over HTTP is
// asked on the POST's stream and runs once accepted.
func TestConfirmStatelessHTTP(t *testing.T) {
	t.Parallel()
	o := confirmOptions(t)
	s, _ := newServer(t, o)
	url := httpServer(t, s)
	const v = "2026-07-28"
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + v +
		`","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}},"name":"shell_execute","arguments":{"command":["echo","held"]}}}`
	resp := rawPost(t, context.Background(), url, "", v, body)
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(got), "this request speaks protocol 2026-07-28 (over HTTP, stateless), under which a server may not send the client a request") ||
		!strings.Contains(string(got), "connect with protocol 2025-11-25 or earlier") {
		t.Errorf("stateless answer %s", got)
	}
	cs := connectHTTP(t, url, "2025-11-25", answering("accept", nil))
	if r := callTool(t, cs, "shell_execute", map[string]any{"command": []string{"echo", "held", "http"}}); r.IsError || !strings.Contains(resultText(r), "held http") {
		t.Errorf("accepted over a stateful HTTP session: %s", resultText(r))
	}
}

// TestConfirmEndsWithItsSession: closing the session while its call is
// held ends the wait at once; nothing runs and the record says so.
func TestConfirmEndsWithItsSession(t *testing.T) {
	t.Parallel()
	o := confirmOptions(t)
	var s *Server
	opts, slots, _ := heldQuestion(&s)
	s, log := newServer(t, o)
	// Over a pipe the test can cut, as a client that goes away does (the
	// SDK client's Close would wait for its call).
	near, far := net.Pipe()
	ctx := context.Background()
	if _, err := s.MCP().Connect(ctx, &mcp.IOTransport{Reader: near, Writer: near}, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, opts).Connect(ctx, &mcp.IOTransport{Reader: far, Writer: far}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	go cs.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"touch", "canary"}}})
	<-slots
	far.Close()
	s.gate.close()
	s.gate.wait()
	rec := records(t, log)[0]
	if rec["result_type"] != string(audit.Cancelled) || rec["confirmed"] != string(audit.ConfirmCancelled) {
		t.Errorf("record %v", rec)
	}
	if _, err := os.Stat(filepath.Join(o.Policy.AllowedDirs()[0], "canary")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a held call ran after its session closed: %v", err)
	}
}

// TestConfirmNewestProtocol: a session at 2026-07-28 (the SDK client's
// default), under which a server may not send requests, is refused with
// the sentence that says how to connect instead.
func TestConfirmNewestProtocol(t *testing.T) {
	t.Parallel()
	s, log := newServer(t, confirmOptions(t))
	cs := connectWith(t, s, answering("accept", nil))
	r := callTool(t, cs, "shell_execute", map[string]any{"command": []string{"echo", "held"}})
	if !r.IsError || !strings.Contains(resultText(r), "speaks protocol 2026-07-28") || !strings.Contains(resultText(r), "connect with protocol 2025-11-25 or earlier") {
		t.Errorf("result %s", resultText(r))
	}
	if rec := records(t, log)[0]; rec["confirmed"] != string(audit.ConfirmUnavailable) || rec["rule"] != string(CodeConfirmUnavailable) {
		t.Errorf("record %v", rec)
	}
}

// TestConfirmQuestion: the question shows every stage's exact argv (JSON,
// so a control character or a space inside an element stays visible),
// the redirections, the call's input and variable names, and what the
// sandbox lets each stage write, execute and reach.
func TestConfirmQuestion(t *testing.T) {
	t.Parallel()
	o := confirmOptions(t)
	dir := o.Policy.AllowedDirs()[0]
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	pl, err := o.Policy.Decide(policy.Request{Argv: []string{"echo", "held\x1b[2K", "|", "touch", "a b", ">>", "out.txt"}, Dir: &dir})
	if err != nil {
		t.Fatal(err)
	}
	defer pl.Close()
	pl.Stages[1].Confinement = plancf()
	stdin := "data"
	q := question(call{tool: "shell_execute", stdin: &stdin, envs: map[string]string{"LANG": "C"}}, pl)
	for _, want := range []string{
		"It needs your confirmation (stage 1: confirm.pattern:echo held.*; stage 2: confirm.command:touch)",
		`Stage 1: ["echo","held\u001b[2K"]`, `Stage 2: ["touch","a b"]`, "Directory: " + dir,
		`Stdout appended to the file "out.txt"`, "Stdin: 4 bytes sent with the call", "Variables set by the call: LANG",
		"sandbox: off: it may write, execute and reach whatever the server's user may",
		"sandbox: landlock; may write: /w, /tmp/c; may execute: /usr/bin/touch, and any program beneath what it may read or write; network: yes (fetches)",
	} {
		if !strings.Contains(q, want) {
			t.Errorf("question lacks %q:\n%s", want, q)
		}
	}
}

func plancf() plan.Confinement {
	return plan.Confinement{Mode: "landlock", Write: []string{"/w", "/tmp/c"}, Exec: []string{"/usr/bin/touch"}, RunAny: true, Network: true, NetworkReason: "fetches"}
}
