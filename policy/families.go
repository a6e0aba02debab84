package policy

import (
	"path"
	"regexp"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
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
	// ChildEnv is the child-environment configuration
	// (MCP_SHELL_CHILD_ENV_ALLOWLIST, MCP_SHELL_SAFE_PATH): programs are
	// resolved with its PATH.
	ChildEnv childenv.Config
	// AllowedDirs are the allowed directories (absolute, resolved).
	AllowedDirs []string
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
		ChildEnv:       s.ChildEnv,
		AllowedDirs:    s.AllowedDirs,
	})
}

// ExtraEnv returns the environment entries a call's children need beyond
// the minimal child environment: every registered family's Env whose
// family runs in a stage, and git's hardening configuration for every
// call, since allowed programs run git on their own (npm, pip and cargo
// git dependencies, go get, make recipes) and a name may resolve to git
// through a symlink. stages are Plan.Stages; dir is the call's working
// directory (workdir.Dir.Real), and the families learn it with the
// policy's allowed directories (git's safe.directory list).
func (p *Policy) ExtraEnv(stages [][]string, dir string) []string {
	w := argvrules.Workspace{Dir: dir, Allowed: p.cfg.AllowedDirs}
	out := argvrules.GitFamily().Env(w)
	seen := map[*argvrules.Family]bool{argvrules.GitFamily(): true}
	for _, st := range stages {
		if len(st) == 0 {
			continue
		}
		f := argvrules.FamilyOf(path.Base(st[0]))
		if f == nil || f.Env == nil || seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f.Env(w)...)
	}
	return out
}
