//go:build darwin || linux

// Fault injection that signals the server and its children (kill(2)): Linux and macOS.

package fault

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stopDeadline is the exit goal: the kill grace (150 ms, runner) plus one
// second (server.StopDeadline).
const stopDeadline = 150*time.Millisecond + time.Second

// TestStopOverStdio: with 20 calls running, SIGTERM, SIGINT and the end of
// stdin each terminate every call's process group at once, answer every
// call with its cancelled result, write one record per call and exit
// within the kill grace plus a second.
func TestStopOverStdio(t *testing.T) {
	for _, how := range []string{"SIGTERM", "SIGINT", "stdin EOF"} {
		t.Run(how, func(t *testing.T) {
			hold := holdScript(t)
			s := startStdio(t, "ALLOW_COMMANDS="+hold, "MCP_SHELL_MAX_CONCURRENT=32")
			const n = 20
			var pids []int
			for i := 1; i <= n; i++ {
				s.send(call(i, map[string]any{"command": []string{hold, filepath.Join(s.dir, fmt.Sprint(i))}, "timeout": 300}))
			}
			for i := 1; i <= n; i++ {
				pids = append(pids, waitPID(t, filepath.Join(s.dir, fmt.Sprintf("%d.pid", i))))
			}
			begin := time.Now()
			switch how {
			case "SIGTERM":
				s.cmd.Process.Signal(syscall.SIGTERM)
			case "SIGINT":
				s.cmd.Process.Signal(syscall.SIGINT)
			default:
				s.in.Close()
			}
			cancelled := 0
			for m := s.next(); m != nil; m = s.next() {
				if strings.Contains(text(m), "Command cancelled") {
					cancelled++
				}
			}
			err := s.cmd.Wait()
			took := time.Since(begin)
			left := survivors(pids, 2*time.Second)
			recs := records(t, s.audit)
			t.Logf("%s: %d calls running; %d answered as cancelled; %d processes left; %d records; exit status %v after %v",
				how, n, cancelled, len(left), len(recs), err, took.Round(time.Millisecond))
			if cancelled != n || len(left) != 0 || len(recs) != n || err != nil {
				t.Errorf("want %d answered, 0 left, %d records, exit 0", n, n)
			}
			for _, r := range recs {
				if r["result_type"] != "cancelled" || r["error"] != "the server is shutting down" {
					t.Errorf("record %v", r)
				}
			}
			if took > stopDeadline {
				t.Errorf("exit took %v, goal %v", took, stopDeadline)
			}
		})
	}
}

// TestJSONRPCRobustness: every malformed or unusual message gets a
// JSON-RPC error and the session goes on (the call after each still
// runs); a duplicate in-flight id is refused and audited; a batch gets one
// error per request.
func TestJSONRPCRobustness(t *testing.T) {
	hold := holdScript(t)
	s := startStdio(t, "ALLOW_COMMANDS=echo,"+hold)
	deep := `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"shell_execute","arguments":{"command":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}}`
	cases := []struct {
		name, line string
		code       float64
		id         any // the error reply's id (nil: null)
	}{
		{"nesting 1000 deep", deep, -32600, "deep"},
		{"object id", `{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}`, -32600, nil},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"tools/list"}`, -32600, nil},
		{"not JSON", `{"jsonrpc": "2.0", "id": 1,`, -32700, nil},
		{"tools/call without params", `{"jsonrpc":"2.0","id":"np","method":"tools/call"}`, -32602, "np"},
		{"a string", `"hello"`, -32600, nil},
	}
	answered, survived := 0, 0
	for i, c := range cases {
		s.send(c.line)
		m := s.next()
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != c.code || fmt.Sprint(m["id"]) != fmt.Sprint(c.id) {
			t.Errorf("%s: reply %v, want code %v id %v", c.name, m, c.code, c.id)
		} else {
			answered++
		}
		id := 100 + i
		s.send(call(id, map[string]any{"command": []string{"echo", "alive"}}))
		if r := s.response(id); text(r) == "alive\n" {
			survived++
		}
	}
	// A batch: one error per element with an id, none for the notification.
	s.send(`[{"jsonrpc":"2.0","id":"b1","method":"tools/list"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b2","method":"tools/call","params":{"name":"shell_execute","arguments":{"command":["echo","x"]}}}]`)
	batch, _ := s.next()["batch"].([]map[string]any)
	if len(batch) != 2 || batch[0]["id"] != "b1" || batch[1]["id"] != "b2" {
		t.Errorf("batch reply %v", batch)
	}
	// A BOM before a message is ignored: the message is served.
	s.send("\xef\xbb\xbf" + call("bom", map[string]any{"command": []string{"echo", "bom"}}))
	if r := s.response("bom"); text(r) != "bom\n" {
		t.Errorf("after a BOM: %v", r)
	}
	// A second request with the id of one in flight.
	s.send(call("dup", map[string]any{"command": []string{hold, filepath.Join(s.dir, "dup")}}))
	waitPID(t, filepath.Join(s.dir, "dup.pid"))
	s.send(call("dup", map[string]any{"command": []string{"echo", "second"}}))
	m := s.next()
	if e, _ := m["error"].(map[string]any); e == nil || m["id"] != "dup" || !strings.Contains(fmt.Sprint(e["message"]), "already in use") {
		t.Errorf("duplicate id: %v", m)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"dup"}}`)
	s.in.Close()
	for m := s.next(); m != nil; m = s.next() {
		if m["id"] == "dup" {
			t.Errorf("the cancelled request was answered: %v", m) // issue 18 item 7
		}
	}
	s.cmd.Wait()
	recs := records(t, s.audit)
	protocol, dup := 0, 0
	for _, r := range recs {
		if r["error_type"] == "protocol" {
			protocol++
			if strings.Contains(fmt.Sprint(r["error"]), "already in use") {
				dup++
			}
		}
	}
	refused := len(cases) + 3 + 1 // the table, the batch's three elements, the duplicate
	t.Logf("%d unusual messages: %d answered with the right error, session alive after %d; batch of 3: %d errors; duplicate id refused and audited %d time(s); %d protocol records for %d refused messages, %d records in all",
		len(cases), answered, survived, len(batch), dup, protocol, refused, len(recs))
	if answered != len(cases) || survived != len(cases) || dup != 1 || protocol != refused {
		t.Errorf("want every message answered, the session alive after each, one duplicate record, %d protocol records", refused)
	}
}

// TestRedactionEndToEnd: credentials in the forms their programs read
// them leave no secret in the audit log, in both directions: what is not
// a credential (file names whatever words they hold, sort keys, words,
// commit ids, UUIDs) is recorded whole, and so are the server's sentences
// and env names.
func TestRedactionEndToEnd(t *testing.T) {
	s := startStdio(t, "ALLOW_COMMANDS=echo,curl,cat,sort,grep,git,docker,aws,sqlplus,mysql")
	const ghTok = "ghp_0123456789abcdefghijABCDEFGHIJ"
	secrets := []string{"hunter2pw", "s3cr3tpass", "tok3nAsUser", "p@ss", "mysqlpw", "pwflag", "envsecret", "schemasecret",
		"ghp_0123456789abcdefghij", "userEqPW", "dockerPW", "awsSECRETv", "tigerPW", "sigVALUE9", ghTok}
	calls := []map[string]any{
		{"command": []string{"curl", "-u", "alice:hunter2pw", "-K", "cfg", "https://example.invalid"}},
		{"command": []string{"curl", "--user", "alice:s3cr3tpass", "-K", "cfg"}},
		{"command": []string{"curl", "--user=alice:userEqPW", "https://example.invalid"}},
		{"command": []string{"echo", "https://tok3nAsUser@github.com/o/r.git"}},
		{"command": []string{"echo", "https://bob:p@ss@example.com/x"}},
		{"command": []string{"mysql", "-p", "mysqlpw"}},
		{"command": []string{"echo", "--pw=pwflag", "compass"}},
		{"command": []string{"echo", "x"}, "envs": map[string]string{"MY_SETTING": "envsecret"}},
		{"command": []string{"echo"}, "timeout": "schemasecret"},
		{"command": []string{"echo", "ghp_0123456789abcdefghij"}},
		{"command": []string{"docker", "login", "-u", "bob", "-p", "dockerPW", "registry.example"}},
		{"command": []string{"aws", "configure", "set", "aws_secret_access_key", "awsSECRETv"}},
		{"command": []string{"sqlplus", "scott/tigerPW@orcl"}},
		{"command": []string{"curl", "https://b.s3.amazonaws.com/k?X-Amz-Signature=sigVALUE9"}},
		{"command": []string{"echo", "x"}, "envs": map[string]string{ghTok: "v"}},
		{"command": []string{"cat", "/etc/passwd", ".git-credentials", "src/auth/handler.go"}},
		{"command": []string{"sort", "--key=2", "f"}},
		{"command": []string{"grep", "password", "f"}},
		{"command": []string{"git", "show", "4b825dc642cb6eb9a060e54bf8d69288fbee4904"}},
		{"command": []string{"echo", "3f2504e0-4f89-11d3-9a0c-0305e82c3301"}},
		{"command": []string{"echo", "a\x00b"}},
	}
	for i, args := range calls {
		s.send(call(i+1, args))
		s.response(i + 1)
	}
	s.in.Close()
	for s.next() != nil {
	}
	s.cmd.Wait()
	raw, _ := os.ReadFile(s.audit)
	leaked := 0
	for _, sec := range secrets {
		if strings.Contains(string(raw), sec) {
			leaked++
			t.Errorf("the audit log holds %q", sec)
		}
	}
	recs := records(t, s.audit)
	kept := map[string]bool{}
	wants := []string{"compass", "which no program can receive", `"MY_SETTING":"[REDACTED]"`, "https://[REDACTED]@github.com/o/r.git", "https://[REDACTED]@example.com/x",
		`"/etc/passwd"`, `".git-credentials"`, `"src/auth/handler.go"`, `"--key=2"`, `"password"`, "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
		"3f2504e0-4f89-11d3-9a0c-0305e82c3301", `"alice:[REDACTED]"`, `"scott/[REDACTED]@orcl"`, `"aws_secret_access_key"`}
	lost := 0
	for _, want := range wants {
		kept[want] = strings.Contains(string(raw), want)
		if !kept[want] {
			lost++
			t.Errorf("the audit log lost %q", want)
		}
	}
	t.Logf("%d calls, %d records; %d of %d secrets in the log; %d of %d values that are no secrets lost", len(calls), len(recs), leaked, len(secrets), lost, len(wants))
	if len(recs) != len(calls) {
		t.Errorf("%d records for %d calls", len(recs), len(calls))
	}
}

// TestAuditDurability: no call runs unaudited and none blocks on the log.
func TestAuditDurability(t *testing.T) {
	t.Run("full disk", func(t *testing.T) {
		s := startStdio(t, "ALLOW_COMMANDS=echo", "MCP_SHELL_AUDIT_LOG=/dev/full")
		const n = 30
		ran, refused, warned := 0, 0, 0
		for i := 1; i <= n; i++ {
			s.send(call(i, map[string]any{"command": []string{"echo", "hi"}}))
			out := text(s.response(i))
			switch {
			case strings.HasPrefix(out, "hi\n"):
				ran++
				if strings.Contains(out, "could not write this call's audit record") {
					warned++
				}
			case strings.Contains(out, "audit record right now, so the call was not run"):
				refused++
			}
		}
		s.in.Close()
		s.cmd.Wait()
		said := strings.Count(s.stderr.String(), "audit record")
		t.Logf("/dev/full: %d calls: %d ran (%d with the failure in its result), %d refused; stderr mentions the audit failure %d times", n, ran, warned, refused, said)
		if ran != 1 || warned != 1 || refused != n-1 || said == 0 {
			t.Errorf("want 1 call run and reported, %d refused, stderr saying so", n-1)
		}
	})
	t.Run("stderr nobody reads", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		s := newStdio(t, w, "ALLOW_COMMANDS=echo", "MCP_SHELL_AUDIT_LOG=stderr").initialize()
		w.Close()
		const n = 600
		ran, refused := 0, 0
		var slowest time.Duration
		for i := 1; i <= n; i++ {
			begin := time.Now()
			s.send(call(i, map[string]any{"command": []string{"echo", strings.Repeat("x", 300)}}))
			out := text(s.response(i))
			slowest = max(slowest, time.Since(begin))
			switch {
			case strings.HasPrefix(out, "xxx"):
				ran++
			case strings.Contains(out, "was not run"):
				refused++
			default:
				t.Fatalf("call %d: %q", i, out)
			}
		}
		// Read stderr now: the queue drains; one more call's record
		// carries the count of those lost.
		drained := make(chan string)
		go func() { b, _ := io.ReadAll(r); drained <- string(b) }()
		var last string
		for i := n + 1; ; i++ {
			s.send(call(i, map[string]any{"command": []string{"echo", "after"}}))
			if last = text(s.response(i)); strings.HasPrefix(last, "after") || i > n+200 {
				break
			}
		}
		s.in.Close()
		s.cmd.Wait()
		recs := parseRecords(t, <-drained)
		dropped := 0.0
		for _, rec := range recs {
			d, _ := rec["audit_dropped"].(float64)
			dropped += d
		}
		t.Logf("stderr not read: %d calls answered (slowest %v): %d ran, %d refused; afterwards %d records read, %v reported dropped", n, slowest.Round(time.Millisecond), ran, refused, len(recs), dropped)
		if ran+refused != n || refused == 0 || slowest > time.Second {
			t.Errorf("want every call answered within 1 s and the full queue refusing calls")
		}
		executed := 0
		for _, rec := range recs {
			if rec["result_type"] == "success" {
				executed++
			}
		}
		if executed < ran { // every call that ran has its record
			t.Errorf("%d calls ran but only %d success records", ran, executed)
		}
		if dropped < float64(refused) {
			t.Errorf("reported dropped %v, refused %d", dropped, refused)
		}
	})
}
