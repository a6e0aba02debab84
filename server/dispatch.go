package server

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// encodedSchema returns schema marshalled once, for mcp.Tool.InputSchema,
// after the caller resolved it for its own validation. The SDK's
// Streamable HTTP handler reads the called tool's input schema again on
// every request (go-sdk v1.8.0: validateMcpHeaders, then
// extractParamHeaderAnnotations marshals the schema and decodes it, to
// look for x-mcp-header annotations). For a *jsonschema.Schema that is a
// reflective marshal of the whole tree, about 14% of the server's CPU per
// HTTP call (perf, tools/call over HTTP); a json.RawMessage marshals by
// copying, and tools/list sends the same bytes.
func encodedSchema(name string, schema *jsonschema.Schema) (json.RawMessage, error) {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("tool %s: input schema: %w", name, err)
	}
	return b, nil
}
