package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestExecTimeoutDefaultAndClamp: timeout_ms
// defaults to the seeds' 120000, the server maximum clamps it, and the
// structured result (and the tool description) say what applies.
func TestExecTimeoutDefaultAndClamp(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		max       time.Duration
		timeoutMS any // nil: omitted
		want      int64
	}{
		{300 * time.Second, nil, 120000},
		{60 * time.Second, nil, 60000},
		{300 * time.Second, 5000, 5000},
		{300 * time.Second, 600000, 300000},
		{300 * time.Second, 1, 1},
	} {
		o := testOptions(t, "true")
		o.Tools = []string{"execute_command"}
		o.Limits.MaxTimeout = tt.max
		s, buf := newServer(t, o)
		cs := connect(t, s)
		args := map[string]any{"program": "true"}
		if tt.timeoutMS != nil {
			args["timeout_ms"] = tt.timeoutMS
		}
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "execute_command", Arguments: args})
		if err != nil || r.IsError {
			t.Fatalf("%v: %v %v", args, err, r)
		}
		var out ExecOutput
		raw, _ := json.Marshal(r.StructuredContent)
		if err := json.Unmarshal(raw, &out); err != nil || out.TimeoutMS != tt.want {
			t.Errorf("max %v, %v: timeout_ms %d (%v), want %d", tt.max, args, out.TimeoutMS, err, tt.want)
		}
		if tt.timeoutMS == nil {
			tools, err := cs.ListTools(context.Background(), nil)
			want := fmt.Sprintf("Default timeout: %ds; maximum timeout: %ds;", tt.want/1000, int(tt.max.Seconds()))
			if err != nil || len(tools.Tools) != 1 || !strings.Contains(tools.Tools[0].Description, want) {
				t.Errorf("max %v: the description does not say %q: %v %v", tt.max, want, err, tools)
			}
		}
		if recs := records(t, buf); len(recs) != 1 || recs[0]["timeout"] != float64(tt.want)/1000 {
			t.Errorf("max %v, %v: audit timeout %v, want %v s", tt.max, args, recs, float64(tt.want)/1000)
		}
	}
}
