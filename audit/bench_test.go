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
