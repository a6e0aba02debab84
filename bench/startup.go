package main

import (
	"context"
	"fmt"
	"os/exec"
	"time"
)

// startup is section 3: time from process start to the first tools/list
// answer, ours and the peer alternately, several repetitions.
func (b *bench) startup(ctx context.Context) error {
	reps := b.reps(10, 3)
	specs := []serverSpec{b.oursSpec()}
	if b.peerCmd != nil {
		specs = append(specs, b.peerSpec())
	}
	times := make([][]time.Duration, len(specs))
	var floor []time.Duration
	for i := range reps {
		// Floor: the same binary started and run to exit (--help prints
		// the configuration table): exec, Go runtime start, exit.
		start := time.Now()
		if err := exec.CommandContext(ctx, b.bin, "--help").Run(); err != nil {
			return fmt.Errorf("%s --help: %w", b.bin, err)
		}
		floor = append(floor, time.Since(start))
		for j := range specs {
			k := (i + j) % len(specs)
			s, err := launch(ctx, specs[k])
			if err != nil {
				if specs[k].name == "peer" {
					b.peerErr = err
					specs = specs[:1]
					break
				}
				return err
			}
			times[k] = append(times[k], s.startup)
			if err := s.close(); err != nil && specs[k].name == "ours" {
				return fmt.Errorf("ours: close: %w", err)
			}
		}
	}
	p := b.newPart("3. Start-up: process start to the first tools/list answer")
	p.printf("Each repetition starts a fresh process, connects the go-sdk client over its stdio (IOTransport) and times fork/exec, the MCP handshake and the first `tools/list` answer; ours and the peer alternate. %d repetitions.\n\n| server | n | min | median | max |\n|---|---:|---:|---:|---:|\n", reps)
	p.printf("| floor: `mcp-shell-server --help` to exit | %d | %s |\n", len(floor), minMedMax(floor))
	names := []string{"ours", "peer"}
	for k := range specs {
		p.printf("| %s | %d | %s |\n", names[k], len(times[k]), minMedMax(times[k]))
	}
	ours := medianDuration(times[0])
	p.printf("\nOurs/floor start-up median: %.1f× (the floor shows how slow process start alone is on the machine at the time).\n", ratio(ours, medianDuration(floor)))
	b.addGoal("start-up (ours)", "median < 30 ms", fmt.Sprintf("%s ms (floor `--help` %s ms)", ms(ours), ms(medianDuration(floor))), ours < 30*time.Millisecond)
	if len(specs) > 1 && len(times[1]) > 0 {
		peer := medianDuration(times[1])
		p.printf("\nPeer/ours start-up median: %.1f×.\n", ratio(peer, ours))
		b.skipGoal("start-up vs peer", "reported, no target", fmt.Sprintf("peer %s ms = %.1f× ours", ms(peer), ratio(peer, ours)))
	} else {
		p.printf("\nPeer not measured: %v\n", b.peerErr)
	}
	return nil
}
