package main

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// defaultOutputCap is the server's default output cap per stream
// (MCP_SHELL_OUTPUT_LIMIT_BYTES).
const defaultOutputCap = 1 << 20

// drainRun is one measured execute_command call on a fresh server.
type drainRun struct {
	wall    time.Duration
	hwmKiB  int64 // server VmHWM after the call
	baseKiB int64 // server VmHWM before the call
	cpu     time.Duration
}

// throughput is section 4: bytes/s through execute_command's drain path
// against a shell pipe into cat on the same machine, and the server's
// peak RSS, with the default 1 MiB cap and with the cap raised to the
// captured size.
func (b *bench) throughput(ctx context.Context) error {
	reps := b.reps(3, 1)
	size, capSize := b.o.big, b.o.capture
	const defaultCap = defaultOutputCap
	// The capture run: a printable file, so the JSON answer is about as
	// large as the output (NUL bytes would be escaped six-fold).
	name, err := b.writeDataFile("data-capture.txt", capSize)
	if err != nil {
		return err
	}
	capEnv := []string{"MCP_SHELL_OUTPUT_LIMIT_BYTES=" + itoa(capSize)}
	var peer *server
	if b.peerCmd != nil {
		if peer, err = launch(ctx, b.peerSpec()); err != nil {
			peer = nil // the latency section reports why
		} else {
			defer peer.close()
		}
	}
	var floor, drains, raws, fixed, captures []drainRun
	bigs := bigOutputs(name, capSize, b.o.smoke)
	bigs[0].shared = &captures // the text answer is the capture run
	for i := range reps {
		steps := []func() error{func() error {
			d, err := pipeFloor(ctx, size)
			floor = append(floor, drainRun{wall: d})
			return err
		}, func() error {
			r, err := b.drainOnce(ctx, nil, size, "/dev/zero", defaultCap, true)
			drains = append(drains, r)
			return err
		}, func() error {
			r, err := b.rawDrain(ctx, b.bin, size)
			raws = append(raws, r)
			return err
		}, func() error {
			// The fixed cost of the answer alone: exactly the cap, nothing
			// to drain.
			r, err := b.drainCalls(ctx, nil, defaultCap, "/dev/zero", defaultCap, false, b.fixedCalls())
			fixed = append(fixed, r)
			return err
		}, func() error {
			r, err := b.drainOnce(ctx, capEnv, capSize, name, int(capSize), false)
			captures = append(captures, r)
			return err
		}}
		if err := rotated(i, append(steps, b.bigOutputSteps(ctx, bigs, peer)...)...); err != nil {
			return err
		}
	}
	b.reportThroughput(size, capSize, defaultCap, floor, drains, raws, fixed, captures, bigs)
	return nil
}

// pipeFloor times `head -c size /dev/zero | cat > /dev/null` through sh.
func pipeFloor(ctx context.Context, size int64) (time.Duration, error) {
	start := time.Now()
	err := exec.CommandContext(ctx, "sh", "-c", "head -c "+itoa(size)+" /dev/zero | cat > /dev/null").Run()
	return time.Since(start), err
}

// drainOnce starts a fresh server (so that VmHWM is this call's), runs
// execute_command `head -c n file`, checks the answer (exit 0, stdout of
// keep bytes, truncated as wantTrunc says) and reads the server's peak RSS.
func (b *bench) drainOnce(ctx context.Context, env []string, n int64, file string, keep int, wantTrunc bool) (drainRun, error) {
	return b.drainCalls(ctx, env, n, file, keep, wantTrunc, 1)
}

// fixedCalls is how many 1 MiB calls the fixed-cost row makes on its
// server: its CPU is read in 10 ms ticks, about what one such call takes,
// so one call alone could not show a change of a millisecond.
func (b *bench) fixedCalls() int {
	if b.o.smoke {
		return 2
	}
	return 20
}

// drainCalls is drainOnce making the call `calls` times on the one
// server: the wall is the median call's, the CPU the mean per call, VmHWM
// the peak over all of them.
func (b *bench) drainCalls(ctx context.Context, env []string, n int64, file string, keep int, wantTrunc bool, calls int) (drainRun, error) {
	var r drainRun
	s, err := launch(ctx, b.oursSpec(env...))
	if err != nil {
		return r, err
	}
	defer s.close()
	before, err := readProc(s.pid())
	if err != nil {
		return r, err
	}
	r.baseKiB = before.HWMKiB
	cpu0 := cpuTime(s.pid())
	var ws []time.Duration
	for range calls {
		w, m, err := s.timedCall(ctx, "execute_command", map[string]any{"program": "head", "args": []string{"-c", itoa(n), file}, "timeout_ms": 600000})
		if err != nil {
			return r, err
		}
		out, _ := m["stdout"].(string)
		trunc, _ := m["stdout_truncated"].(bool)
		if code, _ := m["exit_code"].(float64); m["exit_code"] == nil || code != 0 || len(out) != keep || trunc != wantTrunc {
			return r, fmt.Errorf("%w: exit_code %v, stdout %d bytes (want %d), truncated %v (want %v)", errCall, m["exit_code"], len(out), keep, trunc, wantTrunc)
		}
		ws = append(ws, w)
	}
	r.cpu = (cpuTime(s.pid()) - cpu0) / time.Duration(calls)
	r.wall = quantile(ws, .5)
	after, err := readProc(s.pid())
	if err != nil {
		return r, err
	}
	r.hwmKiB = after.HWMKiB
	return r, nil
}

func (b *bench) reportThroughput(size, capSize int64, defaultCap int, floor, drains, raws, fixed, captures []drainRun, bigs []*bigOutput) {
	p := b.newPart("4. Output throughput and memory")
	rate := func(d time.Duration, n int64) float64 { return float64(n) / d.Seconds() / (1 << 20) }
	p.printf("%s through `execute_command` (`head -c %d /dev/zero`, cap %d bytes, the rest read and discarded), against `sh -c 'head -c %d /dev/zero | cat > /dev/null'` run by this program; %d alternating repetitions, a fresh server per call so that VmHWM (peak RSS, from /proc/<pid>/status after the call) is that call's.\n\n",
		human(size), size, defaultCap, size, len(floor))
	p.printf("| run | median wall | MiB/s (median) | wall range | server VmHWM before → after (max) | server CPU (median) |\n|---|---:|---:|---:|---:|---:|\n")
	// row prints one kind of run (MiB/s of bytes, if any; the server's
	// columns, if it ran on one) and returns its median wall time and
	// largest VmHWM.
	row := func(label string, rs []drainRun, bytes int64) (time.Duration, int64) {
		var cpus []time.Duration
		var hwm, base int64
		for _, r := range rs {
			cpus = append(cpus, r.cpu)
			hwm, base = max(hwm, r.hwmKiB), max(base, r.baseKiB)
		}
		w := walls(rs)
		med, mibs, server := quantile(w, .5), "", " | "
		if bytes > 0 {
			mibs = fmt.Sprintf("%.0f", rate(med, bytes))
		}
		if hwm > 0 {
			server = fmt.Sprintf("%s → %s | %s ms", kib(base), kib(hwm), ms(quantile(cpus, .5)))
		}
		p.printf("| %s | %s ms | %s | %s–%s ms | %s |\n", label, ms(med), mibs, ms(quantile(w, 0)), ms(quantile(w, 1)), server)
		return med, hwm
	}
	fl, _ := row("pipe floor", floor, size)
	dr, hwm := row("ours, drain", drains, size)
	rd, _ := row("ours, drain, raw stdio (the answer read to its last byte, not decoded)", raws, size)
	fw, _ := row(fmt.Sprintf("ours, exactly the cap (1 MiB, nothing to drain: the answer's fixed cost; %d calls on one server, median wall, CPU per call)", b.fixedCalls()), fixed, 0)
	_, chwm := row(fmt.Sprintf("ours, capture %s (cap %s)", human(capSize), human(capSize)), captures, capSize)
	frac := ratio(fl, dr)
	p.printf("\nDrain throughput is %.0f%% of the pipe floor (per-repetition pairs: %s). Without the answer's fixed cost (the 1 MiB of NUL bytes is escaped to about 6 MiB of JSON), the drain itself runs at %.0f MiB/s.\n", 100*frac, pairRatios(walls(floor), walls(drains)), rate(max(dr-fw, time.Millisecond), size-int64(defaultCap)))
	// The goal is the raw row's, the server's side of the call: the go-sdk
	// row's wall includes this process decoding 1 MiB of NUL bytes (the
	// fixed cost's row, most of its wall), which the floor does not do.
	rawFrac := ratio(fl, rd)
	p.printf("Read raw, the drain is %.0f%% of the pipe floor (per-repetition pairs: %s).\n", 100*rawFrac, pairRatios(walls(floor), walls(raws)))
	b.addGoal("drain throughput "+human(size)+", raw stdio", "≥ 80% of the pipe floor", fmt.Sprintf("%.0f%% (%.0f vs %.0f MiB/s; go-sdk client %.0f%%)", 100*rawFrac, rate(rd, size), rate(fl, size), 100*frac), rawFrac >= 0.8)
	limit := func(c int64) int64 { return (2*c + 32<<20) >> 10 }
	b.addGoal("peak RSS, "+human(size)+" drained (cap 1 MiB)", fmt.Sprintf("≤ 2 × cap + 32 MiB = %s", kib(limit(int64(defaultCap)))), kib(hwm), hwm <= limit(int64(defaultCap)))
	b.addGoal("peak RSS, "+human(capSize)+" captured (cap "+human(capSize)+")", fmt.Sprintf("≤ 2 × cap + 32 MiB = %s", kib(limit(capSize))), kib(chwm), chwm <= limit(capSize))
	b.reportBigOutputs(p, bigs)
}

// walls is the wall time of each run.
func walls(rs []drainRun) []time.Duration {
	var d []time.Duration
	for _, r := range rs {
		d = append(d, r.wall)
	}
	return d
}

func pairRatios(floor, ours []time.Duration) string {
	var parts []string
	for i := range min(len(floor), len(ours)) {
		parts = append(parts, fmt.Sprintf("%.0f%%", 100*ratio(floor[i], ours[i])))
	}
	return strings.Join(parts, ", ")
}

func kib(k int64) string { return fmt.Sprintf("%.1f MiB", float64(k)/1024) }

func human(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}
