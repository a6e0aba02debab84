package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// series is one kind of call measured in an interleaved loop: do performs
// one call, timing only the call itself, and checks its answer after the
// clock stopped.
type series struct {
	name string
	do   func(ctx context.Context) (time.Duration, error)
	peer bool // needs the peer server: dropped when it does not run
	d    []time.Duration
}

// warmup is the number of leading iterations of every interleaved loop that
// are run but not recorded (page cache, JIT of the peer, first
// allocations); smokeWarmup replaces it under -smoke.
const warmup, smokeWarmup = 20, 5

// interleave runs warm unrecorded and then n recorded iterations. Each
// iteration calls every series once, in an order that rotates from one
// iteration to the next, so that noise from other users of the machine hits
// all series alike and no series always follows the same one.
func interleave(ctx context.Context, n, warm int, ss []*series) error {
	for i := range n + warm {
		for j := range ss {
			s := ss[(i+j)%len(ss)]
			d, err := s.do(ctx)
			if err != nil {
				return fmt.Errorf("%s (iteration %d): %w", s.name, i, err)
			}
			if i >= warm {
				s.d = append(s.d, d)
			}
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

// rotated runs each step once, starting with step i (mod len(steps)), so
// that in repetition i a different run goes first and no run always
// follows the same one.
func rotated(i int, steps ...func() error) error {
	for j := range steps {
		if err := steps[(i+j)%len(steps)](); err != nil {
			return err
		}
	}
	return nil
}

// latencyGroup is one interleaved loop: the series measured side by side,
// reported as one table and one chart. series[0] is the os/exec floor,
// series[1] ours, series[2] (when the peer runs) the peer doing the same
// work; further series follow.
type latencyGroup struct {
	title     string  // table heading, e.g. "`cat` of a 1 MiB text file"
	short     string  // in goal rows and sentences, e.g. "`cat` 1 MiB"
	n         int     // recorded iterations
	floorGoal float64 // goal: ours p50 ≤ floorGoal × floor p50 (0: none)
	peerGoal  float64 // goal: peer p50 ≥ peerGoal × ours p50 (0: none)
	series    []*series
}

// catSizes are the file sizes of the `cat` groups, one group (table and
// chart) each: 1 MiB is the headline call, 16 MiB a large one
// (the benchmark's client takes frames up to 1 GiB, harness.go).
var catSizes = []int64{1 << 20, 16 << 20}

// catSizes are the sizes this run measures: a smoke run (CI, < 60 s) only
// the first.
func (b *bench) catSizes() []int64 {
	if b.o.smoke {
		return catSizes[:1]
	}
	return catSizes
}

// latency is sections 1 and 2: per-call round trip of `true` and of `cat`
// of a file per catSizes, ours against the os/exec floor and the peer, all
// in one interleaved loop per group.
func (b *bench) latency(ctx context.Context) error {
	ours, err := launch(ctx, b.oursSpec())
	if err != nil {
		return err
	}
	defer ours.close()
	var peer *server
	if b.peerCmd != nil {
		if peer, err = launch(ctx, b.peerSpec()); err != nil {
			b.peerErr = fmt.Errorf("peer did not start: %v", err)
			peer = nil
		} else {
			defer peer.close()
		}
	}
	groups := []*latencyGroup{{title: "`true`", short: "`true`", n: b.o.n, floorGoal: 1.3, peerGoal: 4, series: []*series{
		{name: "floor: os/exec /bin/true", do: floorExec("/bin/true")},
		{name: "ours: shell_execute true", do: oursShell(ours, []string{"true"}, 0)},
		{name: "peer: shell_execute true", do: peerShell(peer, "true", false, 0), peer: true},
	}}}
	// The cat groups run on a server of their own whose output cap fits
	// the largest file, so that the `true` server keeps the default cap.
	oursCat := ours
	if big := slices.Max(b.catSizes()); big > defaultOutputCap {
		if oursCat, err = launch(ctx, b.oursSpec("MCP_SHELL_OUTPUT_LIMIT_BYTES="+itoa(big))); err != nil {
			return err
		}
		defer oursCat.close()
	}
	for _, size := range b.catSizes() {
		g, err := b.catGroup(oursCat, peer, size)
		if err != nil {
			return err
		}
		groups = append(groups, g)
	}
	servers := []*server{ours}
	if oursCat != ours {
		servers = append(servers, oursCat)
	}
	if peer != nil {
		servers = append(servers, peer)
	}
	var cpu []string
	warm := pick(b.o.smoke, smokeWarmup, warmup)
	for _, g := range groups {
		if peer == nil {
			g.series = slices.DeleteFunc(g.series, func(s *series) bool { return s.peer })
		}
		before := cpuTimes(servers)
		if err := interleave(ctx, g.n, warm, g.series); err != nil {
			return err
		}
		after := cpuTimes(servers)
		for i, s := range servers {
			cpu = append(cpu, fmt.Sprintf("%s %s: %.2f ms", s.spec.name, g.short, toMS(after[i]-before[i])/float64(g.n+warm)))
		}
	}
	b.reportLatency(groups, cpu, warm)
	return nil
}

// catGroup is `cat` of a size-byte text file: the floor, ours (stdout
// checked to be the whole file), the peer's full-output path (a call plus
// read_execution_output) and its preview-only single call.
func (b *bench) catGroup(ours, peer *server, size int64) (*latencyGroup, error) {
	data, err := b.writeDataFile(fmt.Sprintf("data-%d.txt", size), size)
	if err != nil {
		return nil, err
	}
	h := human(size)
	g := &latencyGroup{title: "`cat` of a " + h + " text file", short: "`cat` " + h, series: []*series{
		{name: "floor: os/exec cat " + h, do: floorExec("cat", filepath.Join(b.work, data))},
		{name: "ours: shell_execute cat " + h, do: oursShell(ours, []string{"cat", data}, int(size))},
		{name: "peer: cat " + h + " + read_execution_output" + peerStoreNote(size), do: peerShell(peer, "cat "+data, true, int(size)), peer: true},
		{name: "peer: cat " + h + ", 1 call (preview only)", do: peerShell(peer, "cat "+data, false, 0), peer: true},
	}}
	// cat moves size bytes per call: fewer iterations (an eighth of -n per
	// MiB) keep the run short.
	g.n = max(b.o.n/8/int(max(size>>20, 1)), 10)
	if size == 1<<20 {
		g.peerGoal = 4 // the target names 1 MiB
	}
	return g, nil
}

// peerStoreMax is how much of an output the peer's file store keeps
// (2.7.1: reads past 5 MiB return nothing), so its full-output path ends
// there.
const peerStoreMax = 5 << 20

func peerStoreNote(size int64) string {
	if size <= peerStoreMax {
		return ""
	}
	return " (its store keeps the first " + human(peerStoreMax) + ")"
}

// cpuTimes is each server process's user+system CPU time so far.
func cpuTimes(ss []*server) []time.Duration {
	out := make([]time.Duration, len(ss))
	for i, s := range ss {
		out[i] = cpuTime(s.pid())
	}
	return out
}

func floorExec(name string, args ...string) func(context.Context) (time.Duration, error) {
	return func(ctx context.Context) (time.Duration, error) {
		start := time.Now()
		// Output captures stdout in memory, as a server must.
		_, err := exec.CommandContext(ctx, name, args...).Output()
		return time.Since(start), err
	}
}

// oursShell calls our shell_execute with argv and checks exit_code 0 and,
// when wantBytes > 0, a stdout of exactly that length.
func oursShell(s *server, argv []string, wantBytes int) func(context.Context) (time.Duration, error) {
	args := map[string]any{"command": argv}
	return func(ctx context.Context) (time.Duration, error) {
		d, m, err := s.timedCall(ctx, "shell_execute", args)
		if err != nil {
			return d, err
		}
		if code, _ := m["exit_code"].(float64); code != 0 || m["exit_code"] == nil {
			return d, fmt.Errorf("%w: exit_code %v", errCall, m["exit_code"])
		}
		if out, _ := m["stdout"].(string); wantBytes > 0 && len(out) != wantBytes {
			return d, fmt.Errorf("%w: stdout has %d bytes, want %d", errCall, len(out), wantBytes)
		}
		return d, nil
	}
}

// peerShell calls the peer's shell_execute with a shell string in the
// foreground and checks the answer (a JSON text with exit_code 0 and an
// output_id). The peer answers with a preview of about 1000 characters and
// keeps the full output in its file store; with readBack the call is
// followed by read_execution_output for wantBytes bytes, which must all
// come back, so that the client ends up with the same bytes as from ours.
func peerShell(s *server, command string, readBack bool, wantBytes int) func(context.Context) (time.Duration, error) {
	args := map[string]any{"command": command, "execution_mode": "foreground"}
	return func(ctx context.Context) (time.Duration, error) {
		start := time.Now()
		res, err := s.call(ctx, "shell_execute", args)
		if err != nil {
			return time.Since(start), err
		}
		var ans struct {
			ExitCode *int   `json:"exit_code"`
			OutputID string `json:"output_id"`
		}
		if len(res.Content) == 0 || json.Unmarshal([]byte(contentText(res.Content[0])), &ans) != nil {
			return time.Since(start), fmt.Errorf("%w: peer answer is not the expected JSON text: %s", errCall, firstText(res))
		}
		if !readBack {
			d := time.Since(start)
			if ans.ExitCode == nil || *ans.ExitCode != 0 {
				return d, fmt.Errorf("%w: peer exit_code %v: %s", errCall, ans.ExitCode, firstText(res))
			}
			return d, nil
		}
		// The peer reads at most 10 MB a call (its schema; in practice it
		// returns up to 5 MiB), so larger outputs are read in pages by
		// offset, each as long as it returned, as its client would.
		const page = 8 << 20
		for got := 0; got < wantBytes; {
			res, err = s.call(ctx, "read_execution_output", map[string]any{"output_id": ans.OutputID, "offset": got, "size": min(page, wantBytes-got)})
			if err != nil {
				return time.Since(start), err
			}
			var pg struct {
				Size int `json:"size"`
			}
			if len(res.Content) == 0 || json.Unmarshal([]byte(contentText(res.Content[0])), &pg) != nil {
				return time.Since(start), fmt.Errorf("%w: peer read_execution_output answer is not the expected JSON text: %s", errCall, firstText(res))
			}
			if pg.Size == 0 && got >= peerStoreMax {
				break // the peer's store kept no more of the output
			}
			if pg.Size <= 0 || pg.Size > min(page, wantBytes-got) {
				return time.Since(start), fmt.Errorf("%w: peer read_execution_output at offset %d returned %d bytes, want 1 to %d", errCall, got, pg.Size, min(page, wantBytes-got))
			}
			got += pg.Size
		}
		return time.Since(start), nil
	}
}

// writeLatencyTable writes g's table (quantiles per series) and chart.
func writeLatencyTable(p *part, g *latencyGroup) {
	p.printf("**%s**\n\n| series | n | p10 | p50 | p90 | p99 | IQR |\n|---|---:|---:|---:|---:|---:|---:|\n", g.title)
	for _, s := range g.series {
		m := summarize(s.d)
		p.printf("| %s | %d | %s | %s | %s | %s | %s |\n", s.name, m.N, ms(m.P10), ms(m.P50), ms(m.P90), ms(m.P99), ms(m.IQR()))
	}
	p.printf("\n```text\n%s```\n\n", latencyChart(g.series))
}

func (b *bench) reportLatency(groups []*latencyGroup, cpu []string, warm int) {
	p := b.newPart("1–2. Per-call latency: ours against the os/exec floor and the peer")
	p.printf("One stdio MCP session per server (go-sdk client in this process), kept open; each iteration runs every series once, in a rotating order (%d warm-up iterations dropped). Times are client-side round trips in milliseconds. Each table is followed by a chart of the same series: %s.\n\n", warm, chartLegend)
	for _, g := range groups {
		writeLatencyTable(p, g)
	}
	p.printf("Server-process CPU time per call (user+system of the server process only, not its children; from /proc/<pid>/stat, 10 ms ticks averaged over the loop): %s.\n\n", strings.Join(cpu, "; "))
	for _, g := range groups {
		floor, ours := summarize(g.series[0].d), summarize(g.series[1].d)
		r := ratio(ours.P50, floor.P50)
		blocks := rangeOf(blockRatios(g.series[1].d, g.series[0].d, 5), "%.2f")
		p.printf("Ours/floor for %s: p50 %.2f×, p90 %.2f×, p99 %.2f×; p50 ratio per fifth of the run %s (the spread the machine's noise causes).\n\n",
			g.short, r, ratio(ours.P90, floor.P90), ratio(ours.P99, floor.P99), blocks)
		if g.floorGoal > 0 {
			b.addGoal("per-call overhead ("+g.short+")", fmt.Sprintf("ours p50 ≤ %g × os/exec floor p50", g.floorGoal),
				fmt.Sprintf("%.2f× (%s vs %s ms; per-fifth %s)", r, ms(ours.P50), ms(floor.P50), blocks), r <= g.floorGoal)
		}
	}
	for _, g := range groups {
		target := fmt.Sprintf("peer p50 ≥ %g × ours p50", g.peerGoal)
		if len(g.series) < 3 {
			if g.peerGoal > 0 {
				b.skipGoal("peer latency "+g.short, target, fmt.Sprintf("not measured: %v", b.peerErr))
			}
			continue
		}
		o, pe := summarize(g.series[1].d), summarize(g.series[2].d)
		rr := ratio(pe.P50, o.P50)
		p.printf("Peer/ours for %s: p50 %.1f× (per fifth %s), p90 %.1f×", g.short, rr, rangeOf(blockRatios(g.series[2].d, g.series[1].d, 5), "%.1f"), ratio(pe.P90, o.P90))
		for _, s := range g.series[3:] {
			p.printf("; %s: p50 %.1f× ours", s.name, ratio(quantile(s.d, .5), o.P50))
		}
		p.printf(".\n\n")
		if g.peerGoal > 0 {
			b.addGoal("peer latency "+g.short, target, fmt.Sprintf("%.1f× (peer %s vs ours %s ms)", rr, ms(pe.P50), ms(o.P50)), rr >= g.peerGoal)
		}
	}
	if b.peerErr != nil {
		p.printf("Peer not measured: %v\n\n", b.peerErr)
		return
	}
	p.printf("The peer's `shell_execute` answers `cat` with a preview of about 1000 characters and keeps the full output in its file store (`/tmp/mcp-shell-files`, hard-coded; the benchmark removes the files its run created); the goal row counts the same work as ours, the client holding the whole file, which takes a second call (`read_execution_output`). The single preview-only call is listed for completeness.\n\n")
}
