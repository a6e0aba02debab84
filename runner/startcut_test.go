//go:build linux || darwin

package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

func init() {
	// announce FIFO writes "early" to stderr, then opens FIFO for
	// writing (which its reader waits for), and sleeps.
	registerHelper("announce", func(args []string) int {
		fmt.Fprintln(os.Stderr, "early")
		f, err := os.OpenFile(args[0], os.O_WRONLY, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		f.Close()
		time.Sleep(sleeperLife)
		return 0
	})
}

// TestStartCutByDeadline: a stage start that cannot finish (the fault:
// it waits for its context) is ended by the call's timeout or
// cancellation like a running stage: the outcome is TimedOut or
// Cancelled, not an error, with what the stages already started wrote,
// those stages killed and reaped, and StartCut naming the start.
func TestStartCutByDeadline(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cancel bool
		want   Outcome
		cause  error
	}{
		{"timeout", false, TimedOut, context.DeadlineExceeded},
		{"cancel", true, Cancelled, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "ready")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stuck := helper(t, "echo", "never")
			testHookStart = func(sctx context.Context, st *plan.Stage) error {
				if st.Argv[len(st.Argv)-1] != "never" {
					return nil
				}
				if _, err := os.ReadFile(fifo); err != nil { // the first stage has written
					return err
				}
				if tc.cancel {
					cancel()
				}
				<-sctx.Done()
				return context.Cause(sctx)
			}
			defer func() { testHookStart = nil }()
			s := tspec{Stages: [][]string{helper(t, "announce", fifo), stuck}, Dir: pinned(t, t.TempDir())}
			if !tc.cancel {
				s.Timeout = time.Second
			}
			s.KillGrace = grace
			res, err := Run(ctx, s.build(t))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.Outcome != tc.want {
				t.Errorf("outcome %s, want %s", res.Outcome, tc.want)
			}
			if !strings.Contains(string(res.Stderr), "early") {
				t.Errorf("stderr %q lost what the started stage wrote", res.Stderr)
			}
			var le *LaunchError
			if !errors.As(res.StartCut, &le) || le.Argv0 != stuck[0] || !errors.Is(res.StartCut, tc.cause) {
				t.Errorf("StartCut %v, want a *LaunchError of %s wrapping %v", res.StartCut, stuck[0], tc.cause)
			}
			if res.Stages[0].Signal == "" {
				t.Errorf("the started stage was not killed: %+v", res.Stages[0])
			}
			if res.Stages[1].ExitCode != nil || res.Stages[1].Signal != "" {
				t.Errorf("the stage never started has a status: %+v", res.Stages[1])
			}
		})
	}
}
