package policy

import (
	"maps"
	"path"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/git"
	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/programs"
	"github.com/seed-b63acb1b/mcp-shell-server/config"
)

// FromConfig builds the policy the server runs with: cfg's allowlist and
// patterns, and every program family's recognizer (argvrules for find, awk,
// sort and tar; argvrules/git for git, admitting cfg.GitSubcommands as
// extra subcommands; argvrules/programs for rg, split, sdiff, diff3, wget,
// curl, make, go, npm, pnpm, yarn, pip, cargo, zip, docker, podman,
// kubectl and file).
func FromConfig(cfg *config.Config) *Policy {
	recs := argvrules.Families()
	maps.Copy(recs, programs.Families())
	recs["git"] = git.New(git.Options{AllowSubcommands: cfg.GitSubcommands})
	return New(Config{
		Commands:       cfg.Commands,
		Patterns:       cfg.Patterns,
		PatternSources: cfg.PatternSources,
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
