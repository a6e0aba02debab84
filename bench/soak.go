package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// soakRun is section 7: -soak N sequential calls on one session, with the
// server's RSS, threads, open fds and child processes read from /proc
// before and after. Nine calls in ten are shell_execute `true`; every tenth
// alternates between execute_command `echo MARKER` (checked) and a refused
// call (`sort -o`, which must be refused), so the soak also covers the
// second tool and the refusal path.
func (b *bench) soakRun(ctx context.Context) error {
	// The store's directory is the bench's own, so that its entries can
	// be counted.
	retain := filepath.Join(b.tmp, "soak-retain")
	if err := os.MkdirAll(retain, 0o700); err != nil {
		return err
	}
	s, err := launch(ctx, b.oursSpec("MCP_SHELL_RETAIN_DIR="+retain))
	if err != nil {
		return err
	}
	defer s.close()
	const warm = 100
	for i := range warm {
		if _, err := soakCall(ctx, s, i); err != nil {
			return err
		}
	}
	before, err := settle(s.pid())
	if err != nil {
		return err
	}
	entriesBefore := dirEntries(retain)
	n := b.o.soak
	lat := make([]time.Duration, 0, n)
	start := time.Now()
	for i := range n {
		d, err := soakCall(ctx, s, warm+i)
		if err != nil {
			return fmt.Errorf("call %d: %w", i, err)
		}
		lat = append(lat, d)
	}
	total := time.Since(start)
	after, err := settle(s.pid())
	if err != nil {
		return err
	}
	entriesAfter := dirEntries(retain)
	tenth := max(n/10, 1)
	first, last := summarize(lat[:tenth]), summarize(lat[len(lat)-tenth:])
	p := b.newPart("7. Soak: sequential calls, server resources before and after")
	p.printf("%d sequential calls on one session after %d warm-up calls (%.1f s, %.0f calls/s); resources read from /proc of the server process (the go-sdk client cannot see goroutines, so OS threads stand in for them), after waiting up to 2 s for children to be reaped.\n\n", n, warm, total.Seconds(), float64(n)/total.Seconds())
	p.printf("| | before | after | growth |\n|---|---:|---:|---:|\n")
	p.printf("| RSS | %s | %s | %+.1f MiB |\n", kib(before.RSSKiB), kib(after.RSSKiB), float64(after.RSSKiB-before.RSSKiB)/1024)
	p.printf("| peak RSS (VmHWM) | %s | %s | %+.1f MiB |\n", kib(before.HWMKiB), kib(after.HWMKiB), float64(after.HWMKiB-before.HWMKiB)/1024)
	p.printf("| OS threads | %d | %d | %+d |\n", before.Threads, after.Threads, after.Threads-before.Threads)
	p.printf("| open fds | %d | %d | %+d |\n", before.FDs, after.FDs, after.FDs-before.FDs)
	p.printf("| child processes | %d | %d | %+d |\n", before.Children, after.Children, after.Children-before.Children)
	p.printf("| retained-output files | %d | %d | %+d |\n\n", entriesBefore, entriesAfter, entriesAfter-entriesBefore)
	p.printf("RSS growth per 1,000 calls: %+.2f MiB.\n\n", float64(after.RSSKiB-before.RSSKiB)/1024/float64(n)*1000)
	p.printf("Latency drift: p50 of the first tenth %s ms, of the last tenth %s ms (p99 %s → %s ms).\n", ms(first.P50), ms(last.P50), ms(first.P99), ms(last.P99))
	leak := after.FDs > before.FDs || after.Children > before.Children || after.Threads > before.Threads+4 || after.RSSKiB > before.RSSKiB+16<<10
	b.addGoal(fmt.Sprintf("soak %d calls", n), "no fd or child growth (the lifetime watchdog is a child from the start), threads +4 at most (idle restricted threads are kept for reuse); RSS growth < 16 MiB",
		fmt.Sprintf("RSS %+.1f MiB, threads %+d, fds %+d, children %d after", float64(after.RSSKiB-before.RSSKiB)/1024, after.Threads-before.Threads, after.FDs-before.FDs, after.Children), !leak)
	return nil
}

// soakCall is call i of the soak's mix, timed, its answer checked.
func soakCall(ctx context.Context, s *server, i int) (time.Duration, error) {
	start := time.Now()
	switch {
	case i%20 == 9:
		marker := fmt.Sprintf("soak-%d", i)
		d, m, err := s.timedCall(ctx, "execute_command", map[string]any{"program": "echo", "args": []string{marker}})
		if err != nil {
			return d, err
		}
		if out, _ := m["stdout"].(string); out != marker+"\n" {
			return d, fmt.Errorf("%w: execute_command echo %s answered %q", errCall, marker, out)
		}
		return d, nil
	case i%20 == 19:
		_, err := s.call(ctx, "shell_execute", map[string]any{"command": []string{"sort", "-o", "/tmp/x", "in.txt"}})
		d := time.Since(start)
		if !errors.Is(err, errCall) {
			return d, fmt.Errorf("sort -o was not refused as a tool error: %v", err)
		}
		return d, nil
	default:
		_, err := s.call(ctx, "shell_execute", map[string]any{"command": []string{"true"}})
		return time.Since(start), err
	}
}

// dirEntries counts the files in the store directories under parent (the
// server's private directory, mcp-shell-outputs-*); -1 when unreadable.
func dirEntries(parent string) int {
	dirs, err := filepath.Glob(filepath.Join(parent, "mcp-shell-outputs-*"))
	if err != nil {
		return -1
	}
	n := 0
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			return -1
		}
		n += len(ents)
	}
	return n
}

// settle waits up to 2 s for pid to have no child processes, then reads
// its /proc stats.
func settle(pid int) (procStats, error) {
	deadline := time.Now().Add(2 * time.Second)
	for countChildren(pid) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	return readProc(pid)
}
