package server

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"

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
	head := headline(res, spec)
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

// headline says why a run is an error, or "" when it exited 0.
func headline(res runner.Result, spec *runner.Spec) string {
	switch res.Outcome {
	case runner.TimedOut:
		return fmt.Sprintf("Command timed out after %d seconds", int(spec.Timeout.Seconds()))
	case runner.OutputCapped:
		return fmt.Sprintf("%s exceeded output limit of %d bytes", res.LimitStream, spec.OutputLimit)
	case runner.Cancelled:
		return "Command cancelled (the client cancelled the call or the server is shutting down)"
	}
	if res.ExitCode != nil {
		if *res.ExitCode == 0 {
			return ""
		}
		return fmt.Sprintf("Command failed with exit status %d", *res.ExitCode)
	}
	if res.Signal != "" {
		return fmt.Sprintf("Command terminated by signal %d (%s)", unix.SignalNum(res.Signal), res.Signal)
	}
	return "Command did not report an exit status"
}

func structured(res runner.Result) *ShellOutput {
	out := &ShellOutput{
		Stdout:          lossy(res.Stdout),
		Stderr:          lossy(res.Stderr),
		Status:          -1,
		ExitCode:        res.ExitCode,
		TimedOut:        res.Outcome == runner.TimedOut,
		StdoutTruncated: res.StdoutTruncated,
		StderrTruncated: res.StderrTruncated,
		ExecutionTime:   res.Duration.Seconds(),
		Stages:          make([]StageOutput, 0, len(res.Stages)),
	}
	if res.ExitCode != nil {
		out.Status = *res.ExitCode
	}
	if res.Signal != "" {
		out.Signal = ptr(res.Signal)
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
// with U+FFFD, so the JSON result is always valid.
func lossy(b []byte) string {
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
