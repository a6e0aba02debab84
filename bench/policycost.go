package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/config"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
)

// policyCase is one benign.jsonl row prepared for Evaluate: the policy its
// row's environment builds (the corpus README: without `env`, allowlist
// exactly argv[0] of every pipeline stage) and the argv.
type policyCase struct {
	id   string
	argv []string
	pol  *policy.Policy
}

// loadPolicyCases reads path (JSON Lines with id and argv) and builds one
// policy per row, with dir as the allowed and working directory.
func loadPolicyCases(path, dir string) ([]policyCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []policyCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var row struct {
			ID   string            `json:"id"`
			Argv []string          `json:"argv"`
			Env  map[string]string `json:"env"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		env := row.Env
		if env == nil {
			env = map[string]string{"ALLOW_COMMANDS": strings.Join(stageNames(row.Argv), ",")}
		}
		cfg, err := config.Parse(config.LookupMap(env), []string{dir})
		if err != nil {
			return nil, fmt.Errorf("%s: config: %w", row.ID, err)
		}
		cases = append(cases, policyCase{id: row.ID, argv: row.Argv, pol: policy.FromSettings(cfg.PolicySettings(), policy.Sandbox{})})
	}
	return cases, sc.Err()
}

// stageNames is argv[0] of every pipeline stage of argv.
func stageNames(argv []string) []string {
	var names []string
	first := true
	for _, a := range argv {
		switch {
		case a == "|":
			first = true
		case first:
			names, first = append(names, a), false
		}
	}
	return names
}

// benchDecide is the policy benchmark: each op decides the next row,
// cycling through the corpus, so ns/op and allocs/op are per Decide call
// (the working directory pinned, every stage resolved, its environment
// built, its recognizers run) averaged over the corpus.
func benchDecide(b *testing.B, cases []policyCase, dir string) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c := &cases[i]
		decide(c, dir)
		if i++; i == len(cases) {
			i = 0
		}
	}
}

// decide is one row's decision, its plan released.
func decide(c *policyCase, dir string) error {
	call, err := c.pol.Decide(policy.Request{Argv: c.argv, Dir: &dir})
	call.Close()
	return err
}

// policyCost is section 6.
func (b *bench) policyCost(context.Context) error {
	p := b.newPart("6. Policy cost over shared/cases/benign.jsonl")
	path := filepath.Join(b.o.cases, "benign.jsonl")
	if _, err := os.Stat(path); err != nil {
		p.printf("Not measured: %v\n", err)
		b.skipGoal("policy cost", "report ns/op and allocs/op", "corpus missing")
		return nil
	}
	cases, err := loadPolicyCases(path, b.work)
	if err != nil {
		return err
	}
	var rejected []string
	for i := range cases {
		if err := decide(&cases[i], b.work); err != nil {
			rejected = append(rejected, cases[i].id)
		}
	}
	runs := b.reps(5, 1)
	var ns []float64
	var allocs, bytes int64
	for range runs {
		r := testing.Benchmark(func(tb *testing.B) { benchDecide(tb, cases, b.work) })
		ns = append(ns, float64(r.NsPerOp()))
		allocs, bytes = r.AllocsPerOp(), r.AllocedBytesPerOp()
	}
	p.printf("`(*policy.Policy).Decide` on each of the %d rows in turn (one policy per row, built as the corpus README says: allowlist argv[0] of every stage), with `testing.Benchmark` in this program; the same benchmark is `go test -bench Policy ./bench`. %d runs.\n\n", len(cases), runs)
	p.printf("| ns/op (median) | ns/op (range) | allocs/op | B/op |\n|---:|---:|---:|---:|\n| %.0f | %s | %d | %d |\n\n", quantile(ns, .5), rangeOf(ns, "%.0f"), allocs, bytes)
	p.printf("Rows the policy refused (they must all be allowed; refusals are cheaper, so they would flatter the numbers): %d %v.\n", len(rejected), rejected)
	b.addGoal("policy cost", "report ns/op and allocs/op; every benign row allowed", fmt.Sprintf("%.0f ns/op, %d allocs/op (%d rows, %d refused)", quantile(ns, .5), allocs, len(cases), len(rejected)), len(rejected) == 0)
	return nil
}
