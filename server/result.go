package server

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/runner"
)

// shape turns a run into the client's result: text content compatible
// with the reference server, plus the structured ShellOutput.
//
// Exit status 0: stdout then stderr, each as a text item when non-empty.
// Anything else is a tool error whose text starts "Error executing command:
// <why>" followed by whatever output was captured. Each stream's text is
// as view shows it (the text limit); the structured output keeps all.
func shape(res runner.Result, spec *runner.Spec, view textView) (*mcp.CallToolResult, *ShellOutput) {
	out := structured(res)
	head := headline(res, spec, view.keep)
	texts := []string{view.stream("stdout", res.Stdout, out.Stdout), view.stream("stderr", res.Stderr, out.Stderr)}
	if head == "" {
		content := []mcp.Content{}
		for _, s := range texts {
			if s != "" {
				content = append(content, &mcp.TextContent{Text: s})
			}
		}
		return &mcp.CallToolResult{Content: content}, out
	}
	parts := []string{"Error executing command: " + head}
	for _, s := range texts {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return errorResult(strings.Join(parts, "\n")), out
}

// timeoutHint names the two ways a call gets more time.
const timeoutHint = "A larger `timeout` argument (bounded by MCP_SHELL_MAX_TIMEOUT_SECONDS) or `background: true` (a job, read with job_status) gives it more time."

// headline says why a run is an error, or "" when it succeeded: exit
// status 0, for a pipeline as judged by pipelineStatus. keep is the ways
// to keep an output past the cap (keepHint), said when a stream hit it.
func headline(res runner.Result, spec *runner.Spec, keep string) string {
	switch res.Outcome {
	case runner.TimedOut:
		why := fmt.Sprintf("Command timed out after %d seconds", int(spec.Timeout.Seconds()))
		var cut *runner.LaunchError
		if errors.As(res.StartCut, &cut) {
			why += fmt.Sprintf(" before %s had started (%v)", cut.Argv0, cut.Err)
		}
		// The reference's sentence alone on the first line, then how to
		// give a slow command (a first build in the sandbox's own
		// cache) more time.
		return why + "\n" + timeoutHint
	case runner.OutputCapped:
		if res.LimitStream == "file" {
			limit := res.LimitBytes
			return fmt.Sprintf("output redirected to %q exceeded the redirect limit of %d bytes (MCP_SHELL_REDIRECT_LIMIT_BYTES): the command was stopped and the file holds only the first %d bytes of its output", spec.Plan.StdoutFile, limit, limit)
		}
		// The reference's sentence first; then what was lost: the group
		// was stopped at the cap, so the rest was never produced.
		why := fmt.Sprintf("%s exceeded output limit of %d bytes: the command was stopped there, so its %s past the first %d bytes is lost, and how much more it would have written is unknown", res.LimitStream, spec.OutputLimit, res.LimitStream, spec.OutputLimit)
		if keep != "" {
			why += "; " + keep
		}
		return why
	case runner.Cancelled:
		return "Command cancelled (the client cancelled the call or the server is shutting down)"
	}
	ps := pipelineStatus(res)
	if !ps.failed {
		return ""
	}
	var why string
	switch {
	case ps.exitCode != nil:
		why = fmt.Sprintf("Command failed with exit status %d", *ps.exitCode)
	case ps.signal != "":
		why = fmt.Sprintf("Command terminated by signal %d (%s)", signalNum(ps.signal), ps.signal)
	default:
		why = "Command did not report an exit status"
	}
	if n := len(res.Stages); n > 1 {
		why += fmt.Sprintf(" in pipeline stage %d of %d (%s)", ps.stage+1, n, res.Stages[ps.stage].Argv0)
	}
	return why
}

// stageStatus is how a run ended as a whole: the exit status or signal
// of the stage that decides it, that stage's index, and whether it
// failed.
type stageStatus struct {
	stage    int
	exitCode *int
	signal   string
	failed   bool
}

// pipelineStatus judges a run the way the reference server judges
// pipelines (tumf 1.1.8 §5): it fails when any stage fails, and the
// first failing stage from the left decides, since an upstream failure is
// usually why a later stage failed too (ls missing | grep x). A stage
// fails when it exits non-zero, is killed by a signal or reports no
// status, except a stage before the last killed by SIGPIPE: it wrote to
// a pipe whose reader, a later stage, had stopped reading (yes | head -1),
// which is how a pipeline ends early by design, not a failure. When no
// stage failed, the last stage decides (exit status 0).
//
// A run that did not end on its own (timeout, output cap, cancellation)
// keeps the last stage's status: the outcome, not a stage, explains it.
func pipelineStatus(res runner.Result) stageStatus {
	last := stageStatus{stage: len(res.Stages) - 1, exitCode: res.ExitCode, signal: res.Signal}
	last.failed = res.ExitCode == nil || *res.ExitCode != 0
	if res.Outcome != runner.Success {
		return last
	}
	for i, st := range res.Stages {
		switch {
		case st.ExitCode != nil && *st.ExitCode == 0:
			continue
		case st.Signal == "SIGPIPE" && i < len(res.Stages)-1:
			continue
		}
		return stageStatus{stage: i, exitCode: st.ExitCode, signal: st.Signal, failed: true}
	}
	return last
}

func structured(res runner.Result) *ShellOutput {
	ps := pipelineStatus(res)
	out := &ShellOutput{
		Stdout:          lossy(res.Stdout),
		Stderr:          lossy(res.Stderr),
		Status:          -1,
		ExitCode:        ps.exitCode,
		TimedOut:        res.Outcome == runner.TimedOut,
		StdoutTruncated: res.StdoutTruncated,
		StderrTruncated: res.StderrTruncated,
		ExecutionTime:   res.Duration.Seconds(),
		Stages:          make([]StageOutput, 0, len(res.Stages)),
	}
	if ps.exitCode != nil {
		out.Status = *ps.exitCode
	}
	if ps.signal != "" {
		out.Signal = ptr(ps.signal)
	}
	if res.Outcome == runner.Success && ps.failed && ps.stage >= 0 {
		out.FailedStage = ptr(ps.stage)
	}
	for _, st := range res.Stages {
		so := StageOutput{Command: st.Argv0, ExitCode: st.ExitCode}
		if st.Signal != "" {
			so.Signal = ptr(st.Signal)
		}
		out.Stages = append(out.Stages, so)
	}
	return out
}

// lossy converts output bytes to valid UTF-8, replacing invalid sequences
// with U+FFFD, so the JSON result is always valid. Valid output, the
// common case, is checked by utf8.Valid (eight ASCII bytes at a time) and
// returned without a copy: the string shares b's memory. That is sound
// because a runner.Result's streams belong to its caller and nothing
// writes them once Run has returned (the runner's own buffers are copied
// out before; the tee to the retained store copies as the run goes on),
// and the server only reads them. A copy here was a second cap-sized
// buffer per stream, 64 MiB more peak memory for a 64 MiB output. Only
// invalid output takes the repair pass, and its copy.
func lossy(b []byte) string {
	if utf8.Valid(b) {
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
