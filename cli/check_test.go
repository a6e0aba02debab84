package cli

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// TestCheckReportsConfirmation: check cannot ask the user, so a call the
// confirm tier holds is allowed with the rules that would hold it, and
// one it does not hold carries none; a confirm pattern that does not
// compile is a configuration error.
func TestCheckReportsConfirmation(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"ALLOW_COMMANDS": "echo,ls", "MCP_SHELL_CONFIRM_COMMANDS": "ls", "MCP_SHELL_CONFIRM_PATTERNS": "echo held.*", "MCP_SHELL_SANDBOX": "off"}
	line := func(argv ...string) Verdict {
		raw, _ := json.Marshal(map[string]any{"argv": argv, "env": env, "directory": dir})
		return judgeLine(raw)
	}
	v := line("echo", "held", "|", "ls")
	want := []plan.Confirmation{{Stage: 0, Rule: "confirm.pattern:echo held.*"}, {Stage: 1, Rule: "confirm.command:ls"}}
	if v.Verdict != "allow" || !slices.Equal(v.Confirm, want) || !slices.Equal(v.Plan.Confirm, want) {
		t.Errorf("held call: %+v", v)
	}
	if v := line("echo", "free"); v.Verdict != "allow" || v.Confirm != nil {
		t.Errorf("call the tier does not hold: %+v", v)
	}
	env["MCP_SHELL_CONFIRM_PATTERNS"] = "echo (held"
	if v := line("echo", "x"); v.Verdict != "reject" || v.Rule != "config.invalid" || !strings.Contains(v.Message, "MCP_SHELL_CONFIRM_PATTERNS") {
		t.Errorf("bad confirm pattern: %+v", v)
	}
}
