package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/shlex"

	"github.com/seed-b63acb1b/mcp-shell-server/config"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// Verdict is one `check` answer.
type Verdict struct {
	ID      any        `json:"id,omitempty"`
	Verdict string     `json:"verdict"` // "allow" or "reject"
	Rule    string     `json:"rule"`
	Message string     `json:"message,omitempty"`
	Stages  [][]string `json:"stages,omitempty"`
}

// checkLine is one `check --jsonl` input line. Env, when present, is the
// complete server environment for that line; Directory is the call's
// working directory (and, unless Env sets MCP_SHELL_ALLOWED_DIRECTORIES,
// the allowed directory, as for a server started there).
type checkLine struct {
	ID        any                `json:"id"`
	Argv      []string           `json:"argv"`
	Env       *map[string]string `json:"env"`
	Directory string             `json:"directory"`
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
	v := decide(cfg, argv, "")
	if asJSON {
		json.NewEncoder(s.Out).Encode(v)
	} else {
		fmt.Fprintf(s.Out, "%s\nrule: %s\n", v.Verdict, v.Rule)
		if v.Message != "" {
			fmt.Fprintf(s.Out, "reason: %s\n", v.Message)
		}
	}
	if v.Verdict != "allow" {
		return ExitReject
	}
	return ExitOK
}

// decide judges argv under cfg in directory dir ("" = the first allowed
// directory), as the server would before starting anything.
func decide(cfg *config.Config, argv []string, dir string) Verdict {
	var arg *string
	if dir != "" {
		arg = &dir
	}
	wd, err := workdir.OpenAllowed(arg, cfg.AllowedDirs)
	if err == nil {
		defer wd.Close()
		var plan *policy.Plan
		if plan, err = policy.FromSettings(cfg.PolicySettings()).Evaluate(argv, wd); err == nil {
			return Verdict{Verdict: "allow", Rule: strings.Join(plan.Rules, ","), Stages: plan.Stages}
		}
	}
	v := Verdict{Verdict: "reject", Rule: "policy", Message: err.Error()}
	if rj := refusal.As(err); rj != nil {
		v.Rule = string(rj.Code)
	}
	return v
}

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
	v := decide(cfg, ln.Argv, ln.Directory)
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
