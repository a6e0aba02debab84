package policy

import (
	"errors"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// baseEnv is the environment every stage of a call starts from
// (childenv.Build with the request's per-call variables), or the refusal
// of a per-call variable, with childenv's typed error as its cause.
func (p *Policy) baseEnv(envs map[string]string) ([]string, error) {
	env, err := childenv.Build(p.cfg.ChildEnv, p.getenv, envs)
	if err == nil {
		return env, nil
	}
	code, name := CodeEnv, ""
	var na *childenv.NotAllowedError
	var ne *childenv.NameError
	var ve *childenv.ValueError
	switch {
	case errors.As(err, &na) && na.Steering:
		code, name = CodeEnvSteering, na.Name
	case errors.As(err, &na) && na.Reserved:
		code, name = CodeEnvReserved, na.Name
	case errors.As(err, &na):
		name = na.Name
	case errors.As(err, &ne):
		code, name = CodeEnvName, ne.Name
	case errors.As(err, &ve):
		code, name = CodeRequestNUL, ve.Name
	}
	r := refusal.New(code, -1, name, "%s", err.Error())
	r.Err = err
	return nil, r
}

// hardening is the configuration every stage of a call in dir gets: git's
// (argvrules.GitFamily's Env), since any allowed program may run git on
// its own (npm, pip and cargo git dependencies, go get, make recipes) and
// a name may resolve to git through a symlink.
func (p *Policy) hardening(dir string) []string {
	return argvrules.GitFamily().Env(p.workspace(dir))
}

// workspace is where a call in dir (its resolved path) runs, for a
// family's Env: the directory and the allowed directories (git's
// safe.directory list).
func (p *Policy) workspace(dir string) argvrules.Workspace {
	return argvrules.Workspace{Dir: dir, Allowed: p.cfg.AllowedDirs}
}
