package policy_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// FromSettings builds the policy the server runs with; Decide judges one
// request: the call's plan for the runner (each stage's resolved program,
// family, environment and sandbox facts), or a *refusal.Rejection with a
// reason code (docs/rules.md lists them all).
func ExampleFromSettings() {
	dir, err := os.MkdirTemp("", "policy-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	dir, _ = filepath.EvalSymlinks(dir)
	p := policy.FromSettings(policy.Settings{
		Commands:    []string{"ls", "sort", "bash"},
		ChildEnv:    childenv.Config{SafePath: childenv.DefaultPath},
		AllowedDirs: []string{dir},
	}, policy.Sandbox{})
	for _, argv := range [][]string{
		{"ls", "-la", "|", "sort", ">", "listing.txt"},
		{"sort", "-o", "/etc/passwd", "names.txt"},
		{"bash", "-c", "id"}, // refused whatever the allowlist says
		{"ls", ";", "id"},
	} {
		call, err := p.Decide(policy.Request{Argv: argv})
		var r *refusal.Rejection
		switch {
		case errors.As(err, &r):
			fmt.Printf("%q: refused, %s\n", argv, r.Code)
		case err != nil:
			fmt.Printf("%q: %v\n", argv, err)
		default:
			fmt.Printf("%q: %d stages, family of the second %q, > %s\n", argv, len(call.Stages), call.Stages[1].Family, call.StdoutFile)
		}
		call.Close()
	}
	// Output:
	// ["ls" "-la" "|" "sort" ">" "listing.txt"]: 2 stages, family of the second "sort", > listing.txt
	// ["sort" "-o" "/etc/passwd" "names.txt"]: refused, sort.output-path
	// ["bash" "-c" "id"]: refused, name.refused
	// ["ls" ";" "id"]: refused, argv.shell-operator
}
