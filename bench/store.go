package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"time"
)

// The rows of section 10 about the retained-output store: what a call
// whose output the store keeps costs the server, and the drain past the
// retention limit.

// goalCallCPU: the server's CPU time per `cat` call of 1 MiB (past the
// text limit: in the store's file from 16 KiB on) and of 4 KiB (which the
// answer shows whole: held in memory, no file), read from /proc/<pid>/stat
// (utime + stime, 10 ms ticks) over many calls on one server per build,
// the builds' calls interleaved.
func (b *bench) goalCallCPU(ctx context.Context, p *part, bins []struct{ name, bin string }) error {
	for _, size := range []int64{1 << 20, 4 << 10} {
		name, err := b.writeDataFile(fmt.Sprintf("data-cpu-%d.txt", size), size)
		if err != nil {
			return err
		}
		var ss []*series
		var servers []*server
		for _, x := range bins {
			var s *server
			if err := b.withBin(x.bin, func() (err error) { s, err = launch(ctx, b.oursSpec()); return err }); err != nil {
				return err
			}
			defer s.close()
			servers = append(servers, s)
			ss = append(ss, &series{name: x.name, do: oursShell(s, []string{"cat", name}, int(size))})
		}
		warm := pick(b.o.smoke, smokeWarmup, warmup)
		if err := interleave(ctx, warm, 0, ss); err != nil {
			return err
		}
		cpu0 := cpuTimes(servers)
		calls := pick(b.o.smoke, 10, max(b.o.n/10, 100))
		if size < 1<<20 {
			calls *= 4 // a few ms each: more calls for the same resolution
		}
		if err := interleave(ctx, calls, 0, ss); err != nil {
			return err
		}
		cpu1 := cpuTimes(servers)
		per := make([]time.Duration, len(servers))
		for k := range servers {
			per[k] = (cpu1[k] - cpu0[k]) / time.Duration(calls)
		}
		cell := func(k int) string {
			return fmt.Sprintf("%s ms CPU per call (p50 wall %s ms)", ms(per[k]), ms(medianDuration(ss[k].d)))
		}
		b.goalRow(p, fmt.Sprintf("server CPU of one `cat` of %s, `shell_execute`, %d calls per build", human(size), calls), "",
			cell(0), cell(1), "after ≤ before", per[1] <= per[0])
	}
	return nil
}

// goalDrain: 1 GiB through `execute_command head -c 1073741824
// /dev/zero` (1 MiB kept, 16 MiB retained, the rest spliced away) on a
// fresh server per call, its answer read raw (as the pipe floor reads
// nothing back either, the go-sdk client's decoding of 1 MiB of NUL
// bytes, six bytes of JSON each, would be most of section 4's wall),
// against `sh -c 'head -c N /dev/zero | cat > /dev/null'`, alternating.
func (b *bench) goalDrain(ctx context.Context, p *part, bins []struct{ name, bin string }) error {
	n := b.o.big
	reps := b.reps(5, 1)
	var floor []time.Duration
	runs := make([][]drainRun, len(bins))
	for i := range reps {
		steps := []func() error{func() error {
			d, err := pipeFloor(ctx, n)
			floor = append(floor, d)
			return err
		}}
		for k, x := range bins {
			steps = append(steps, func() error {
				r, err := b.rawDrain(ctx, x.bin, n)
				runs[k] = append(runs[k], r)
				return err
			})
		}
		if err := rotated(i, steps...); err != nil {
			return err
		}
	}
	f := medianDuration(floor)
	cell := func(rs []drainRun) (string, float64) {
		w := medianDuration(walls(rs))
		var cpus []time.Duration
		for _, r := range rs {
			cpus = append(cpus, r.cpu)
		}
		return fmt.Sprintf("%.0f%% of F (%s ms), server CPU %s ms", 100*ratio(f, w), ms(w), ms(medianDuration(cpus))), ratio(f, w)
	}
	before, _ := cell(runs[0])
	after, r := cell(runs[1])
	b.goalRow(p, fmt.Sprintf("drain of %s, `execute_command`, raw stdio", human(n)), "pipe "+ms(f)+" ms", before, after, "≥ 95% of F", r >= 0.95)
	return nil
}

// rawDrain runs one `execute_command head -c n /dev/zero` on a fresh
// server of bin through raw JSON-RPC lines and reads its answer to the
// last byte without decoding it: the wall from the request to that byte,
// the server's CPU over the call and its VmHWM before and after.
func (b *bench) rawDrain(ctx context.Context, bin string, n int64) (drainRun, error) {
	var r drainRun
	var spec serverSpec
	b.withBin(bin, func() error { spec = b.oursSpec(); return nil })
	cmd := exec.CommandContext(ctx, spec.argv[0], spec.argv[1:]...)
	cmd.Env, cmd.Dir = spec.env, spec.dir
	stderr := &tailBuffer{max: 4 << 10}
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return r, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return r, err
	}
	if err := cmd.Start(); err != nil {
		return r, err
	}
	defer func() { in.Close(); cmd.Wait() }()
	br := bufio.NewReaderSize(out, 1<<20)
	send := func(msg map[string]any) error {
		msg["jsonrpc"] = "2.0"
		line, err := json.Marshal(msg)
		if err == nil {
			_, err = in.Write(append(line, '\n'))
		}
		return err
	}
	if err := send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "bench-raw", "version": "0"}}}); err != nil {
		return r, err
	}
	if _, _, err := skimLine(br); err != nil {
		return r, fmt.Errorf("raw client: initialize: %w (stderr: %s)", err, stderr)
	}
	if err := send(map[string]any{"method": "notifications/initialized"}); err != nil {
		return r, err
	}
	before, err := readProc(cmd.Process.Pid)
	if err != nil {
		return r, err
	}
	r.baseKiB = before.HWMKiB
	cpu0 := cpuTime(cmd.Process.Pid)
	start := time.Now()
	call := map[string]any{"name": "execute_command", "arguments": map[string]any{"program": "head", "args": []string{"-c", itoa(n), "/dev/zero"}, "timeout_ms": 600000}}
	if err := send(map[string]any{"id": 2, "method": "tools/call", "params": call}); err != nil {
		return r, err
	}
	_, tail, err := skimLine(br)
	r.wall = time.Since(start)
	r.cpu = cpuTime(cmd.Process.Pid) - cpu0
	if err != nil {
		return r, fmt.Errorf("raw client: tools/call: %w (stderr: %s)", err, stderr)
	}
	after, err := readProc(cmd.Process.Pid)
	if err != nil {
		return r, err
	}
	r.hwmKiB = after.HWMKiB
	if bytes.Contains(tail, []byte(`"isError":true`)) || !bytes.Contains(tail, []byte(`"stdout_truncated":true`)) {
		return r, fmt.Errorf("%w: the drain's answer ends %q", errCall, tail)
	}
	return r, nil
}
