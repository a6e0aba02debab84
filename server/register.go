package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// handlerFor is a tool handler on decoded arguments. A non-nil out becomes
// the result's structured content.
type handlerFor[In any] func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error)

// addTool registers t through the SDK's low-level API: it validates and
// decodes the arguments against t.InputSchema itself and marshals out once
// into the structured content. The typed mcp.AddTool would also unmarshal,
// re-validate and re-marshal the whole output against the output schema on
// every call, which for a 1 MiB output was a large share of the call's CPU
// (BenchmarkCat1MiB); our outputs are Go structs whose schema is derived
// from them, and a test validates sample outputs against the schema.
func addTool[In any](s *mcp.Server, t *mcp.Tool, h handlerFor[In]) error {
	schema, ok := t.InputSchema.(*jsonschema.Schema)
	if !ok {
		return fmt.Errorf("tool %s: input schema must be a *jsonschema.Schema", t.Name)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	s.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in In
		if err := decodeArgs(req.Params.Arguments, resolved, &in); err != nil {
			// The audit middleware sees a tool error from a handler that
			// never ran the call and records it as invalid_request.
			return errorResult(`validating "arguments": ` + err.Error()), nil
		}
		res, out, err := h(ctx, req, in)
		if err != nil {
			return errorResult(err.Error()), nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		if out != nil {
			raw, err := json.Marshal(out)
			if err != nil {
				return nil, fmt.Errorf("marshaling %s output: %w", t.Name, err)
			}
			res.StructuredContent = json.RawMessage(raw)
		}
		return res, nil
	})
	return nil
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
		return err
	}
	if err := json.Unmarshal(raw, in); err != nil {
		return fmt.Errorf("decoding arguments: %w", err)
	}
	return nil
}
