//go:build linux

package wall

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// TestThreadFilterStress drives the server's restricted threads, whose
// Go runtime runs under the stage allowlist, through what could make the
// runtime call outside it: many concurrent starts of differently confined
// stages, output past the limit, calls killed by their timeout, calls the
// client cancels, jobs killed at once, a collection after every small
// allocation (GOGC=1) and the runtime's own preemption signal (SIGURG)
// sent to every server thread throughout. The server must answer every
// call, stay up, and the wall must hold afterwards.
func TestThreadFilterStress(t *testing.T) {
	if !testenv.Heavy() {
		t.Skip("MCP_SHELL_TEST_HEAVY=1 runs the restricted threads' stress")
	}
	if abi, err := sandbox.KernelABI(); err != nil || abi < sandbox.ABINetwork {
		t.Skipf("Landlock ABI %d (%v): the default sandbox is not the kernel wall here", abi, err)
	}
	for _, need := range []string{"make", "cat", "timeout", "sleep"} {
		if missing := missingPrograms([]string{need}); missing != "" {
			testenv.Absent(t, missing+" not installed")
			return
		}
	}
	testenv.EachUser(t, stressAs)
}

func stressAs(t *testing.T, cred *syscall.Credential) {
	f := newFixture(t, cred, "GOGC=1", "MCP_SHELL_MAX_CONCURRENT=16")
	writeOwned(t, filepath.Join(f.work, "big.txt"), strings.Repeat("x", 4<<20), 0o644, cred)
	pid := f.server.Process.Pid

	stop := make(chan struct{})
	var storm sync.WaitGroup
	var signals int
	storm.Add(1)
	go func() {
		defer storm.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
			for _, e := range tasks {
				var tid int
				fmt.Sscan(e.Name(), &tid)
				if unix.Tgkill(pid, tid, unix.SIGURG) == nil {
					signals++
				}
			}
		}
	}()

	kinds := []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"probe", func(ctx context.Context) error { return f.tool(ctx, []string{f.probe, "targets.txt"}, 60, false, "") }},
		{"big output", func(ctx context.Context) error {
			return f.tool(ctx, []string{"cat", "big.txt", "|", "cat"}, 60, false, "exceeded output limit")
		}},
		{"timed out", func(ctx context.Context) error {
			return f.tool(ctx, []string{"make", "-s", "slow"}, 1, false, "timed out")
		}},
		{"cancelled", func(ctx context.Context) error {
			c, cancel := context.WithTimeout(ctx, 200*time.Millisecond) // the cancellation is the point, not a wait
			defer cancel()
			_ = f.tool(c, []string{"timeout", "50", "make", "-s", "slow"}, 60, false, "")
			return nil
		}},
		{"job killed", func(ctx context.Context) error { return f.tool(ctx, []string{"make", "-s", "slow"}, 60, true, "") }},
	}
	const workers, rounds = 6, 15
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				k := kinds[(w+i)%len(kinds)]
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				if err := k.run(ctx); err != nil {
					errs <- fmt.Errorf("worker %d round %d (%s): %w", w, i, k.name, err)
				}
				cancel()
			}
		}(w)
	}
	wg.Wait()
	close(stop)
	storm.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := f.server.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the server is gone: %v", err)
	}
	filtered := 0
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, e := range tasks {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/status", pid, e.Name()))
		if strings.Contains(string(b), "\nSeccomp:\t2\n") {
			filtered++
		}
	}
	unprivileged := cred != nil || os.Geteuid() != 0
	out := f.call(t, []string{f.probe, "targets.txt"}, 2*time.Minute)
	for _, line := range strings.Split(out, "\n") {
		if fields := strings.SplitN(line, " ", 3); len(fields) > 1 && fields[1] == "OPEN" && !(unprivileged && metadataGap[fields[0]]) {
			t.Errorf("the wall after the stress: %s", line)
		}
	}
	t.Logf("%d calls by %d workers, %d SIGURG sent to server threads, %d of %d server threads under the filter afterwards",
		workers*rounds, workers, signals, filtered, len(tasks))
	f.checkUntouched(t, unprivileged)
}

// tool makes one call (as a job, killed at once, when job) and returns an
// error when the server does not answer it, or answers other than with a
// tool error holding wantError ("": no tool error).
func (f *fixture) tool(ctx context.Context, argv []string, timeout int, job bool, wantError string) error {
	args := map[string]any{"command": argv, "timeout": timeout}
	if job {
		args["background"] = true
	}
	res, err := f.session.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: args})
	if err != nil {
		return err
	}
	if res.IsError || wantError != "" {
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		if wantError != "" && res.IsError && strings.Contains(b.String(), wantError) {
			return nil
		}
		return fmt.Errorf("want a tool error with %q, got (error %v): %.300s", wantError, res.IsError, b.String())
	}
	if !job {
		return nil
	}
	var id string
	if m, ok := res.StructuredContent.(map[string]any); ok {
		id, _ = m["job_id"].(string)
	}
	if id == "" {
		return fmt.Errorf("no job id: %v", res.StructuredContent)
	}
	if _, err := f.session.CallTool(ctx, &mcp.CallToolParams{Name: "job_kill", Arguments: map[string]any{"id": id}}); err != nil {
		return err
	}
	_, err = f.session.CallTool(ctx, &mcp.CallToolParams{Name: "job_status", Arguments: map[string]any{"id": id, "wait": 30}})
	return err
}
