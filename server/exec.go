package server

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/runner"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// MaxTimeoutMS is the largest timeout_ms execute_command accepts, and
// DefaultTimeoutMS its default: the bounds and default of the argv-only
// servers it follows (seeds 000 and 003: 1..600000, 120000). Either is
// then clamped to the server maximum (Limits.MaxTimeout); the result's
// timeout_ms says what applied. shell_execute keeps the reference's
// default (Limits.DefaultTimeout).
const (
	MaxTimeoutMS     = 600000
	DefaultTimeoutMS = 120000
)

// previewChars caps each stream's preview in execute_command's text
// summary; the full (capped) output is in the structured content.
const previewChars = 4000

// ExecInput is the execute_command tool's arguments: one program and its
// arguments, every element data (no pipeline, no redirection). TimeoutMs
// is seed 003's spelling of TimeoutMS (timeoutMs), accepted as an alias:
// a call gives at most one of them.
type ExecInput struct {
	Program   string   `json:"program"`
	Args      []string `json:"args,omitempty"`
	Cwd       *string  `json:"cwd,omitempty"`
	TimeoutMS *int64   `json:"timeout_ms,omitempty"`
	TimeoutMs *int64   `json:"timeoutMs,omitempty"`
	Stdin     *string  `json:"stdin,omitempty"`
	JobInput
}

// timeout is the timeout the call gives in either spelling, or nil.
func (in ExecInput) timeout() *int64 {
	if in.TimeoutMS != nil {
		return in.TimeoutMS
	}
	return in.TimeoutMs
}

// ExecOutput is execute_command's structured result. ExitCode is null when
// the process did not exit normally (timeout, signal). Output is lossy
// UTF-8, at most the output cap per stream; the rest is drained and
// discarded.
type ExecOutput struct {
	ExitCode        *int    `json:"exit_code"`
	Stdout          string  `json:"stdout"`
	Stderr          string  `json:"stderr"`
	TimedOut        bool    `json:"timed_out"`
	StdoutTruncated bool    `json:"stdout_truncated"`
	StderrTruncated bool    `json:"stderr_truncated"`
	Signal          *string `json:"signal"`
	DurationMS      int64   `json:"duration_ms"`
	// TimeoutMS is the timeout that applied: timeout_ms or its default,
	// clamped to the server maximum.
	TimeoutMS int64 `json:"timeout_ms"`
	Retained
}

func execInputSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:                 "object",
		Required:             []string{"program"},
		AdditionalProperties: falseSchema(),
		Properties: map[string]*jsonschema.Schema{
			"program":    {Type: "string", MinLength: jsonschema.Ptr(1), Description: "executable name (resolved with the server's safe PATH) or allowlisted path; never a shell command line"},
			"args":       {Type: "array", MaxItems: jsonschema.Ptr(MaxArgs - 1), Items: &jsonschema.Schema{Type: "string"}, Description: "arguments, each passed exactly as given"},
			"cwd":        {Type: "string", Description: "working directory inside an allowed directory; relative paths resolve against the first one (the default)"},
			"timeout_ms": {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(MaxTimeoutMS)), Description: "timeout in milliseconds (1..600000, default 120000); clamped to the server maximum, and the result's timeout_ms says what applied"},
			"timeoutMs":  {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(MaxTimeoutMS)), Description: "the same as timeout_ms (the camelCase spelling of other argv servers); give one of the two"},
			"stdin":      {Type: "string", Description: "text fed to standard input"},
		},
	}
}

// execTool is execute_command: a non-zero exit and a timeout are normal
// results; only refusals and launch failures are tool errors.
var execTool = tool[ExecInput]{
	check: func(in ExecInput) error {
		if in.TimeoutMS != nil && in.TimeoutMs != nil {
			return errors.New(`give "timeout_ms" or its alias "timeoutMs", not both`)
		}
		return nil
	},
	call: func(req *mcp.CallToolRequest, in ExecInput) call {
		c := call{argv: append([]string{in.Program}, in.Args...), dir: in.Cwd, stdin: in.Stdin, exact: true, drain: true, progress: newReporter(req), job: in.JobInput}
		// Without timeout_ms the default is the tool's own, or for a job
		// the job maximum (startJob), as the schema says.
		c.defaultTimeout = DefaultTimeoutMS * time.Millisecond
		if ms := in.timeout(); ms != nil {
			d := time.Duration(*ms) * time.Millisecond
			c.timeout = &d
		}
		return c
	},
	result: execResult,
}

func execResult(o outcome) (*mcp.CallToolResult, any) {
	res := o.run
	out := &ExecOutput{
		ExitCode: res.ExitCode, Stdout: lossy(res.Stdout), Stderr: lossy(res.Stderr),
		TimedOut: res.Outcome == runner.TimedOut, StdoutTruncated: res.StdoutTruncated, StderrTruncated: res.StderrTruncated,
		DurationMS: res.Duration.Milliseconds(), TimeoutMS: o.spec.Timeout.Milliseconds(),
	}
	if res.Signal != "" {
		out.Signal = ptr(res.Signal)
	}
	text := summary(out, res, o.spec)
	if hint := sandbox.Hint(o.denied, o.readDirs); hint != "" {
		head, rest, _ := strings.Cut(text, "\n")
		text = head + "\n" + hint + "\n" + rest
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out
}

// summary is execute_command's text: the outcome, then each stream's
// preview (at most previewChars characters) with truncation notes.
func summary(out *ExecOutput, res runner.Result, spec *runner.Spec) string {
	var b strings.Builder
	switch {
	case out.TimedOut:
		fmt.Fprintf(&b, "timed out after %d ms", spec.Timeout.Milliseconds())
	case res.Outcome == runner.Cancelled:
		b.WriteString("cancelled")
	case out.ExitCode != nil:
		fmt.Fprintf(&b, "exit code %d", *out.ExitCode)
	case out.Signal != nil:
		fmt.Fprintf(&b, "terminated by %s", *out.Signal)
	}
	fmt.Fprintf(&b, " (%d ms)\n", out.DurationMS)
	preview(&b, "stdout", out.Stdout, res.StdoutBytes, out.StdoutTruncated)
	preview(&b, "stderr", out.Stderr, res.StderrBytes, out.StderrTruncated)
	return b.String()
}

func preview(b *strings.Builder, name, text string, total int64, truncated bool) {
	if text == "" {
		return
	}
	fmt.Fprintf(b, "--- %s (%d bytes", name, total)
	if truncated {
		fmt.Fprintf(b, ", captured %d, the rest discarded", len(text))
	}
	b.WriteString(")\n")
	if cut := prefixChars(text, previewChars); cut == len(text) {
		b.WriteString(text)
	} else {
		b.WriteString(text[:cut])
		fmt.Fprintf(b, "\n[preview cut at %d characters; full output in structuredContent]", previewChars)
	}
	if !strings.HasSuffix(text, "\n") {
		b.WriteString("\n")
	}
}

// prefixChars returns the byte length of text's first n characters (all of
// text when it is shorter), without converting the whole text: outputs can
// be tens of MiB.
func prefixChars(text string, n int) int {
	i := 0
	for range n {
		if i >= len(text) {
			break
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	return i
}
