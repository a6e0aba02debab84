package policy_test

import (
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/config"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// wrapperForms are the wrappers of the table test, each in an everyday
// form: the words before the wrapped program.
var wrapperForms = [][]string{
	{"timeout", "5"},
	{"nice"},
	{"timeout", "-k", "1", "--signal=TERM", "5"},
	{"nice", "-n", "5"},
	{"nice", "-5"},
	{"ionice", "-c", "3"},
	{"nohup"},
	{"stdbuf", "-oL"},
	{"time", "-p"},
	{"env"},
	{"env", "LC_ALL=C"},
	{"env", "-i", "LANG=C"},
	{"env", "-u", "LANG"},
	{"flock", "lk"},
	{"timeout", "5", "nice", "env", "LC_ALL=C"},
}

// TestWrappedCorpora: for every allow/reject row of the shared corpora
// and every wrapper form, the row with its first stage wrapped gets the
// verdict of the row as it is (timeout 5 and nice wrap every row, the
// other forms a fixed sample unless MCP_SHELL_TEST_HEAVY=1; benign rows wrapped all pass, attack rows
// wrapped stay refused); under xargs, which appends words the policy
// cannot see, a row is allowed only when it is and its program is a leaf.
func TestWrappedCorpora(t *testing.T) {
	fixture := testcases.Fixture(t)
	counts := map[string]int{}
	for _, file := range []string{"tumf_cases", "gtfobins", "benign", "bugreports", "redteam2", "redteam3"} {
		for i, c := range testcases.Load(t, file) {
			if c.Expect != "allow" && c.Expect != "reject" || c.Vector == "env" || c.Vector == "content" || len(testcases.RecognizerStages(c.Argv)[0]) == 0 {
				continue
			}
			dir := fixture
			if len(c.SetupArgv) > 0 {
				if dir = setupDir(t, c); dir == "" {
					continue
				}
			}
			env := c.ServerEnv()
			plain, plainPlan := wrapVerdict(t, env, dir, c.Argv, "")
			if file == "benign" && plain != "allow" {
				t.Errorf("%s: benign row refused unwrapped", c.ID)
			}
			for k, form := range wrapperForms {
				if k >= 2 && !testenv.Heavy() && i%6 != 0 {
					continue // timeout 5 and nice wrap every row; the other forms a fixed sample
				}
				wrapped := append(slices.Clone(form), c.Argv...)
				got, _ := wrapVerdict(t, env, dir, wrapped, form[0])
				plain := plain
				if form[0] == "timeout" && len(form) > 2 && form[2] == "nice" {
					plain, _ = wrapVerdict(t, env, dir, c.Argv, form[0]) // the same allowlist
				}
				if got != plain {
					w, _ := json.Marshal(wrapped)
					t.Errorf("%s: %s: got %s, the row unwrapped gets %s", c.ID, w, got, plain)
				}
				counts[form[0]+" "+plain]++
			}
			want := plain
			if plain == "allow" && !appendable(plainPlan.Stages[0]) {
				want = "reject" // a family's program: xargs could append one of its options
			}
			wrapped := append([]string{"xargs", "-r"}, c.Argv...)
			if got, _ := wrapVerdict(t, env, dir, wrapped, "xargs"); got != want {
				w, _ := json.Marshal(wrapped)
				t.Errorf("%s: %s: got %s, want %s", c.ID, w, got, want)
			}
			counts["xargs "+want]++
		}
	}
	for _, k := range []string{"timeout allow", "timeout reject", "nice allow", "nice reject", "xargs allow", "xargs reject"} {
		if counts[k] < 20 {
			t.Errorf("only %d rows of %q: the corpora were not read", counts[k], k)
		}
	}
	t.Logf("rows judged per wrapper and verdict: %v", counts)
}

// appendable reports whether st's program takes any appended words: a
// leaf, or a wrapper that names a program that does.
func appendable(st plan.Stage) bool {
	if st.Wrapped != nil {
		return appendable(*st.Wrapped)
	}
	return len(st.Judges) == 0
}

// setupDir runs a redteam row's setup argv in a fresh directory; "" when
// a setup program is missing.
func setupDir(t *testing.T, c testcases.Case) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range c.SetupArgv {
		if _, err := exec.LookPath(st[0]); err != nil {
			return ""
		}
		cmd := exec.Command(st[0], st[1:]...)
		cmd.Dir = dir
		cmd.Run()
	}
	return dir
}

// wrapVerdict judges argv under env (with wrapper, and for timeout nice
// and env, allowed too) in dir.
func wrapVerdict(t *testing.T, env map[string]string, dir string, argv []string, wrapper string) (string, *plan.Call) {
	t.Helper()
	env = wrapEnv(env, wrapper)
	cfg, err := config.Parse(config.LookupMap(env), []string{dir})
	if err != nil {
		return "reject", nil // a configuration the server refuses to start with
	}
	call, err := policy.FromSettings(cfg.PolicySettings(), policy.Sandbox{}).Decide(policy.Request{Argv: argv})
	if err != nil {
		var r *refusal.Rejection
		if !errors.As(err, &r) {
			t.Fatalf("%q: not a rejection: %v", argv, err)
		}
		return "reject", nil
	}
	defer call.Close()
	return "allow", call
}

// wrapEnv adds wrapper (and every wrapper of the nested form) to env's
// allowlist.
func wrapEnv(env map[string]string, wrapper string) map[string]string {
	if wrapper == "" {
		return env
	}
	out := map[string]string{}
	for k, v := range env {
		out[k] = v
	}
	names := []string{wrapper}
	if wrapper == "timeout" {
		names = append(names, "nice", "env") // the nested form
	}
	if cur := out["ALLOW_COMMANDS"]; strings.TrimSpace(cur) != "" {
		names = append(names, cur)
	}
	out["ALLOW_COMMANDS"] = strings.Join(names, ",")
	return out
}
