package audit

import (
	"context"
	"io"
	"testing"
	"time"
)

// BenchmarkRecord is one call's record, the way the server writes it
// (Admit, then Ticket.Log) to a destination that keeps up: the redaction,
// the slog JSON encoding and the hand-off to the writer. A record holds
// counts, never the output, so its cost does not grow with the output;
// the 1 MiB row says so by measuring the same work for a 1 MiB cat.
func BenchmarkRecord(b *testing.B) {
	code := 0
	records := []struct {
		name string
		r    Record
	}{
		{"true", Record{Tool: "shell_execute", Argv: []string{"true"}, ResultType: Success, ReturnCode: &code, Stages: 1, OutputLim: 1 << 20, Timeout: time.Minute}},
		{"cat-1MiB", Record{Tool: "shell_execute", Argv: []string{"cat", "big.txt"}, Directory: "/work", ResultType: Success, ReturnCode: &code, Stages: 1, OutputLim: 1 << 20, Timeout: time.Minute, StdoutN: 1 << 20, StdoutRead: 1 << 20}},
		{"secret-argv", Record{Tool: "shell_execute", Argv: []string{"curl", "-H", "Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789", "https://user:pw@example.com/x?token=123"}, Env: map[string]string{"API_TOKEN": "s3cr3t-value-123456"}, ResultType: Rejected, Reason: "not allowed", Rule: "curl"}},
	}
	for _, c := range records {
		b.Run(c.name, func(b *testing.B) {
			l := New(io.Discard)
			defer l.Close(context.Background())
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				tk, err := l.Admit()
				if err != nil {
					b.Fatal(err)
				}
				c.r.Time = time.Now()
				if err := tk.Log(ctx, c.r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRedact is the redaction of one record's argv and env alone, the
// part of a small call's record that grows with what the client sent: an
// everyday argv (no secret), one with a URL and a credential option, and
// one with a token-shaped value.
func BenchmarkRedact(b *testing.B) {
	for _, c := range []struct {
		name string
		argv []string
		env  map[string]string
	}{
		{"everyday", []string{"git", "log", "--oneline", "-n", "20", "--author=alice", "src/auth/handler.go"}, nil},
		{"credentials", []string{"curl", "-sS", "-u", "alice:hunter2pw", "https://user:pw@example.com/v1/items?page=2&access_token=abc123", "-H", "Authorization: Bearer abcdefghijklmnop"}, map[string]string{"LANG": "C.UTF-8", "API_TOKEN": "s3cr3t"}},
		{"token-shaped", []string{"echo", "ghp_0123456789abcdefghijklmnopqrstuvwxyz", "0123456789abcdef0123456789abcdef01234567", "3f2504e0-4f89-11d3-9a0c-0305e82c3301"}, nil},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Argv(c.argv)
				Env(c.env)
			}
		})
	}
}
