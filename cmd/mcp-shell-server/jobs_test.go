package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/mcptest"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// The job scenarios, each over stdio and over Streamable HTTP,
// against the real binary with the go-sdk client. Synchronisation is the
// tools' own waits (read_output and job_status wait for new output or the
// end) and resources/updated notifications; only the liveness of killed
// processes is polled, having no signal to wait on.

// transports are the two ways every scenario runs.
var transports = []string{"stdio", "http"}

// jobServer is one server under test: over stdio each connect starts it,
// over HTTP it runs from the start and each connect is a new session.
type jobServer struct {
	t         *testing.T
	transport string
	dir       string // the allowed directory
	tools     string // helper scripts, outside it
	audit     string
	retain    string // MCP_SHELL_RETAIN_DIR
	env       []string
	url       string
	cmd       *exec.Cmd
}

// newJobServer prepares a server with env added to a base environment;
// helpers (name → script body) are written first, so env may name them
// through {tools}.
func newJobServer(t *testing.T, transport string, helpers map[string]string, env ...string) *jobServer {
	t.Helper()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	tools, _ := filepath.EvalSymlinks(t.TempDir())
	for name, body := range helpers {
		helperScript(t, tools, name, body)
	}
	js := &jobServer{t: t, transport: transport, dir: dir, tools: tools, audit: filepath.Join(t.TempDir(), "audit.jsonl"), retain: t.TempDir()}
	// The job scripts run sleep and write beside the allowed directory:
	// these tests are about jobs, so children run unconfined (the sandbox
	// has its own end-to-end tests and proofs).
	js.env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "MCP_SHELL_AUDIT_LOG=" + js.audit, "MCP_SHELL_LOG_LEVEL=error", "MCP_SHELL_RETAIN_DIR=" + js.retain, "MCP_SHELL_SANDBOX=off"}
	for _, kv := range env {
		js.env = append(js.env, strings.ReplaceAll(kv, "{tools}", tools))
	}
	if transport == "http" {
		js.startHTTP()
	}
	return js
}

func (js *jobServer) script(name string) string { return filepath.Join(js.tools, name) }

func (js *jobServer) startHTTP() { js.url, js.cmd = serveHTTP(js.t, js.dir, js.env) }

// connect opens a session (stdio: starts the server).
func (js *jobServer) connect(opts *mcp.ClientOptions) *mcp.ClientSession {
	t := js.t
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-jobs", Version: "0"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var tr mcp.Transport
	if js.transport == "http" {
		tr = &mcp.StreamableClientTransport{Endpoint: js.url, HTTPClient: &http.Client{Transport: mcptest.Bearer{Token: testToken, Next: http.DefaultTransport}}}
	} else {
		cmd := exec.Command(binary, js.dir)
		cmd.Env = js.env
		cmd.Stderr = os.Stderr
		tr = &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}
	}
	s, err := client.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// stop ends the server: over stdio by closing the session, over HTTP by
// SIGTERM; it returns once the process has exited.
func (js *jobServer) stop(cs *mcp.ClientSession) {
	if js.transport == "http" {
		js.cmd.Process.Signal(syscall.SIGTERM)
		js.cmd.Wait()
		return
	}
	cs.Close() // CommandTransport waits for the process
}

func (js *jobServer) records() []map[string]any {
	js.t.Helper()
	b, _ := os.ReadFile(js.audit)
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// startJob starts a background shell_execute job and returns its id.
func startJob(t *testing.T, cs *mcp.ClientSession, args map[string]any) string {
	t.Helper()
	args["background"] = true
	r, m := mcptest.CallTool(t, cs, "shell_execute", args)
	id, _ := m["job_id"].(string)
	if r.IsError || id == "" {
		t.Fatalf("start %v: %q %v", args, text(r), m)
	}
	return id
}

// waitJob waits for a job's end (job_status with wait) and returns its
// status.
func waitJob(t *testing.T, cs *mcp.ClientSession, id string) map[string]any {
	t.Helper()
	for range 4 {
		if _, st := mcptest.CallTool(t, cs, "job_status", map[string]any{"id": id, "wait": 30}); st["state"] != "running" && st["state"] != "queued" {
			return st
		}
	}
	t.Fatalf("job %s still running after 2 minutes", id)
	return nil
}

// eachTransport runs f once per transport, in parallel.
func eachTransport(t *testing.T, f func(t *testing.T, transport string)) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			t.Parallel()
			f(t, tr)
		})
	}
}

const tickerScript = "i=1\nwhile [ $i -le 3 ]; do echo \"tick $i\"; i=$((i+1)); sleep 1; done\n"

// TestJobPagedWhileRunning: a job printing a line a second is paged by
// offset while it runs (each read waiting for new output), then waited
// for, then read whole.
func TestJobPagedWhileRunning(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr string) {
		js := newJobServer(t, tr, map[string]string{"ticker.sh": tickerScript}, "ALLOW_COMMANDS={tools}/ticker.sh")
		cs := js.connect(nil)
		id := startJob(t, cs, map[string]any{"command": []string{js.script("ticker.sh")}})
		_, first := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": id, "wait": 30})
		if !strings.HasPrefix(first["data"].(string), "tick 1\n") || first["done"] != false {
			t.Fatalf("first page %v", first)
		}
		next := first["next_offset"]
		r, second := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": id, "offset": next, "wait": 30})
		if !strings.HasPrefix(second["data"].(string), "tick 2\n") || second["offset"] != next || !strings.Contains(text(r), "more may come") {
			t.Fatalf("second page %q %v", text(r), second)
		}
		if _, st := mcptest.CallTool(t, cs, "job_status", map[string]any{"id": id}); st["state"] != "running" || st["started_at"] == nil || st["ended_at"] != nil {
			t.Errorf("status while running %v", st)
		}
		st := waitJob(t, cs, id)
		if st["state"] != "exited" || st["exit_code"] != 0.0 || st["stdout_bytes"] != 21.0 || st["runtime_seconds"].(float64) < 2 {
			t.Fatalf("ended %v", st)
		}
		_, all := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": id})
		if all["data"] != "tick 1\ntick 2\ntick 3\n" || all["eof"] != true {
			t.Errorf("whole output %v", all)
		}
	})
}

// TestJobKillTermIgnoringTree: job_kill ends a job whose script and its
// background child ignore SIGTERM; none of them survives.
func TestJobKillTermIgnoringTree(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr string) {
		js := newJobServer(t, tr, map[string]string{"stubborn.sh": "trap '' TERM\nsleep 300 &\necho \"$$ $!\"\nwait\n"}, "ALLOW_COMMANDS={tools}/stubborn.sh")
		cs := js.connect(nil)
		id := startJob(t, cs, map[string]any{"command": []string{js.script("stubborn.sh")}})
		_, rd := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": id, "wait": 30})
		var pids []int
		for _, f := range strings.Fields(rd["data"].(string)) {
			pids = append(pids, atoi(t, f))
		}
		if len(pids) != 2 {
			t.Fatalf("pids %q", rd["data"])
		}
		begin := time.Now()
		r, st := mcptest.CallTool(t, cs, "job_kill", map[string]any{"id": id})
		took := time.Since(begin)
		if r.IsError || st["state"] != "killed" || st["killed_by"] != "job_kill" || st["signal"] != "SIGKILL" {
			t.Fatalf("kill: %q %v", text(r), st)
		}
		// The tree sleeps 300 s: job_kill must not wait for it. Half of
		// that is a bound no loaded machine reaches.
		t.Logf("figures: job_kill took %v", took.Round(time.Millisecond))
		if took > 150*time.Second {
			t.Errorf("job_kill took %v: it waited for the sleeping tree", took)
		}
		for _, pid := range pids {
			deadline := time.Now().Add(exitWithin)
			for alive(pid) {
				if time.Now().After(deadline) {
					killPID(pid)
					t.Fatalf("process %d survived job_kill", pid)
				}
				time.Sleep(20 * time.Millisecond) // another process's state: nothing to wait on
			}
		}
		if r, st := mcptest.CallTool(t, cs, "job_kill", map[string]any{"id": id}); r.IsError || !strings.Contains(text(r), "already ended") || st["state"] != "killed" {
			t.Errorf("second kill: %q", text(r))
		}
	})
}

// TestJobPastItsRuntime: MCP_SHELL_MAX_JOB_SECONDS bounds a job, also one
// that asks for a longer timeout.
func TestJobPastItsRuntime(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr string) {
		js := newJobServer(t, tr, nil, "ALLOW_COMMANDS=sleep", "MCP_SHELL_MAX_JOB_SECONDS=1")
		cs := js.connect(nil)
		id := startJob(t, cs, map[string]any{"command": []string{"sleep", "30"}, "timeout": 600})
		st := waitJob(t, cs, id)
		if st["state"] != "timed_out" || st["timed_out"] != true || st["timeout_seconds"] != 1.0 || st["runtime_seconds"].(float64) > 5 {
			t.Fatalf("status %v", st)
		}
	})
}

// TestTwentyJobsBoundOfEight: 20 jobs against MCP_SHELL_MAX_JOBS=8: 8 run,
// 12 wait queued, never more than 8 at once, and all finish.
func TestTwentyJobsBoundOfEight(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr string) {
		js := newJobServer(t, tr, nil, "ALLOW_COMMANDS=cat", "MCP_SHELL_MAX_JOBS=8")
		cs := js.connect(nil)
		var ids []string
		for range 20 {
			ids = append(ids, startJob(t, cs, map[string]any{"command": []string{"cat"}, "stdin_open": true}))
		}
		_, l := mcptest.CallTool(t, cs, "job_list", map[string]any{})
		if l["running"] != 8.0 || l["queued"] != 12.0 || len(l["jobs"].([]any)) != 20 {
			t.Fatalf("list: running %v queued %v", l["running"], l["queued"])
		}
		for _, id := range ids {
			if r, _ := mcptest.CallTool(t, cs, "job_stdin", map[string]any{"id": id, "data": id + "\n", "close": true}); r.IsError {
				t.Fatalf("stdin of %s: %q", id, text(r))
			}
		}
		type span struct {
			at time.Time
			d  int
		}
		var spans []span
		for _, id := range ids {
			st := waitJob(t, cs, id)
			if st["state"] != "exited" || st["exit_code"] != 0.0 || st["stdout_bytes"] != 11.0 {
				t.Fatalf("job %s: %v", id, st)
			}
			started, _ := time.Parse(time.RFC3339Nano, st["started_at"].(string))
			ended, _ := time.Parse(time.RFC3339Nano, st["ended_at"].(string))
			spans = append(spans, span{started, 1}, span{ended, -1})
		}
		sort.Slice(spans, func(i, j int) bool {
			if spans[i].at.Equal(spans[j].at) {
				return spans[i].d < spans[j].d // an end before a start at the same instant
			}
			return spans[i].at.Before(spans[j].at)
		})
		running, peak := 0, 0
		for _, s := range spans {
			running += s.d
			peak = max(peak, running)
		}
		if peak != 8 {
			t.Errorf("%d jobs ran at once, want 8", peak)
		}
	})
}

// TestAdaptiveHandOff: with MCP_SHELL_ADAPTIVE_SECONDS=1 a call still
// running after a second returns a job id and finishes as a job; a quick
// call is answered as before.
func TestAdaptiveHandOff(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr string) {
		js := newJobServer(t, tr, nil, "ALLOW_COMMANDS=sleep,echo", "MCP_SHELL_ADAPTIVE_SECONDS=1")
		cs := js.connect(nil)
		begin := time.Now()
		r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"sleep", "2"}, "timeout": 30})
		took := time.Since(begin)
		id, _ := m["job_id"].(string)
		// A job id is the proof that the call was handed off before sleep
		// ended (a finished call answers with its output); the time is a
		// figure.
		t.Logf("figures: handed off after %v", took.Round(time.Millisecond))
		if r.IsError || id == "" || !strings.Contains(text(r), "still running after 1s") {
			t.Fatalf("after %v: %q %v", took, text(r), m)
		}
		st := waitJob(t, cs, id)
		if st["state"] != "exited" || st["exit_code"] != 0.0 || st["adaptive"] != true || st["timeout_seconds"] != 30.0 {
			t.Fatalf("job %v", st)
		}
		if r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"echo", "quick"}}); text(r) != "quick\n" || m["job_id"] != nil {
			t.Errorf("quick call: %q %v", text(r), m)
		}
		var start, end map[string]any
		for _, rec := range js.records() {
			if rec["job_id"] == id && rec["event"] == "job_start" {
				start = rec
			}
			if rec["job_id"] == id && rec["event"] == "job_end" {
				end = rec
			}
		}
		if start["adaptive"] != true || start["result_type"] != "started" || end["result_type"] != "success" {
			t.Errorf("audit start %v end %v", start, end)
		}
	})
}

// TestChaining: stdin_output_id feeds a retained stdout, of a foreground
// call or of an ended job, to the next command; a running job's is refused.
func TestChaining(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr string) {
		js := newJobServer(t, tr, nil, "ALLOW_COMMANDS=cat,sort,sleep", "MCP_SHELL_TOOLS=shell_execute,execute_command")
		os.WriteFile(filepath.Join(js.dir, "in.txt"), []byte("b\nc\na\n"), 0o644)
		cs := js.connect(nil)
		_, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"cat", "in.txt"}})
		id := m["output_id"].(string)
		if r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"sort"}, "stdin_output_id": id}); r.IsError || m["stdout"] != "a\nb\nc\n" {
			t.Fatalf("sort of %s: %q", id, text(r))
		}
		if _, m := mcptest.CallTool(t, cs, "execute_command", map[string]any{"program": "sort", "args": []string{"-r"}, "stdin_output_id": id}); m["stdout"] != "c\nb\na\n" {
			t.Fatalf("execute_command sort -r: %v", m)
		}
		job := startJob(t, cs, map[string]any{"command": []string{"cat", "in.txt"}})
		waitJob(t, cs, job)
		if _, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"sort"}, "stdin_output_id": job}); m["stdout"] != "a\nb\nc\n" {
			t.Fatalf("sort of the job's output: %v", m)
		}
		running := startJob(t, cs, map[string]any{"command": []string{"sleep", "30"}})
		if r, _ := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"sort"}, "stdin_output_id": running}); !r.IsError || !strings.Contains(text(r), "still being written") {
			t.Errorf("chaining a running job: %q", text(r))
		}
		mcptest.CallTool(t, cs, "job_kill", map[string]any{"id": running})
	})
}

// TestOutputResource: a job's stdout is a resource; a subscriber gets
// resources/updated while it writes, and resources/read returns it.
func TestOutputResource(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr string) {
		js := newJobServer(t, tr, map[string]string{"ticker.sh": tickerScript}, "ALLOW_COMMANDS={tools}/ticker.sh")
		updated := make(chan string, 100)
		cs := js.connect(&mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updated <- req.Params.URI
		}})
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		tpl, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil || len(tpl.ResourceTemplates) != 1 || tpl.ResourceTemplates[0].URITemplate != "shell-output://{id}/{stream}" {
			t.Fatalf("templates %v %v", tpl, err)
		}
		id := startJob(t, cs, map[string]any{"command": []string{js.script("ticker.sh")}})
		uri := "shell-output://" + id + "/stdout"
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatalf("subscribe: %v", err)
		}
		select {
		case got := <-updated:
			if got != uri {
				t.Fatalf("updated %s, want %s", got, uri)
			}
		case <-ctx.Done():
			t.Fatal("no resources/updated while the job wrote")
		}
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil || len(res.Contents) != 1 || !strings.HasPrefix(res.Contents[0].Text, "tick 1\n") || res.Contents[0].MIMEType != "text/plain" {
			t.Fatalf("read %v %v", res, err)
		}
		// The server refuses a subscription to an unknown output; only the
		// legacy resources/subscribe (before 2026-07-28) reports that to the
		// caller: under 2026-07-28 the go-sdk client's Subscribe opens
		// subscriptions/listen and does not wait for it.
		legacy := cs.InitializeResult() != nil && cs.InitializeResult().ProtocolVersion < "2026-07-28"
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "shell-output://zzzzzzzzzz/stdout"}); err == nil && legacy {
			t.Error("subscribed to an unknown output")
		}
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "shell-output://zzzzzzzzzz/stdout"}); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("read of an unknown output: %v", err)
		}
		waitJob(t, cs, id)
		found := false
		for _, rec := range js.records() {
			if rec["event"] == "output_read" && rec["tool"] == "resources/read" && rec["output_id"] == id && rec["read_bytes"].(float64) > 0 {
				found = true
			}
		}
		if !found {
			t.Error("no audit record of the resource read")
		}
	})
}

// TestEviction: the quota deletes the oldest finished output for room and
// the TTL deletes a finished output after its time; reads of either say
// so, and a subscriber hears of the deletion.
func TestEviction(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr string) {
		js := newJobServer(t, tr, nil, "ALLOW_COMMANDS=head", "MCP_SHELL_RETAIN_QUOTA_BYTES=3000", "MCP_SHELL_RETAIN_BYTES=1000", "MCP_SHELL_MAX_JOBS=2")
		os.WriteFile(filepath.Join(js.dir, "k"), []byte(strings.Repeat("k", 1000)), 0o644)
		cs := js.connect(nil)
		var ids []string
		for range 4 {
			_, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "1000", "k"}})
			ids = append(ids, m["output_id"].(string))
		}
		if r, _ := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": ids[0]}); !r.IsError || !strings.Contains(text(r), "was evicted") {
			t.Errorf("oldest output: %q", text(r))
		}
		if r, _ := mcptest.CallTool(t, cs, "job_status", map[string]any{"id": ids[0]}); !r.IsError || !strings.Contains(text(r), "evicted") {
			t.Errorf("job_status of an evicted id: %q", text(r))
		}
		for _, id := range ids[1:] {
			if _, m := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": id}); m["bytes"] != 1000.0 {
				t.Errorf("output %s: %v", id, m)
			}
		}

		ttl := newJobServer(t, tr, nil, "ALLOW_COMMANDS=head", "MCP_SHELL_RETAIN_TTL_SECONDS=1")
		os.WriteFile(filepath.Join(ttl.dir, "k"), []byte("k\n"), 0o644)
		updated := make(chan string, 10)
		cs = ttl.connect(&mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updated <- req.Params.URI
		}})
		_, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "k"}})
		id := m["output_id"].(string)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "shell-output://" + id + "/stdout"}); err != nil {
			t.Skipf("subscribed after it expired already (slow machine): %v", err)
		}
		select {
		case <-updated: // the deletion
		case <-ctx.Done():
			t.Fatal("no notification when the output expired")
		}
		if r, _ := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": id}); !r.IsError || !strings.Contains(text(r), "has expired") {
			t.Errorf("expired output: %q", text(r))
		}
	})
}

// TestHTTPSessionRestart: over HTTP a job outlives the session that
// started it; a new session lists it, reads it and waits for it.
func TestHTTPSessionRestart(t *testing.T) {
	t.Parallel()
	js := newJobServer(t, "http", map[string]string{"ticker.sh": tickerScript}, "ALLOW_COMMANDS={tools}/ticker.sh")
	first := js.connect(nil)
	id := startJob(t, first, map[string]any{"command": []string{js.script("ticker.sh")}})
	first.Close()
	second := js.connect(nil)
	_, l := mcptest.CallTool(t, second, "job_list", map[string]any{})
	if jobs := l["jobs"].([]any); len(jobs) != 1 || jobs[0].(map[string]any)["id"] != id {
		t.Fatalf("list in a new session: %v", l)
	}
	if _, rd := mcptest.CallTool(t, second, "read_output", map[string]any{"id": id, "wait": 30}); !strings.HasPrefix(rd["data"].(string), "tick 1") {
		t.Fatalf("read in a new session: %v", rd)
	}
	if st := waitJob(t, second, id); st["state"] != "exited" || st["stdout_bytes"] != 21.0 {
		t.Fatalf("status %v", st)
	}
}

// TestUnknownIDs: every tool and the resource refuse ids that never
// existed with a message saying so.
func TestUnknownIDs(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr string) {
		js := newJobServer(t, tr, nil, "ALLOW_COMMANDS=echo")
		cs := js.connect(nil)
		for _, c := range []struct {
			tool string
			args map[string]any
			want string
		}{
			{"read_output", map[string]any{"id": "zzzzzzzzzz"}, `unknown output id "zzzzzzzzzz"`},
			{"read_output", map[string]any{"id": "../../etc/passwd"}, "unknown output id"},
			{"job_status", map[string]any{"id": "zzzzzzzzzz"}, `unknown job id "zzzzzzzzzz"`},
			{"job_kill", map[string]any{"id": "x"}, "unknown job id"},
			{"job_stdin", map[string]any{"id": "zzzzzzzzzz", "close": true}, "unknown job id"},
			{"shell_execute", map[string]any{"command": []string{"echo"}, "stdin_output_id": "zzzzzzzzzz"}, "unknown output id"},
		} {
			if r, _ := mcptest.CallTool(t, cs, c.tool, c.args); !r.IsError || !strings.Contains(text(r), c.want) {
				t.Errorf("%s %v: %q, want %q", c.tool, c.args, text(r), c.want)
			}
		}
		var rejected int
		for _, rec := range js.records() {
			if rec["result_type"] == "rejected" && rec["rule"] == "request.id" {
				rejected++
			}
		}
		if rejected != 6 {
			t.Errorf("%d rejected records with rule request.id, want 6", rejected)
		}
	})
}

// TestJobsAtShutdown: a running job is killed when the server stops, and
// its end is audited before the process exits.
func TestJobsAtShutdown(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr string) {
		js := newJobServer(t, tr, map[string]string{"stubborn.sh": "trap '' TERM\necho $$\nexec sleep 300\n"}, "ALLOW_COMMANDS={tools}/stubborn.sh")
		cs := js.connect(nil)
		id := startJob(t, cs, map[string]any{"command": []string{js.script("stubborn.sh")}})
		_, rd := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": id, "wait": 30})
		pid := atoi(t, strings.TrimSpace(rd["data"].(string)))
		js.stop(cs)
		if alive(pid) {
			killPID(pid)
			t.Fatalf("job process %d outlived the server", pid)
		}
		var end map[string]any
		for _, rec := range js.records() {
			if rec["event"] == "job_end" {
				end = rec
			}
		}
		if end["job_id"] != id || end["result_type"] != "cancelled" || end["killed_by"] != "shutdown" {
			t.Errorf("end record %v", end)
		}
		if ents, _ := os.ReadDir(js.retain); len(ents) != 0 {
			t.Errorf("retained outputs left after exit: %v", ents)
		}
	})
}

// TestTextLimit: the default cuts a large output's text to head and tail
// naming the output_id; 0 gives the reference's whole text.
func TestTextLimit(t *testing.T) {
	t.Parallel()
	for _, limit := range []string{"", "0"} {
		js := newJobServer(t, "stdio", nil, "ALLOW_COMMANDS=head", "MCP_SHELL_TEXT_LIMIT_BYTES="+limit)
		os.WriteFile(filepath.Join(js.dir, "big"), []byte(strings.Repeat("0123456789abcdef\n", 6000)), 0o644)
		cs := js.connect(nil)
		r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "100000", "big"}})
		full := m["stdout"].(string)
		if len(full) != 100000 {
			t.Fatalf("structured stdout %d bytes", len(full))
		}
		if limit == "0" {
			if text(r) != full {
				t.Errorf("limit 0: text %d bytes", len(text(r)))
			}
			continue
		}
		if n := len(text(r)); n > 16384+300 || !strings.Contains(text(r), `read_output {"id":"`+m["output_id"].(string)+`","stream":"stdout","offset":`) {
			t.Errorf("default limit: %d bytes of text: %q", n, text(r)[8000:8500])
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// TestJobsWithTypeScriptClient runs the same scenarios with the official
// TypeScript SDK client (testdata/jobs-e2e.mjs) when MCP_CLIENT_DIR names
// an installed copy of shared/tools/mcp-client (npm ci done; .ci/e2e-clients
// runs the script itself after installing it). Installing needs the npm
// registry, so the test never does it.
func TestJobsWithTypeScriptClient(t *testing.T) {
	dir := os.Getenv("MCP_CLIENT_DIR")
	if dir == "" {
		t.Skip("MCP_CLIENT_DIR not set (an installed shared/tools/mcp-client)")
	}
	testenv.Program(t, "node")
	eachTransport(t, func(t *testing.T, tr string) {
		out, err := exec.Command("node", "testdata/jobs-e2e.mjs", "--client", dir, "--bin", binary, "--transport", tr).CombinedOutput()
		t.Logf("%s", out)
		if err != nil {
			t.Fatalf("jobs-e2e.mjs --transport %s: %v", tr, err)
		}
	})
}
