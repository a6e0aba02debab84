package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

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
	size := b.o.big
	const defaultCap = 1 << 20
	var floor []time.Duration
	var drains []drainRun
	for i := range reps {
		step := []func() error{
			func() error {
				d, err := pipeFloor(ctx, size)
				floor = append(floor, d)
				return err
			},
			func() error {
				r, err := b.drainOnce(ctx, nil, "head", []string{"-c", itoa(size), "/dev/zero"}, defaultCap, true)
				drains = append(drains, r)
				return err
			},
		}
		for j := range step {
			if err := step[(i+j)%2](); err != nil {
				return err
			}
		}
	}
	// The capture run: a printable file, so the JSON answer is about as
	// large as the output (NUL bytes would be escaped six-fold).
	capSize := b.o.capture
	name, err := b.writeDataFile("data-capture.txt", capSize)
	if err != nil {
		return err
	}
	// The fixed cost of the answer alone: exactly the cap, nothing to drain.
	var fixed []drainRun
	for range reps {
		r, err := b.drainOnce(ctx, nil, "head", []string{"-c", itoa(defaultCap), "/dev/zero"}, defaultCap, false)
		if err != nil {
			return err
		}
		fixed = append(fixed, r)
	}
	var captures []drainRun
	for range reps {
		r, err := b.drainOnce(ctx, []string{"MCP_SHELL_OUTPUT_LIMIT_BYTES=" + itoa(capSize)}, "head", []string{"-c", itoa(capSize), name}, int(capSize), false)
		if err != nil {
			return err
		}
		captures = append(captures, r)
	}
	b.reportThroughput(size, capSize, defaultCap, floor, drains, fixed, captures)
	return nil
}

// pipeFloor times `head -c size /dev/zero | cat > /dev/null` through sh.
func pipeFloor(ctx context.Context, size int64) (time.Duration, error) {
	start := time.Now()
	err := exec.CommandContext(ctx, "sh", "-c", "head -c "+itoa(size)+" /dev/zero | cat > /dev/null").Run()
	return time.Since(start), err
}

// drainOnce starts a fresh server (so that VmHWM is this call's), runs
// execute_command program args, checks the answer (exit 0, stdout of
// keep bytes, truncated as wantTrunc says) and reads the server's peak RSS.
func (b *bench) drainOnce(ctx context.Context, env []string, program string, args []string, keep int, wantTrunc bool) (drainRun, error) {
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
	start := time.Now()
	res, err := s.call(ctx, "execute_command", map[string]any{"program": program, "args": args, "timeout_ms": 600000})
	r.wall = time.Since(start)
	r.cpu = cpuTime(s.pid()) - cpu0
	if err != nil {
		return r, err
	}
	after, err := readProc(s.pid())
	if err != nil {
		return r, err
	}
	r.hwmKiB = after.HWMKiB
	m, err := structured(res)
	if err != nil {
		return r, err
	}
	out, _ := m["stdout"].(string)
	trunc, _ := m["stdout_truncated"].(bool)
	if code, _ := m["exit_code"].(float64); m["exit_code"] == nil || code != 0 || len(out) != keep || trunc != wantTrunc {
		return r, fmt.Errorf("%w: exit_code %v, stdout %d bytes (want %d), truncated %v (want %v)", errCall, m["exit_code"], len(out), keep, trunc, wantTrunc)
	}
	return r, nil
}

// cpuTime is pid's user+system CPU time from /proc/<pid>/stat (clock ticks
// of 10 ms, the USER_HZ of Linux on every supported architecture).
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

func (b *bench) reportThroughput(size, capSize int64, defaultCap int, floor []time.Duration, drains, fixed, captures []drainRun) {
	p := b.newPart("4. Output throughput and memory")
	walls := func(rs []drainRun) []time.Duration {
		var d []time.Duration
		for _, r := range rs {
			d = append(d, r.wall)
		}
		return d
	}
	rate := func(d time.Duration, n int64) float64 { return float64(n) / d.Seconds() / (1 << 20) }
	fl, dr := medianDuration(floor), medianDuration(walls(drains))
	p.printf("%s through `execute_command` (`head -c %d /dev/zero`, cap %d bytes, the rest read and discarded), against `sh -c 'head -c %d /dev/zero | cat > /dev/null'` run by this program; %d alternating repetitions, a fresh server per call so that VmHWM (peak RSS, from /proc/<pid>/status after the call) is that call's.\n\n",
		human(size), size, defaultCap, size, len(floor))
	p.printf("| run | median wall | MiB/s (median) | wall range | server VmHWM before → after (max) | server CPU (median) |\n|---|---:|---:|---:|---:|---:|\n")
	p.printf("| pipe floor | %s ms | %.0f | %s–%s ms | | |\n", ms(fl), rate(fl, size), ms(quantile(floor, 0)), ms(quantile(floor, 1)))
	hwm, base, cpu := maxHWM(drains)
	p.printf("| ours, drain | %s ms | %.0f | %s–%s ms | %s → %s | %s ms |\n", ms(dr), rate(dr, size), ms(quantile(walls(drains), 0)), ms(quantile(walls(drains), 1)), kib(base), kib(hwm), ms(cpu))
	fw := medianDuration(walls(fixed))
	fhwm, fbase, fcpu := maxHWM(fixed)
	p.printf("| ours, exactly the cap (1 MiB, nothing to drain: the answer's fixed cost) | %s ms | | %s–%s ms | %s → %s | %s ms |\n", ms(fw), ms(quantile(walls(fixed), 0)), ms(quantile(walls(fixed), 1)), kib(fbase), kib(fhwm), ms(fcpu))
	cw := medianDuration(walls(captures))
	chwm, cbase, ccpu := maxHWM(captures)
	p.printf("| ours, capture %s (cap %s) | %s ms | %.0f | %s–%s ms | %s → %s | %s ms |\n\n", human(capSize), human(capSize), ms(cw), rate(cw, capSize), ms(quantile(walls(captures), 0)), ms(quantile(walls(captures), 1)), kib(cbase), kib(chwm), ms(ccpu))
	frac := ratio(fl, dr)
	p.printf("Drain throughput is %.0f%% of the pipe floor (per-repetition pairs: %s). Without the answer's fixed cost (the 1 MiB of NUL bytes is escaped to about 6 MiB of JSON), the drain itself runs at %.0f MiB/s.\n", 100*frac, pairRatios(floor, walls(drains)), rate(max(dr-fw, time.Millisecond), size-int64(defaultCap)))
	b.addGoal("drain throughput "+human(size), "≥ 80% of the pipe floor", fmt.Sprintf("%.0f%% (%.0f vs %.0f MiB/s)", 100*frac, rate(dr, size), rate(fl, size)), frac >= 0.8)
	limit := func(c int64) int64 { return (2*c + 32<<20) >> 10 }
	b.addGoal("peak RSS, "+human(size)+" drained (cap 1 MiB)", fmt.Sprintf("≤ 2 × cap + 32 MiB = %s", kib(limit(int64(defaultCap)))), kib(hwm), hwm <= limit(int64(defaultCap)))
	b.addGoal("peak RSS, "+human(capSize)+" captured (cap "+human(capSize)+")", fmt.Sprintf("≤ 2 × cap + 32 MiB = %s", kib(limit(capSize))), kib(chwm), chwm <= limit(capSize))
}

func pairRatios(floor, ours []time.Duration) string {
	var parts []string
	for i := range min(len(floor), len(ours)) {
		parts = append(parts, fmt.Sprintf("%.0f%%", 100*ratio(floor[i], ours[i])))
	}
	return strings.Join(parts, ", ")
}

// maxHWM is the largest VmHWM after, the largest before, and the median
// server CPU time of rs.
func maxHWM(rs []drainRun) (after, before int64, cpu time.Duration) {
	var cpus []time.Duration
	for _, r := range rs {
		after, before = max(after, r.hwmKiB), max(before, r.baseKiB)
		cpus = append(cpus, r.cpu)
	}
	return after, before, medianDuration(cpus)
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
