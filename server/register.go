package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tool is one tool's two halves around the run both tools share: how its
// decoded arguments become a call, and how a run (or a call cancelled
// before it started) becomes its result. Refusals, launch failures and
// schema failures are answered the same way for every tool.
type tool[In any] struct {
	call func(req *mcp.CallToolRequest, in In) call
	// result returns the client's result and, when not nil, the
	// structured content.
	result func(o outcome) (*mcp.CallToolResult, any)
}

// addTool registers t through the SDK's low-level API: it validates and
// decodes the arguments against t.InputSchema itself and marshals out once
// into the structured content. The typed mcp.AddTool would also unmarshal,
// re-validate and re-marshal the whole output against the output schema on
// every call, which for a 1 MiB output was a large share of the call's CPU
// (BenchmarkCat1MiB); our outputs are Go structs whose schema is derived
// from them, and a test validates sample outputs against the schema.
func addTool[In any](s *Server, t *mcp.Tool, h tool[In]) error {
	schema, ok := t.InputSchema.(*jsonschema.Schema)
	if !ok {
		return fmt.Errorf("tool %s: input schema must be a *jsonschema.Schema", t.Name)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	if t.InputSchema, err = encodedSchema(t.Name, schema); err != nil {
		return err
	}
	s.mcp.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		st := stateFrom(ctx)
		var in In
		if err := decodeArgs(req.Params.Arguments, resolved, &in); err != nil {
			st.report(outcome{kind: invalidArgs, err: err, raw: req.Params.Arguments})
			return invalidArguments(err), nil
		}
		st.call = h.call(req, in)
		st.call.tool, st.call.session = t.Name, sessionID(req)
		if st.admitErr != nil {
			st.report(outcome{kind: auditRefused, err: st.admitErr})
			return errorResult("Error executing command: the server cannot write this call's audit record right now, so the call was not run"), nil
		}
		o := s.execute(ctx, st.call)
		st.report(o)
		if o.err != nil {
			return errorResult("Error executing command: " + o.err.Error()), nil
		}
		res, out := h.result(o)
		return withStructured(ctx, st, s.withRetained(o, res, out), out)
	})
	return nil
}

// invalidArguments is the client's text for arguments that failed the
// schema: the reference's "Input validation error:" prefix, the
// validator's detail, and a reminder of the expected shape.
func invalidArguments(err error) *mcp.CallToolResult {
	return errorResult("Input validation error: " + err.Error() +
		` (expected {"command": ["program", "arg", ...]} with optional "stdin", "directory", "timeout" (integer seconds >= 1), "envs"; execute_command takes "program", "args", "cwd", "timeout_ms" (1..600000), "stdin")`)
}

// withStructured sets out as res's structured content (setStructured).
func withStructured(ctx context.Context, st *callState, res *mcp.CallToolResult, out any) (*mcp.CallToolResult, error) {
	if out == nil {
		return res, nil
	}
	if err := setStructured(ctx, res, out); err != nil {
		err = fmt.Errorf("marshaling %s output: %w", st.call.tool, err)
		st.report(st.outcome.with(unencodable, err))
		return nil, err
	}
	return res, nil
}

// decodeArgs validates raw arguments against the resolved schema, then
// decodes them into in.
func decodeArgs(raw json.RawMessage, resolved *jsonschema.Resolved, in any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("unmarshaling arguments: %w", err)
	}
	if err := resolved.Validate(v); err != nil {
		if msg := explainInvalid(resolved.Schema(), v); msg != "" {
			return errors.New(msg)
		}
		return err
	}
	if err := json.Unmarshal(raw, in); err != nil {
		return fmt.Errorf("decoding arguments: %w", err)
	}
	return nil
}
