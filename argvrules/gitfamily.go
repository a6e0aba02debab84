package argvrules

import "github.com/seed-b63acb1b/mcp-shell-server/argvrules/git"

// checkGit is the git family's recognizer: package git owns git's own
// parse-options grammar; the operator's extra subcommands come through
// Context.
func checkGit(argv []string, ctx Context) *Rejection {
	return git.Check(argv, ctx.Dir, ctx.GitSubcommands)
}
