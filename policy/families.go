package policy

import (
	"path"
	"regexp"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
)

// Settings are what the operator configures of the policy.
type Settings struct {
	// Commands are exact argv[0] strings to allow.
	Commands []string
	// Patterns are full-match expressions (already anchored) for argv[0];
	// PatternSources are the operator's texts, for rule names.
	Patterns       []*regexp.Regexp
	PatternSources []string
	// GitSubcommands are extra git subcommands to admit (aliases).
	GitSubcommands []string
}

// FromSettings builds the policy the server runs with: the operator's
// allowlist and patterns, and the argv recognizer of every family in the
// argvrules registry.
func FromSettings(s Settings) *Policy {
	return New(Config{
		Commands:       s.Commands,
		Patterns:       s.Patterns,
		PatternSources: s.PatternSources,
		GitSubcommands: s.GitSubcommands,
		Recognize:      argvrules.Check,
	})
}

// ExtraEnv returns the environment entries a call's children need beyond
// the minimal child environment: each stage's family's Env (git's
// hardening configuration when any stage runs git). stages are
// Plan.Stages.
func ExtraEnv(stages [][]string) []string {
	var out []string
	seen := map[*argvrules.Family]bool{}
	for _, st := range stages {
		if len(st) == 0 {
			continue
		}
		f := argvrules.FamilyOf(path.Base(st[0]))
		if f == nil || f.Env == nil || seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f.Env()...)
	}
	return out
}
