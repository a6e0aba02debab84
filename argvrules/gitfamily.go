package argvrules

import "github.com/seed-b63acb1b/mcp-shell-server/argvrules/git"

// checkGit is the git family's recognizer: package git owns git's own
// parse-options grammar; the operator's extra subcommands come through
// Context, with the trees the stage may read and its environment.
func checkGit(argv []string, ctx Context) *Rejection {
	return git.CheckCall(argv, git.Call{Dir: ctx.Dir, Allow: ctx.GitSubcommands, Trees: ctx.ReadTrees, Env: ctx.Env})
}
