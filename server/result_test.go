package server

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/runner"
)

// TestPipelineStatus: a pipeline fails when any
// stage fails, the first failing stage decides, and an upstream stage
// killed by SIGPIPE (a later stage stopped reading) is not a failure.
func TestPipelineStatus(t *testing.T) {
	t.Parallel()
	exit := func(argv0 string, code int) runner.StageStatus {
		return runner.StageStatus{Argv0: argv0, ExitCode: &code}
	}
	killed := func(argv0, sig string) runner.StageStatus { return runner.StageStatus{Argv0: argv0, Signal: sig} }
	run := func(o runner.Outcome, stages ...runner.StageStatus) runner.Result {
		last := stages[len(stages)-1]
		return runner.Result{Outcome: o, Stages: stages, ExitCode: last.ExitCode, Signal: last.Signal}
	}
	tests := []struct {
		name     string
		res      runner.Result
		headline string // "" = success
		status   int
		failed   *int
	}{
		{"single command, exit 0", run(runner.Success, exit("true", 0)), "", 0, nil},
		{"single command, exit 1: no stage named", run(runner.Success, exit("false", 1)), "Command failed with exit status 1", 1, ptr(0)},
		{"single command killed by SIGPIPE is a failure", run(runner.Success, killed("yes", "SIGPIPE")), "Command terminated by signal 13 (SIGPIPE)", -1, ptr(0)},
		{"yes | head -1: upstream SIGPIPE is not a failure", run(runner.Success, killed("yes", "SIGPIPE"), exit("head", 0)), "", 0, nil},
		{"yes | cat | head: every upstream SIGPIPE", run(runner.Success, killed("yes", "SIGPIPE"), killed("cat", "SIGPIPE"), exit("head", 0)), "", 0, nil},
		{"ls missing | cat: the upstream stage fails it", run(runner.Success, exit("ls", 2), exit("cat", 0)),
			"Command failed with exit status 2 in pipeline stage 1 of 2 (ls)", 2, ptr(0)},
		{"the first failing stage decides", run(runner.Success, exit("ls", 2), exit("grep", 1)),
			"Command failed with exit status 2 in pipeline stage 1 of 2 (ls)", 2, ptr(0)},
		{"last stage fails", run(runner.Success, exit("echo", 0), exit("grep", 1)),
			"Command failed with exit status 1 in pipeline stage 2 of 2 (grep)", 1, ptr(1)},
		{"yes | false: SIGPIPE excused, the reader's failure is not", run(runner.Success, killed("yes", "SIGPIPE"), exit("false", 1)),
			"Command failed with exit status 1 in pipeline stage 2 of 2 (false)", 1, ptr(1)},
		{"last stage killed by SIGPIPE fails", run(runner.Success, exit("echo", 0), killed("cat", "SIGPIPE")),
			"Command terminated by signal 13 (SIGPIPE) in pipeline stage 2 of 2 (cat)", -1, ptr(1)},
		{"upstream killed by another signal fails", run(runner.Success, killed("sort", "SIGSEGV"), exit("head", 0)),
			"Command terminated by signal 11 (SIGSEGV) in pipeline stage 1 of 2 (sort)", -1, ptr(0)},
		{"upstream without a status fails", run(runner.Success, runner.StageStatus{Argv0: "cat"}, exit("wc", 0)),
			"Command did not report an exit status in pipeline stage 1 of 2 (cat)", -1, ptr(0)},
		{"a timeout is explained by the outcome, not a stage", run(runner.TimedOut, killed("sleep", "SIGTERM"), killed("cat", "SIGTERM")),
			"Command timed out after 30 seconds\n" + timeoutHint, -1, nil},
		{"a timeout that ended a start names it", func() runner.Result {
			r := run(runner.TimedOut, killed("sort", "SIGTERM"), runner.StageStatus{Argv0: "probe"})
			r.StartCut = &runner.LaunchError{Argv0: "probe", Err: errors.New("the stage did not start in time: confining it: context deadline exceeded")}
			return r
		}(), "Command timed out after 30 seconds before probe had started (the stage did not start in time: confining it: context deadline exceeded)\n" + timeoutHint, -1, nil},
	}
	spec := &runner.Spec{Timeout: 30e9, OutputLimit: 1024}
	for _, tt := range tests {
		if got := headline(tt.res, spec, ""); got != tt.headline {
			t.Errorf("%s: headline %q, want %q", tt.name, got, tt.headline)
		}
		out := structured(tt.res)
		if out.Status != tt.status || (out.FailedStage == nil) != (tt.failed == nil) || out.FailedStage != nil && *out.FailedStage != *tt.failed {
			t.Errorf("%s: status %d failed_stage %v, want %d %v", tt.name, out.Status, out.FailedStage, tt.status, tt.failed)
		}
		if len(out.Stages) != len(tt.res.Stages) {
			t.Errorf("%s: %d stages reported, want every stage", tt.name, len(out.Stages))
		}
	}
}

// TestPipelineStatusEndToEnd runs the real programs: yes is killed by
// SIGPIPE when head stops reading, and that pipeline succeeds; ls of a
// missing file fails its pipeline although cat exits 0.
func TestPipelineStatusEndToEnd(t *testing.T) {
	t.Parallel()
	s, buf := newTestServer(t, "yes", "head", "ls", "cat")
	cs := connect(t, s)
	for _, tt := range []struct {
		argv    []string
		isError bool
		text    string
	}{
		{[]string{"yes", "|", "head", "-n", "1"}, false, "y\n"},
		{[]string{"ls", "missing-file", "|", "cat"}, true, "Error executing command: Command failed with exit status 2 in pipeline stage 1 of 2 (ls)\n"},
	} {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": tt.argv}})
		if err != nil || r.IsError != tt.isError || !strings.HasPrefix(resultText(r), tt.text) {
			t.Errorf("%q: err %v isError %v text %q, want %v %q", tt.argv, err, r.IsError, resultText(r), tt.isError, tt.text)
		}
	}
	recs := records(t, buf)
	if len(recs) != 2 || recs[1]["return_code"] != 2.0 {
		t.Errorf("audit return_code of the failed pipeline: %v", recs)
	}
}

// resultText joins a result's text content, a line each.
func resultText(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}
