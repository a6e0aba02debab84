package cli

import (
	"encoding/json"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
)

// TestCorpora judges every allow/reject row of the shared corpora through
// the same path as `check --jsonl`, under each row's server environment,
// in the redirect fixture. Rows whose trigger is the environment or
// repository content are runtime matters, tested elsewhere.
func TestCorpora(t *testing.T) {
	fixture := testcases.Fixture(t)
	for _, file := range []string{"tumf_cases", "gtfobins", "benign", "bugreports"} {
		t.Run(file, func(t *testing.T) {
			var pass, total int
			for _, c := range testcases.Load(t, file) {
				if c.Expect != "allow" && c.Expect != "reject" || c.Vector == "env" || c.Vector == "content" {
					continue
				}
				total++
				env := c.ServerEnv()
				line, _ := json.Marshal(map[string]any{"id": c.ID, "argv": c.Argv, "env": env, "directory": fixture})
				v := judgeLine(line)
				if v.Verdict != c.Expected() {
					t.Errorf("%s: argv %q env %v: want %s, got %s (%s: %s) %s", c.ID, c.Argv, env, c.Expected(), v.Verdict, v.Rule, v.Message, c.SupersededWhy())
					continue
				}
				pass++
			}
			t.Logf("%s: %d/%d rows pass", file, pass, total)
		})
	}
}
