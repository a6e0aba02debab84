package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/shlex"

	"github.com/seed-b63acb1b/mcp-shell-server/config"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// Verdict is one `check` answer. Plan is what the call would get: each
// stage's program, families, sandbox facts and environment names.
type Verdict struct {
	ID      any        `json:"id,omitempty"`
	Verdict string     `json:"verdict"` // "allow" or "reject"
	Rule    string     `json:"rule"`
	Message string     `json:"message,omitempty"`
	Stages  [][]string `json:"stages,omitempty"`
	// Confirm are the confirm-tier rules an allowed call matches: the
	// server would ask the user before running it (check cannot ask).
	Confirm []plan.Confirmation `json:"confirm,omitempty"`
	Plan    *planView           `json:"plan,omitempty"`
}

// planView is a plan as `check --json` shows it: the plan's own fields,
// with each stage's environment reduced to its names (values may be
// credentials the operator delegated).
type planView struct {
	*plan.Call
	Directory string      `json:"directory"`
	Stages    []stageView `json:"stages"`
}

type stageView struct {
	plan.Stage
	EnvNames []string `json:"env"`
	// NotFound says why the program would not start (not found in the
	// child PATH); "" when it was found.
	NotFound string `json:"not_found,omitempty"`
}

func viewOf(c *plan.Call) *planView {
	v := &planView{Call: c, Directory: c.Dir.Real()}
	for _, st := range c.Stages {
		sv := stageView{Stage: st}
		if st.Program.Err != nil {
			sv.NotFound = st.Program.Err.Error()
		}
		for _, kv := range st.Env {
			name, _, _ := strings.Cut(kv, "=")
			sv.EnvNames = append(sv.EnvNames, name)
		}
		v.Stages = append(v.Stages, sv)
	}
	return v
}

// checkLine is one `check --jsonl` input line. Env, when present, is the
// complete server environment for that line; Directory is the call's
// working directory (and, unless Env sets MCP_SHELL_ALLOWED_DIRECTORIES,
// the allowed directory, as for a server started there). Envs are the
// call's per-call variables, and Exact judges argv as execute_command
// does (every element data).
type checkLine struct {
	ID        any                `json:"id"`
	Argv      []string           `json:"argv"`
	Env       *map[string]string `json:"env"`
	Directory string             `json:"directory"`
	Envs      map[string]string  `json:"envs"`
	Exact     bool               `json:"exact"`
}

func check(args []string, s Streams) int {
	asJSON := false
	for len(args) > 0 {
		switch args[0] {
		case "--jsonl":
			return checkJSONL(s)
		case "--json":
			asJSON, args = true, args[1:]
			continue
		case "--":
			return checkOne(args[1:], asJSON, s)
		}
		break
	}
	if len(args) != 1 {
		fmt.Fprintln(s.Err, "usage: mcp-shell-server check [--json] -- ARGV...  |  check [--json] 'COMMAND LINE'  |  check --jsonl")
		return ExitUsage
	}
	argv, err := shlex.Split(args[0])
	if err != nil {
		fmt.Fprintf(s.Err, "mcp-shell-server: cannot split %q: %v\n", args[0], err)
		return ExitUsage
	}
	return checkOne(argv, asJSON, s)
}

func checkOne(argv []string, asJSON bool, s Streams) int {
	cfg, err := config.Load(nil)
	if err != nil {
		return configError(s.Err, err)
	}
	v := decide(cfg, policy.Request{Argv: argv})
	if asJSON {
		json.NewEncoder(s.Out).Encode(v)
	} else {
		fmt.Fprintf(s.Out, "%s\nrule: %s\n", v.Verdict, v.Rule)
		if v.Message != "" {
			fmt.Fprintf(s.Out, "reason: %s\n", v.Message)
		}
		if len(v.Confirm) > 0 {
			fmt.Fprintf(s.Out, "confirm: the server would ask the user before running it (%s); check cannot ask\n", confirmText(v.Confirm))
		}
	}
	if v.Verdict != "allow" {
		return ExitReject
	}
	return ExitOK
}

// decide judges req under cfg as the server would before starting
// anything: through policy.Decide, with the sandbox rules cfg selects
// and temporary directories named but never created.
func decide(cfg *config.Config, req policy.Request) Verdict {
	sb, err := checkSandbox(cfg)
	if err != nil {
		return Verdict{Verdict: "reject", Rule: "config.invalid", Message: err.Error()}
	}
	call, err := policy.FromSettings(cfg.PolicySettings(), sb).Decide(req)
	//lint:ignore SA5001 some refusals come with a Call to close too (Decide's doc); Close is nil-safe
	defer call.Close()
	if err == nil {
		return Verdict{Verdict: "allow", Rule: strings.Join(call.Rules(), ","), Stages: call.Argvs(), Confirm: call.Confirm, Plan: viewOf(call)}
	}
	v := Verdict{Verdict: "reject", Rule: "policy", Message: err.Error()}
	if rj := refusal.As(err); rj != nil {
		v.Rule = string(rj.Code)
	}
	return v
}

// confirmText names the confirm rules, with their stages.
func confirmText(cs []plan.Confirmation) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("stage %d: %s", c.Stage+1, c.Rule))
	}
	return strings.Join(parts, "; ")
}

// checkSandbox is the sandbox the server would run cfg with, as far as
// the policy sees it: the rules of the effective mode, and a temporary
// directory that is named but not created.
func checkSandbox(cfg *config.Config) (policy.Sandbox, error) {
	if !cfg.Launch {
		return policy.Sandbox{}, nil
	}
	rules, err := sandbox.NewRules(cfg.Sandbox)
	if err != nil {
		return policy.Sandbox{}, &config.Error{Var: "MCP_SHELL_SANDBOX", Problem: err.Error()}
	}
	return policy.Sandbox{Rules: rules, TempDirs: namedTempDirs{}}, nil
}

// namedTempDirs names a call's private temporary directory the way the
// launcher makes one, without creating it: `check` runs nothing.
type namedTempDirs struct{}

func (namedTempDirs) CallDir() (string, error) {
	return filepath.Join(os.TempDir(), "mcp-shell-call-XXXXXXXX"), nil
}

func (namedTempDirs) ReleaseCallDir(string) {}

func checkJSONL(s Streams) int {
	sc := bufio.NewScanner(s.In)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	enc := json.NewEncoder(s.Out)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		enc.Encode(judgeLine(sc.Bytes()))
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(s.Err, "mcp-shell-server: reading stdin: %v\n", err)
		return ExitUsage
	}
	return ExitOK
}

func judgeLine(raw []byte) Verdict {
	var ln checkLine
	// Unknown fields are ignored, so case corpora rows (with "expect",
	// "note", ...) can be piped in as they are.
	if err := json.Unmarshal(raw, &ln); err != nil {
		// Keep the id when the line has one, so the answer can be matched.
		var idOnly struct {
			ID any `json:"id"`
		}
		json.Unmarshal(raw, &idOnly)
		return Verdict{ID: idOnly.ID, Verdict: "reject", Rule: "request.invalid", Message: "invalid line: " + err.Error()}
	}
	cfg, err := lineConfig(ln)
	if err != nil {
		return Verdict{ID: ln.ID, Verdict: "reject", Rule: "config.invalid", Message: err.Error()}
	}
	req := policy.Request{Argv: ln.Argv, Exact: ln.Exact, Envs: ln.Envs}
	if ln.Directory != "" {
		req.Dir = &ln.Directory
	}
	v := decide(cfg, req)
	v.ID = ln.ID
	return v
}

func lineConfig(ln checkLine) (*config.Config, error) {
	if ln.Env == nil {
		return config.Load(dirsFor(ln.Directory))
	}
	var dirs []string
	if _, ok := (*ln.Env)["MCP_SHELL_ALLOWED_DIRECTORIES"]; !ok {
		dirs = dirsFor(ln.Directory)
	}
	return config.Parse(config.LookupMap(*ln.Env), dirs)
}

func dirsFor(d string) []string {
	if d == "" {
		return nil
	}
	return []string{d}
}
