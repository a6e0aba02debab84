package policy_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/config"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
)

// TestRedteamCorpora (issue 12, every class) judges each redteam2 and
// redteam3 row the way `check --jsonl` does: its setup argv run without a
// shell in a fresh directory, the row's server environment, the policy
// built from it, the call's directory pinned. A row whose setup program
// is missing is skipped.
func TestRedteamCorpora(t *testing.T) {
	for _, file := range []string{"redteam2", "redteam3"} {
		t.Run(file, func(t *testing.T) { redteamCorpus(t, file) })
	}
}

func redteamCorpus(t *testing.T, file string) {
	rows := testcases.Load(t, file)
	pass := 0
	for _, c := range rows {
		if c.Expect != "allow" && c.Expect != "reject" || c.Vector == "env" || c.Vector == "content" {
			continue
		}
		dir, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		skip := false
		for _, st := range c.SetupArgv {
			if _, err := exec.LookPath(st[0]); err != nil {
				skip = true
				break
			}
			cmd := exec.Command(st[0], st[1:]...)
			cmd.Dir = dir
			cmd.Run()
		}
		if skip {
			t.Logf("%s: setup program missing, skipped", c.ID)
			continue
		}
		cfg, err := config.Parse(config.LookupMap(c.ServerEnv()), []string{dir})
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		call, err := policy.FromSettings(cfg.PolicySettings(), policy.Sandbox{}).Decide(policy.Request{Argv: c.Argv})
		call.Close()
		got := "allow"
		if err != nil {
			got = "reject"
		}
		if got != c.Expect {
			argv, _ := json.Marshal(c.Argv)
			t.Errorf("%s (%s): %s: want %s, got %s (%v)", c.ID, c.Class, argv, c.Expect, got, err)
			continue
		}
		pass++
	}
	t.Logf("%s: %d rows pass", file, pass)
}
