package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// concurrent is the number of simultaneous calls in section 5.
const concurrent = 64

// concurrency is section 5: 64 simultaneous calls of `sleep 0.2 | echo
// MARKER` on one session; every answer must carry its own call's marker.
// The floor is the same 64 pipelines started with os/exec in this process.
func (b *bench) concurrency(ctx context.Context) error {
	s, err := launch(ctx, b.oursSpec())
	if err != nil {
		return err
	}
	defer s.close()
	reps := b.reps(5, 2)
	var ours, floor []time.Duration
	for i := range reps {
		err := rotated(i, func() error {
			d, err := concurrentCalls(ctx, s, i)
			ours = append(ours, d)
			return err
		}, func() error {
			d, err := concurrentFloor(ctx)
			floor = append(floor, d)
			return err
		})
		if err != nil {
			return err
		}
	}
	p := b.newPart("5. Concurrency: 64 simultaneous calls of sleep 0.2")
	p.printf("One session, `MCP_SHELL_MAX_CONCURRENT=64`; each call is `shell_execute [\"sleep\",\"0.2\",\"|\",\"echo\",MARKER]` with a marker unique to the call and repetition, and its answer must be exactly its marker (no lost, failed or mixed response). The floor runs the same 64 pipelines (`sleep 0.2 | echo MARKER`, two processes and a pipe each, output captured) with os/exec at once in this process. %d alternating repetitions.\n\n", reps)
	p.printf("| run | min | median | max |\n|---|---:|---:|---:|\n")
	p.printf("| floor: 64 × os/exec sleep 0.2 \\| echo | %s |\n", minMedMax(floor))
	p.printf("| ours: 64 concurrent calls | %s |\n\n", minMedMax(ours))
	p.printf("All %d × %d answers matched their requests. ", reps, concurrent)
	med := medianDuration(ours)
	fmed := medianDuration(floor)
	p.printf("Ours/floor median: %.2f×.\n", ratio(med, fmed))
	b.addGoal("64 × sleep 0.2 concurrently", "wall < 1 s, no lost or mixed response", fmt.Sprintf("%s ms median (floor %s ms, ours/floor %.2f×), all %d matched", ms(med), ms(fmed), ratio(med, fmed), reps*concurrent), med < time.Second)
	return nil
}

// concurrentCalls starts 64 calls at once and returns the time until the
// last answer; any mismatch is an error wrapping errCall.
func concurrentCalls(ctx context.Context, s *server, round int) (time.Duration, error) {
	var wg sync.WaitGroup
	errs := make([]error, concurrent)
	gate := make(chan struct{})
	for i := range concurrent {
		marker := fmt.Sprintf("m-%d-%d", round, i)
		wg.Go(func() {
			<-gate
			_, m, err := s.timedCall(ctx, "shell_execute", map[string]any{"command": []string{"sleep", "0.2", "|", "echo", marker}})
			if err != nil {
				errs[i] = err
				return
			}
			if out, _ := m["stdout"].(string); out != marker+"\n" {
				errs[i] = fmt.Errorf("%w: call %s answered %q", errCall, marker, out)
			}
		})
	}
	start := time.Now()
	close(gate)
	wg.Wait()
	return time.Since(start), errors.Join(errs...)
}

// concurrentFloor does the same work with os/exec in this process: 64
// simultaneous `sleep 0.2 | echo MARKER` pipelines (two processes joined by
// a pipe, echo's output captured).
func concurrentFloor(ctx context.Context) (time.Duration, error) {
	var wg sync.WaitGroup
	errs := make([]error, concurrent)
	start := time.Now()
	for i := range concurrent {
		wg.Go(func() { errs[i] = floorPipeline(ctx, fmt.Sprintf("f-%d", i)) })
	}
	wg.Wait()
	return time.Since(start), errors.Join(errs...)
}

func floorPipeline(ctx context.Context, marker string) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	sleep := exec.CommandContext(ctx, "sleep", "0.2")
	sleep.Stdout = w
	echo := exec.CommandContext(ctx, "echo", marker)
	echo.Stdin = r
	var out bytes.Buffer
	echo.Stdout = &out
	errS := sleep.Start()
	errE := echo.Start()
	w.Close()
	r.Close()
	if errS == nil {
		errS = sleep.Wait()
	}
	if errE == nil {
		errE = echo.Wait()
	}
	if err := errors.Join(errS, errE); err != nil {
		return err
	}
	if out.String() != marker+"\n" {
		return fmt.Errorf("floor pipeline answered %q", out.String())
	}
	return nil
}
