package policy

import (
	"regexp"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
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
	// Confirm is the confirm tier (MCP_SHELL_CONFIRM_COMMANDS,
	// MCP_SHELL_CONFIRM_PATTERNS).
	Confirm Confirm
}

// Sandbox is what the policy gets of the sandbox: the rules that decide
// what each stage may do (nil: no sandbox) and the supply of calls'
// private temporary directories (the launcher; `check` names them
// without creating any).
type Sandbox struct {
	Rules    *sandbox.Rules
	TempDirs TempDirs
}

// FromSettings builds the policy the server and `check` run with: the
// operator's allowlist and patterns, the argv recognizer of every family
// in the argvrules registry, and the sandbox's rules.
func FromSettings(s Settings, sb Sandbox) *Policy {
	return New(Config{
		Commands:       s.Commands,
		Patterns:       s.Patterns,
		PatternSources: s.PatternSources,
		GitSubcommands: s.GitSubcommands,
		Recognize:      argvrules.Check,
		ChildEnv:       s.ChildEnv,
		AllowedDirs:    s.AllowedDirs,
		Sandbox:        sb.Rules,
		TempDirs:       sb.TempDirs,
		Confirm:        s.Confirm,
	})
}
