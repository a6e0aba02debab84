package policy

import (
	"maps"
	"path"
	"regexp"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/git"
	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/programs"
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
// allowlist and patterns, and every program family's recognizer (argvrules
// for find, awk, sort and tar; argvrules/git for git, admitting
// GitSubcommands as extra subcommands; argvrules/programs for rg, split,
// sdiff, diff3, wget, curl, make, go, npm, npx, pnpm, yarn, pip, cargo,
// zip, docker, podman, kubectl and file).
func FromSettings(s Settings) *Policy {
	recs := argvrules.Families()
	maps.Copy(recs, programs.Families())
	recs["git"] = git.New(git.Options{AllowSubcommands: s.GitSubcommands})
	return New(Config{
		Commands:       s.Commands,
		Patterns:       s.Patterns,
		PatternSources: s.PatternSources,
		Recognizers:    recs,
		Family:         family,
	})
}

// family maps an argv[0] basename to its recognizer family. git's
// "git-NAME" programs (git-upload-pack, ...) go to the git recognizer,
// which knows that form.
func family(base string) string {
	if isGit(base) {
		return "git"
	}
	if f := argvrules.FamilyOf(base); f != "" {
		return f
	}
	return programs.FamilyOf(base)
}

func isGit(base string) bool { return base == "git" || strings.HasPrefix(base, "git-") }

// ExtraEnv returns the environment entries a call's children need beyond
// the minimal child environment: git's hardening configuration when any
// stage runs git. stages are Plan.Stages.
func ExtraEnv(stages [][]string) []string {
	for _, st := range stages {
		if len(st) > 0 && isGit(path.Base(st[0])) {
			return git.ChildConfig()
		}
	}
	return nil
}
