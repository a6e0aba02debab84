package server

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// MaxArgs is the largest argv a call may send (elements).
const MaxArgs = 4096

// ShellInput is the shell_execute tool's arguments.
type ShellInput struct {
	Command   []string          `json:"command"`
	Stdin     *string           `json:"stdin,omitempty"`
	Directory *string           `json:"directory,omitempty"`
	Timeout   *int64            `json:"timeout,omitempty"`
	Envs      map[string]string `json:"envs,omitempty"`
	// CaptureStderr false discards stderr; MaxOutputSize lowers the
	// per-stream cap for this call; SessionID labels the call and its job
	// (the names of servers with adaptive execution).
	CaptureStderr *bool   `json:"capture_stderr,omitempty"`
	MaxOutputSize *int64  `json:"max_output_size,omitempty"`
	SessionID     *string `json:"session_id,omitempty"`
	JobInput
}

// ShellOutput is shell_execute's structured result. Stdout and Stderr are
// lossy UTF-8 (invalid bytes become U+FFFD). Status is the exit code, or -1
// when the command did not exit normally (timeout, signal, output cap).
// For a pipeline, Status, ExitCode and Signal are those of the first
// failing stage, whose index is FailedStage (null when the pipeline
// succeeded), otherwise of the last stage (pipelineStatus).
// ExecutionTime is in seconds.
type ShellOutput struct {
	Stdout          string        `json:"stdout"`
	Stderr          string        `json:"stderr"`
	Status          int           `json:"status"`
	ExitCode        *int          `json:"exit_code"`
	Signal          *string       `json:"signal"`
	FailedStage     *int          `json:"failed_stage"`
	TimedOut        bool          `json:"timed_out"`
	StdoutTruncated bool          `json:"stdout_truncated"`
	StderrTruncated bool          `json:"stderr_truncated"`
	ExecutionTime   float64       `json:"execution_time"`
	Stages          []StageOutput `json:"stages"`
	Retained
}

// StageOutput is how one pipeline stage ended.
type StageOutput struct {
	Command  string  `json:"command"`
	ExitCode *int    `json:"exit_code"`
	Signal   *string `json:"signal"`
}

func falseSchema() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{}} }

// shellInputSchema is written out rather than inferred: inference would
// let "command" be null and would not bound its length.
func shellInputSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:                 "object",
		Required:             []string{"command"},
		AdditionalProperties: falseSchema(),
		Properties: map[string]*jsonschema.Schema{
			"command": {
				Type:        "array",
				Description: `argv: the program name then its arguments, one element each; run without a shell. An element exactly "|" separates pipeline stages; elements exactly "<", ">" or ">>" redirect stdin/stdout to the next element, a file inside the working directory.`,
				MinItems:    jsonschema.Ptr(1),
				MaxItems:    jsonschema.Ptr(MaxArgs),
				Items:       &jsonschema.Schema{Type: "string"},
			},
			"stdin":     {Type: "string", Description: "text fed to the command's standard input"},
			"directory": {Type: "string", Description: "working directory; relative paths resolve against the first allowed directory (the default)"},
			"timeout":   {Type: "integer", Minimum: jsonschema.Ptr(1.0), Description: "timeout in seconds; clamped to the server maximum"},
			"envs": {
				Type:                 "object",
				Description:          "environment variables for the command; only names in the server's MCP_SHELL_CHILD_ENV_ALLOWLIST are accepted",
				AdditionalProperties: &jsonschema.Schema{Type: "string"},
			},
			"capture_stderr":  {Type: "boolean", Description: "false discards the command's standard error: it is not returned, retained or counted against the output cap (default true)"},
			"max_output_size": {Type: "integer", Minimum: jsonschema.Ptr(1.0), Description: "cap in bytes per captured stream for this call (stdout, stderr); at most, and by default, the server's cap: larger values are clamped"},
			"session_id":      {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(maxSessionID), Pattern: sessionIDPattern, Description: "a label (letters, digits, . _ - :) grouping related calls and jobs: job_list's session_id lists only the jobs that carry it, and the audit records carry it"},
		},
	}
}

// maxSessionID and sessionIDPattern bound a session_id label: short, and
// of characters that need no quoting in a log line or a list.
const (
	maxSessionID     = 128
	sessionIDPattern = `^[A-Za-z0-9._:-]+$`
)

func shellOutputSchema() (*jsonschema.Schema, error) {
	return jsonschema.For[ShellOutput](nil)
}
