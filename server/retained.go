package server

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/outputs"
)

// JobInput are the arguments both tools take for jobs and retained output.
// They exist in the input schema only when the server has jobs (background,
// stdin_open) or retention (stdin_output_id).
type JobInput struct {
	Background    bool    `json:"background,omitempty"`
	StdinOutputID *string `json:"stdin_output_id,omitempty"`
	StdinOpen     bool    `json:"stdin_open,omitempty"`
}

// Retained is what a result says about its retained output and its job.
type Retained struct {
	// OutputID names the call's retained output (read_output,
	// stdin_output_id, shell-output://ID/stdout); absent when nothing was
	// retained.
	OutputID string `json:"output_id,omitempty"`
	// JobID is set when the call became a background job; JobState is its
	// state then (queued or running).
	JobID    string `json:"job_id,omitempty"`
	JobState string `json:"job_state,omitempty"`
}

func (r *Retained) retainedFields() *Retained { return r }

// retainer is a structured output that carries Retained.
type retainer interface{ retainedFields() *Retained }

// withJobInputs adds the job and retention arguments that are on to a
// tool's input schema (a copy).
func (s *Server) withJobInputs(in *jsonschema.Schema) *jsonschema.Schema {
	if s.bg.store == nil {
		return in
	}
	out := *in
	out.Properties = maps.Clone(in.Properties)
	out.Properties["stdin_output_id"] = &jsonschema.Schema{Type: "string", Description: "use a retained output's stdout (the output_id or job_id of an earlier, finished call) as standard input, instead of sending it back; not with stdin or \"<\""}
	if s.bg.table != nil {
		out.Properties["background"] = &jsonschema.Schema{Type: "boolean", Description: fmt.Sprintf("run as a background job: the call returns a job_id at once; read_output pages the output, job_status and job_kill manage it; timeout defaults to %ds (the job maximum)", int(s.opts.Jobs.MaxJobTime.Seconds()))}
		out.Properties["stdin_open"] = &jsonschema.Schema{Type: "boolean", Description: "with background: keep the job's standard input open for job_stdin (otherwise it reads end-of-file at once); not with stdin, stdin_output_id or \"<\""}
	}
	return &out
}

// withRetained adds to a tool's result what it says about retained output
// and jobs: the output_id in the structured content, a pointer to it in
// execute_command's text when a preview was cut, and for a call that
// became a job the text and resource links that say how to follow it.
func (s *Server) withRetained(o outcome, res *mcp.CallToolResult, out any) *mcp.CallToolResult {
	r, ok := out.(retainer)
	if !ok {
		return res
	}
	f := r.retainedFields()
	f.OutputID = o.outputID
	if o.kind == startedJob && o.job != nil {
		f.JobID, f.JobState = o.job.id, o.job.state
		return s.jobStartedResult(o)
	}
	if eo, isExec := out.(*ExecOutput); isExec && o.outputID != "" && (previewCut(eo.Stdout) || previewCut(eo.Stderr)) {
		what := "the whole output is retained"
		if in := o.retained; in != nil && (in.Streams[0].Truncated || in.Streams[1].Truncated) {
			what = fmt.Sprintf("the output is retained in part (stdout %d of %d bytes, stderr %d of %d)", in.Streams[0].Size, in.Streams[0].Total, in.Streams[1].Size, in.Streams[1].Total)
		}
		res.Content = append(res.Content, &mcp.TextContent{Text: fmt.Sprintf(`[%s: read_output {"id":%q} pages it]`, what, o.outputID)})
	}
	return res
}

func previewCut(s string) bool { return prefixChars(s, previewChars) < len(s) }

// jobStartedResult is the text of a call that became a job: its id, how it
// runs, and the tools (and resource links) to follow it.
func (s *Server) jobStartedResult(o outcome) *mcp.CallToolResult {
	n := o.job
	argv, _ := json.Marshal(n.argv)
	var b strings.Builder
	if n.adaptive {
		fmt.Fprintf(&b, "The command is still running after %ds and continues as background job %s", int(s.opts.Jobs.Adaptive.Seconds()), n.id)
	} else {
		fmt.Fprintf(&b, "Started background job %s", n.id)
	}
	fmt.Fprintf(&b, " (%s; timeout %ds): %s\n", n.state, int(o.spec.Timeout.Seconds()), argv)
	fmt.Fprintf(&b, `Follow it: read_output {"id":%q} pages its stdout (add "stream":"stderr", "offset", "wait" up to %d seconds for new output); job_status {"id":%q} says whether it ended; job_kill {"id":%q} stops it.`, n.id, maxWaitSeconds, n.id, n.id)
	content := []mcp.Content{&mcp.TextContent{Text: b.String()}}
	for _, stream := range outputs.Streams {
		content = append(content, &mcp.ResourceLink{URI: outputURI(n.id, stream), Name: n.id + "-" + stream, Title: stream + " of job " + n.id, MIMEType: "text/plain"})
	}
	return &mcp.CallToolResult{Content: content}
}
