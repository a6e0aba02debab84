package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestArg(t *testing.T) {
	tests := []struct{ in, want string }{
		{"status", "status"},
		{"SECRET_TOKEN=super-secret", "[REDACTED]=[REDACTED]"},
		{"--author=alice", "[REDACTED]=[REDACTED]"},
		{"--password", "[REDACTED]"},
		{"name=hunter2token", "name=[REDACTED]"},
		{"123456789012345678901234567890123456789", "123456789012345678901234567890123456789"},
		{strings.Repeat("a", 32), strings.Repeat("a", 32)},
		{strings.Repeat("a", 33), "[sha256:" + "f8a3f4a2" + "]"},
		{"x=" + strings.Repeat("b", 40), "x=[sha256:"},
	}
	for _, tt := range tests {
		got := Arg(tt.in)
		if strings.HasSuffix(tt.want, "[sha256:") {
			if !strings.HasPrefix(got, tt.want) || len(got) != len(tt.want)+9 {
				t.Errorf("Arg(%q) = %q, want a digest", tt.in, got)
			}
			continue
		}
		if strings.HasPrefix(tt.want, "[sha256:") {
			if !strings.HasPrefix(got, "[sha256:") || len(got) != 17 {
				t.Errorf("Arg(%q) = %q, want a digest", tt.in, got)
			}
			continue
		}
		if got != tt.want {
			t.Errorf("Arg(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEnvAndReason(t *testing.T) {
	got := Env(map[string]string{"GITHUB_TOKEN": "x", "API_KEY": "y", "LANG": "C"})
	if len(got) != 2 || got["[REDACTED]"] != "[REDACTED]" || got["LANG"] != "C" {
		t.Errorf("Env = %v", got)
	}
	msg := `Command not allowed: --token=abc`
	if r := Reason(msg, "--token=abc"); strings.Contains(r, "abc") {
		t.Errorf("Reason leaked the secret: %q", r)
	}
	if r := Reason("Command not allowed: rm", "rm"); r != "Command not allowed: rm" {
		t.Errorf("Reason changed a plain message: %q", r)
	}
}

func TestLogWritesOneRedactedJSONLine(t *testing.T) {
	var buf bytes.Buffer
	code := 0
	New(&buf).Log(context.Background(), Record{
		Time: time.Unix(1700000000, 0), Duration: 1500 * time.Millisecond, ResultType: Success, Tool: "shell_execute",
		Argv: []string{"curl", "-H", "Authorization: Bearer abc"}, Directory: "/w", ReturnCode: &code,
		Env: map[string]string{"MY_PASSWORD": "p"}, Rule: "allowlist.exact:curl",
	})
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d lines", len(lines))
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &m); err != nil {
		t.Fatal(err)
	}
	if m["msg"] != "shell_execution_audit" || m["logger"] != "mcp-shell-server.audit" || m["duration"] != 1.5 || m["return_code"] != 0.0 {
		t.Errorf("record %v", m)
	}
	if strings.Contains(lines[0], "Bearer abc") || strings.Contains(lines[0], "MY_PASSWORD") {
		t.Errorf("secret leaked: %s", lines[0])
	}
}

func FuzzArg(f *testing.F) {
	for _, s := range []string{"", "a=b", "TOKEN=x", strings.Repeat("z", 40), "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Arg(s)
		if SecretLike(s) && strings.Contains(got, s) && s != "" {
			t.Errorf("secret-like %q kept in %q", s, got)
		}
	})
}

func TestCredentialsInURLs(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:s3cr3t@git.example.invalid/org/repo.git": "https://user:***@git.example.invalid/org/repo.git",
		"bearer abc.def":                "bearer ***",
		"https://git.example.invalid/x": "https://git.example.invalid/x",
	} {
		if got := Scalar(in); got != want {
			t.Errorf("Scalar(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSecretOptionValuesAndReasons(t *testing.T) {
	got := Argv([]string{"tool", "--password", "Hunter2pw", "--token=abc", "-v", "plain"})
	want := []string{"tool", "[REDACTED]", "[REDACTED]", "[REDACTED]=[REDACTED]", "-v", "plain"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Argv = %q, want %q", got, want)
	}
	reason := `Input validation error: validating /properties/timeout: type: "ghp_0123456789abcdefghijklmnopqrstuvwxyz" has type "string", want "integer"`
	if r := Reason(reason, ""); strings.Contains(r, "ghp_0123456789") || !strings.HasPrefix(r, "Input validation error:") {
		t.Errorf("Reason = %q", r)
	}
}

func TestJobFields(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf)
	l.Log(context.Background(), Record{ResultType: Success, Tool: "shell_execute"})
	l.Log(context.Background(), Record{ResultType: Started, Tool: "shell_execute", Job: Job{Event: EventJobStart, JobID: "abc", OutputID: "abc", Adaptive: true}})
	l.Log(context.Background(), Record{ResultType: Success, Tool: "read_output", Job: Job{Event: EventOutputRead, OutputID: "abc", Stream: "stdout", Offset: 0, ReadBytes: 0}})
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var plain, start, read map[string]any
	json.Unmarshal([]byte(lines[0]), &plain)
	json.Unmarshal([]byte(lines[1]), &start)
	json.Unmarshal([]byte(lines[2]), &read)
	for _, k := range []string{"event", "job_id", "output_id", "adaptive", "stream", "read_bytes"} {
		if _, ok := plain[k]; ok {
			t.Errorf("a foreground record carries %s", k)
		}
	}
	if start["event"] != "job_start" || start["job_id"] != "abc" || start["adaptive"] != true || start["result_type"] != "started" {
		t.Errorf("start %v", start)
	}
	if read["event"] != "output_read" || read["stream"] != "stdout" || read["read_bytes"] != 0.0 || read["offset"] != 0.0 {
		t.Errorf("read %v", read)
	}
}
