package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tool is one tool's two halves around the run both tools share: how its
// decoded arguments become a call, and how a run (or a call cancelled
// before it started) becomes its result. Refusals, launch failures and
// schema failures are answered the same way for every tool.
type tool[In any] struct {
	// check, when not nil, refuses decoded arguments the schema cannot
	// express (two spellings of one field); its error is the sentence.
	check func(in In) error
	call  func(req *mcp.CallToolRequest, in In) call
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
	hint := shapeHint(schema)
	s.mcp.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		st := stateFrom(ctx)
		var in In
		err := decodeArgs(req.Params.Arguments, resolved, &in)
		if err == nil && h.check != nil {
			err = h.check(in)
		}
		if err != nil {
			st.report(outcome{kind: invalidArgs, err: err, raw: req.Params.Arguments})
			return invalidArguments(err, hint), nil
		}
		st.call = h.call(req, in)
		st.call.tool, st.call.protocol, st.call.session = t.Name, protocolOf(req), sessionID(req)
		st.call.asker = askerOf(req)
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
		return withStructured(ctx, st, s.withRetained(st.call, o, res, out), out)
	})
	return nil
}

// invalidArguments is the client's text for arguments that failed the
// schema: the reference's "Input validation error:" prefix, the
// validator's detail, and a reminder of the tool's shape (shapeHint).
func invalidArguments(err error, hint string) *mcp.CallToolResult {
	return errorResult("Input validation error: " + clipDetail(err.Error()) + hint)
}

// maxDetail bounds the validator's detail, which quotes the value it
// refused: a 4 MiB string argument must not come back whole.
const maxDetail = 1 << 10

// clipDetail is detail cut at maxDetail bytes (on a rune boundary), saying
// how much was left out.
func clipDetail(detail string) string {
	if len(detail) <= maxDetail {
		return detail
	}
	cut := maxDetail
	for cut > 0 && !utf8.RuneStart(detail[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d more bytes)", detail[:cut], len(detail)-cut)
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
	if err := wholeNumbers(resolved.Schema(), v); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, in); err == nil {
		return nil
	} else if !isNumberType(err) {
		return fmt.Errorf("decoding arguments: %w", err)
	}
	// An integer spelt as JSON allows but Go's decoder does not (2.0,
	// 1e3): wholeNumbers made each one an int64 in v.
	canonical, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(canonical, in)
	}
	if err != nil {
		return fmt.Errorf("decoding arguments: %w", err)
	}
	return nil
}

// wholeNumbers replaces, in a validated arguments object, the value of
// each integer field by the int64 it spells: JSON Schema's "integer" is
// any number with a zero fraction (2.0 and 1e3 are integers), which Go's
// decoder would refuse for an int64. A value past int64 is refused with a
// sentence naming the field.
func wholeNumbers(schema *jsonschema.Schema, v any) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	for name, prop := range schema.Properties {
		f, isNumber := obj[name].(float64)
		if !isNumber || prop.Type != "integer" {
			continue
		}
		if f >= math.MaxInt64 || f < math.MinInt64 {
			return fmt.Errorf("%q must be at most %d, got %s", name, int64(math.MaxInt64), number(f))
		}
		obj[name] = int64(f)
	}
	return nil
}

// isNumberType reports a decoding error about a JSON number.
func isNumberType(err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te) && strings.HasPrefix(te.Value, "number")
}

// shapeHint reminds a client of a tool's arguments, from its input schema:
// the required fields, then the optional ones with their types and bounds.
func shapeHint(schema *jsonschema.Schema) string {
	var req, opt []string
	for _, name := range schema.Required {
		req = append(req, fmt.Sprintf("%q: %s", name, typeHint(schema.Properties[name])))
	}
	for _, name := range slices.Sorted(maps.Keys(schema.Properties)) {
		if !slices.Contains(schema.Required, name) {
			opt = append(opt, fmt.Sprintf("%q (%s)", name, typeHint(schema.Properties[name])))
		}
	}
	hint := " (expected {" + strings.Join(req, ", ") + "}"
	if len(opt) > 0 {
		hint += " with optional " + strings.Join(opt, ", ")
	}
	return hint + ")"
}

// typeHint is a property's type as shapeHint shows it.
func typeHint(p *jsonschema.Schema) string {
	switch {
	case p == nil:
		return "any"
	case p.Type == "array" && p.Items != nil:
		return "[" + p.Items.Type + ", ...]"
	case p.Type == "object" && p.AdditionalProperties != nil && p.AdditionalProperties.Type != "":
		return "object of " + p.AdditionalProperties.Type + "s"
	case len(p.Enum) > 0:
		var vs []string
		for _, e := range p.Enum {
			vs = append(vs, fmt.Sprintf("%q", e))
		}
		return strings.Join(vs, " or ")
	case p.Minimum != nil && p.Maximum != nil:
		return fmt.Sprintf("%s %s..%s", p.Type, number(*p.Minimum), number(*p.Maximum))
	case p.Minimum != nil:
		return fmt.Sprintf("%s >= %s", p.Type, number(*p.Minimum))
	}
	return p.Type
}
