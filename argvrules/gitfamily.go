package argvrules

import "github.com/seed-b63acb1b/mcp-shell-server/argvrules/git"

// checkGit is the git family's recognizer: package git owns git's own
// parse-options grammar; the operator's extra subcommands come through
// Context.
func checkGit(argv []string, ctx Context) *Rejection {
	r := git.Check(argv, ctx.Dir, ctx.GitSubcommands)
	if r == nil {
		return nil
	}
	return &Rejection{Rule: string(r.Code), Arg: r.Arg, Index: r.Index, Message: r.Message}
}
