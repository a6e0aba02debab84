package policy

import (
	"path"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/git"
	"github.com/seed-b63acb1b/mcp-shell-server/config"
)

// FromConfig builds the policy the server runs with: cfg's allowlist and
// patterns, and every program family's recognizer (argvrules for find, awk,
// sort and tar; argvrules/git for git, admitting cfg.GitSubcommands as
// extra subcommands).
func FromConfig(cfg *config.Config) *Policy {
	recs := argvrules.Families()
	recs["git"] = git.New(git.Options{AllowSubcommands: cfg.GitSubcommands})
	return New(Config{
		Commands:       cfg.Commands,
		Patterns:       cfg.Patterns,
		PatternSources: cfg.PatternSources,
		Recognizers:    recs,
		Family: func(base string) string {
			if base == "git" {
				return "git"
			}
			return argvrules.FamilyOf(base)
		},
	})
}

// ExtraEnv returns the environment entries a call's children need beyond
// the minimal child environment: git's hardening configuration when any
// stage runs git. stages are Plan.Stages.
func ExtraEnv(stages [][]string) []string {
	for _, st := range stages {
		if len(st) > 0 && path.Base(st[0]) == "git" {
			return git.ChildConfig()
		}
	}
	return nil
}
