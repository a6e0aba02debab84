package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// beforeAfter is section 10 (with -before): the performance goals measured
// for an earlier build ("before", -before) and this one ("after") side by
// side in one run, each against its floor in the same interleaved loop or
// alternating repetitions, as ratios. A row is a goal of the table in
// BENCHMARKS.md; its verdict is on the "after" build.
func (b *bench) beforeAfter(ctx context.Context) error {
	bins := []struct{ name, bin string }{{"before", b.o.before}, {"after", b.bin}}
	p := b.newPart("10. Before and after: the goals of the performance round")
	p.printf("`before` is %s, `after` is this build; both measured in the same run, interleaved or alternating, each against the same floor. Ratios are what to compare; the machine is shared.\n\n", b.o.before)
	p.printf("| goal | floor (F) | before | after | target | met |\n|---|---|---|---|---|---|\n")
	steps := []func() error{
		func() error { return b.goalTrue(ctx, p, bins) },
		func() error { return b.goalStartup(ctx, p, bins) },
		func() error { return b.goalFullText(ctx, p, bins) },
		func() error { return b.goalCapTail(ctx, p, bins) },
		func() error { return b.goalCallCPU(ctx, p, bins) },
		func() error { return b.goalDrain(ctx, p, bins) },
		func() error { return b.goalHTTP(ctx, p, bins) },
		func() error { return b.goalSandboxStage(ctx, p, bins) },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	p.printf("\n")
	return nil
}

// withBin runs f with bin as the server binary every helper starts.
func (b *bench) withBin(bin string, f func() error) error {
	saved := b.bin
	b.bin = bin
	defer func() { b.bin = saved }()
	return f()
}

func (b *bench) goalRow(p *part, goal, floor, before, after, target string, met bool) {
	mark := "missed"
	if met {
		mark = "met"
	}
	p.printf("| %s | %s | %s | %s | %s | %s |\n", goal, floor, before, after, target, mark)
	b.addGoal("before/after: "+goal, target, after, met)
}

// goalTrue: `true` over stdio, p50 against exec.Command("/bin/true").
func (b *bench) goalTrue(ctx context.Context, p *part, bins []struct{ name, bin string }) error {
	ss := []*series{{name: "floor", do: floorExec("/bin/true")}}
	for _, x := range bins {
		var s *server
		err := b.withBin(x.bin, func() (err error) { s, err = launch(ctx, b.oursSpec()); return err })
		if err != nil {
			return err
		}
		defer s.close()
		ss = append(ss, &series{name: x.name, do: oursShell(s, []string{"true"}, 0)})
	}
	n := max(b.o.n/4, 40)
	if err := interleave(ctx, n, pick(b.o.smoke, smokeWarmup, warmup), ss); err != nil {
		return err
	}
	f := medianDuration(ss[0].d)
	r := func(s *series) float64 { return ratio(medianDuration(s.d), f) }
	b.goalRow(p, "`true`, stdio, p50", ms(f)+" ms", fmt.Sprintf("%.2f× F", r(ss[1])), fmt.Sprintf("%.2f× F (%s ms)", r(ss[2]), ms(medianDuration(ss[2].d))), "≤ 1.2× F", r(ss[2]) <= 1.2)
	return nil
}

// goalSandboxStage: the sandbox's cost per stage (auto − off, p50) for
// each build, `true` and `true | true | true`, through four servers (each
// build with MCP_SHELL_SANDBOX=off and auto) in one interleaved loop per
// pipeline, so that both builds' differences come from the same noise.
func (b *bench) goalSandboxStage(ctx context.Context, p *part, bins []struct{ name, bin string }) error {
	type pair struct{ off, auto *series }
	for _, c := range []struct {
		label  string
		argv   []string
		stages int
		n      int
	}{
		{"`true`", []string{"true"}, 1, max(b.o.n/2, 40)},
		{"3 × `true`, piped", []string{"true", "|", "true", "|", "true"}, 3, max(b.o.n/4, 20)},
	} {
		var ss []*series
		pairs := make([]pair, len(bins))
		for i, x := range bins {
			for _, mode := range []string{"off", "auto"} {
				var s *server
				err := b.withBin(x.bin, func() (err error) { s, err = launch(ctx, b.oursSpec("MCP_SHELL_SANDBOX="+mode)); return err })
				if err != nil {
					return err
				}
				defer s.close()
				se := &series{name: x.name + " " + mode, do: oursShell(s, c.argv, 0)}
				ss = append(ss, se)
				if mode == "off" {
					pairs[i].off = se
				} else {
					pairs[i].auto = se
				}
			}
		}
		if err := interleave(ctx, c.n, pick(b.o.smoke, smokeWarmup, warmup), ss); err != nil {
			return err
		}
		cost := make([]time.Duration, len(bins))
		cells := make([]string, len(bins))
		offs := make([]string, len(bins))
		for i, pr := range pairs {
			off, auto := medianDuration(pr.off.d), medianDuration(pr.auto.d)
			cost[i] = (auto - off) / time.Duration(c.stages)
			cells[i] = fmt.Sprintf("%s ms (auto %s, off %s)", ms(cost[i]), ms(auto), ms(off))
			offs[i] = ms(off)
		}
		b.goalRow(p, fmt.Sprintf("sandbox cost per stage, %s, stdio (auto − off, p50, per stage)", c.label), "off p50: "+strings.Join(offs, " / ")+" ms",
			cells[0], cells[1], fmt.Sprintf("≤ %g ms per stage", sandboxStageGoal.Seconds()*1000), cost[1] <= sandboxStageGoal)
	}
	return nil
}

// goalStartup: process start to the initialize answer (raw JSON-RPC on
// stdio), against `--help` to exit.
func (b *bench) goalStartup(ctx context.Context, p *part, bins []struct{ name, bin string }) error {
	reps := b.reps(15, 3)
	var floor []time.Duration
	times := make([][]time.Duration, len(bins))
	for i := range reps {
		start := time.Now()
		if err := exec.CommandContext(ctx, b.bin, "--help").Run(); err != nil {
			return err
		}
		floor = append(floor, time.Since(start))
		for j := range bins {
			k := (i + j) % len(bins)
			d, err := b.initializeOnce(ctx, bins[k].bin)
			if err != nil {
				return fmt.Errorf("%s: %w", bins[k].name, err)
			}
			times[k] = append(times[k], d)
		}
	}
	f := medianDuration(floor)
	after := medianDuration(times[1])
	b.goalRow(p, "start-up to `initialize` answered, median", "`--help` "+ms(f)+" ms",
		fmt.Sprintf("%s ms (%.2f× F)", ms(medianDuration(times[0])), ratio(medianDuration(times[0]), f)),
		fmt.Sprintf("%s ms (%.2f× F)", ms(after), ratio(after, f)), "≤ 20 ms", after <= 20*time.Millisecond)
	return nil
}

// initializeOnce starts bin and times its answer to initialize.
func (b *bench) initializeOnce(ctx context.Context, bin string) (time.Duration, error) {
	var spec serverSpec
	b.withBin(bin, func() error { spec = b.oursSpec(); return nil })
	cmd := exec.CommandContext(ctx, spec.argv[0], spec.argv[1:]...)
	cmd.Env, cmd.Dir = spec.env, spec.dir
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() { in.Close(); io.Copy(io.Discard, out); cmd.Wait() }()
	if _, err := io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`+"\n"); err != nil {
		return 0, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	d := time.Since(start)
	if err != nil || !strings.Contains(line, `"result"`) {
		return d, fmt.Errorf("%w: initialize answered %.200q (%v)", errCall, line, err)
	}
	return d, nil
}

// goalFullText: 64 MiB of text and of NUL bytes with the whole output as
// text too (MCP_SHELL_TEXT_LIMIT_BYTES=0), each on a fresh server, the
// answer read raw, against physicalLimit; and the server's VmHWM.
func (b *bench) goalFullText(ctx context.Context, p *part, bins []struct{ name, bin string }) error {
	n := b.o.capture
	name, err := b.writeDataFile("data-fulltext.txt", n)
	if err != nil {
		return err
	}
	env := []string{"MCP_SHELL_OUTPUT_LIMIT_BYTES=" + itoa(n), "MCP_SHELL_TEXT_LIMIT_BYTES=0"}
	reps := b.reps(2, 1) // an earlier build may take a minute and GiBs for one NUL answer
	for _, in := range []struct {
		label, file, target string
		goal                float64
	}{{"text", name, "≤ 2.5× F", 2.5}, {"NUL bytes", "/dev/zero", "≤ 3× F", 3}} {
		var floor []time.Duration
		runs := make([][]drainRun, len(bins))
		for i := range reps {
			steps := []func() error{func() error {
				d, err := physicalLimit(ctx, b.abs(in.file), n)
				floor = append(floor, d)
				return err
			}}
			for k, x := range bins {
				steps = append(steps, func() error {
					return b.withBin(x.bin, func() error {
						r, _, err := b.rawCall(ctx, env, n, in.file, true)
						runs[k] = append(runs[k], r)
						return err
					})
				})
			}
			if err := rotated(i, steps...); err != nil {
				return err
			}
		}
		f := medianDuration(floor)
		cell := func(rs []drainRun) (string, float64) {
			w := medianDuration(walls(rs))
			hwm := slices.Max(hwms(rs))
			return fmt.Sprintf("%.1f× F (%s ms), VmHWM %s", ratio(w, f), ms(w), kib(hwm)), ratio(w, f)
		}
		before, _ := cell(runs[0])
		after, r := cell(runs[1])
		b.goalRow(p, fmt.Sprintf("%s of %s, `shell_execute`, `MCP_SHELL_TEXT_LIMIT_BYTES=0`, raw stdio", human(n), in.label), ms(f)+" ms", before, after, in.target, r <= in.goal)
	}
	return nil
}

func hwms(rs []drainRun) []int64 {
	var v []int64
	for _, r := range rs {
		v = append(v, r.hwmKiB)
	}
	return v
}

// goalCapTail: `cat` of a 1 MiB file with the cap raised to 64 MiB, on one
// server per build, interleaved: p50, p90 and the server's RSS before and
// after the calls.
func (b *bench) goalCapTail(ctx context.Context, p *part, bins []struct{ name, bin string }) error {
	const size = 1 << 20
	name, err := b.writeDataFile("data-captail.txt", size)
	if err != nil {
		return err
	}
	var ss []*series
	var servers []*server
	idle := make([]int64, len(bins))
	for k, x := range bins {
		var s *server
		err := b.withBin(x.bin, func() (err error) {
			s, err = launch(ctx, b.oursSpec("MCP_SHELL_OUTPUT_LIMIT_BYTES="+itoa(64<<20)))
			return err
		})
		if err != nil {
			return err
		}
		defer s.close()
		st, err := readProc(s.pid())
		if err != nil {
			return err
		}
		idle[k] = st.RSSKiB
		servers = append(servers, s)
		ss = append(ss, &series{name: x.name, do: oursShell(s, []string{"cat", name}, size)})
	}
	if err := interleave(ctx, max(b.o.n/8, 40), pick(b.o.smoke, smokeWarmup, warmup), ss); err != nil {
		return err
	}
	cells := make([]string, len(bins))
	var tail float64
	var rssAfter int64
	for k, s := range ss {
		sum := summarize(s.d)
		st, err := readProc(servers[k].pid())
		if err != nil {
			return err
		}
		tail = float64(sum.P90) / float64(sum.P50)
		rssAfter = st.RSSKiB
		cells[k] = fmt.Sprintf("p50 %s ms, p90 %.2f× p50, p99 %.2f× p50; RSS idle %s → after %s", ms(sum.P50), tail, float64(sum.P99)/float64(sum.P50), kib(idle[k]), kib(st.RSSKiB))
	}
	b.goalRow(p, "`cat` 1 MiB, cap raised to 64 MiB", "", cells[0], cells[1], "p90 ≤ 2× p50; RSS after near idle (≤ idle + 32 MiB)", tail <= 2 && rssAfter <= idle[1]+32<<10)
	return nil
}

// goalHTTP: `true` over Streamable HTTP at 1, 4, 16 and 64 clients, each
// build against the os/exec loop at the same concurrency.
func (b *bench) goalHTTP(ctx context.Context, p *part, bins []struct{ name, bin string }) error {
	var hss []*httpServer
	for _, x := range bins {
		var hs *httpServer
		err := b.withBin(x.bin, func() (err error) { hs, err = b.startHTTP(ctx); return err })
		if err != nil {
			return err
		}
		defer hs.close()
		hss = append(hss, hs)
	}
	window := time.Duration(pick(b.o.smoke, 300, 2000)) * time.Millisecond
	reps := b.reps(3, 1)
	for _, n := range httpClients {
		var floor []float64
		rates := make([][]float64, len(bins))
		for i := range reps {
			steps := []func() error{func() error {
				r, err := execRate(ctx, n, window, []string{"/bin/true"})
				floor = append(floor, r)
				return err
			}}
			for k, hs := range hss {
				steps = append(steps, func() error {
					r, err := hs.rate(ctx, n, window, []string{"true"})
					rates[k] = append(rates[k], r)
					return err
				})
			}
			if err := rotated(i, steps...); err != nil {
				return err
			}
		}
		f := median(floor)
		r := func(k int) float64 { return median(rates[k]) / f }
		b.goalRow(p, fmt.Sprintf("HTTP `true`, %d clients", n), fmt.Sprintf("%.0f calls/s", f),
			fmt.Sprintf("%.2f× F", r(0)), fmt.Sprintf("%.2f× F (%.0f calls/s)", r(1), median(rates[1])), "≥ 0.9× F", r(1) >= 0.9)
	}
	return nil
}
