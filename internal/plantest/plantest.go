// Package plantest builds plans for tests of the layers below the
// policy (runner, server, bench) that run programs the policy would
// refuse (sh, sleep as harnesses) or run without a policy at all. It
// assembles a stage the way the policy does, with the same parts:
// childenv.Resolve, argvrules.Select, the sandbox's rules (through
// Confine) and childenv.Overlay. Production code gets its plans from
// policy.Decide only.
package plantest

import (
	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// Confine is what a sandbox's rules say of one stage (sandbox.Rules.Stage
// in the caller's terms): its confinement and the environment entries
// the sandbox adds. Nil confines nothing (mode off).
type Confine func(argv []string, fam *argvrules.Family, prog childenv.Resolution, env []string) (plan.Confinement, []string)

// Stage is argv's plan stage: argv[0] resolved with env's PATH (a name
// that is not found gives a Program with Err, as the policy's does), its
// family selected, env with confine's entries (sorted by name, as the
// policy's are; without entries env is kept as it is, so a test can
// check that the runner passes it exactly).
func Stage(confine Confine, env []string, argv ...string) plan.Stage {
	pathList, _ := childenv.Lookup(env, "PATH")
	st := plan.Stage{Argv: argv, Env: env, Confinement: plan.Confinement{Mode: "off"}}
	if len(argv) == 0 {
		return st // an invalid plan, for the runner's own checks
	}
	res, err := childenv.Resolve(argv[0], pathList, "")
	if err != nil {
		st.Program.Err = err
	} else {
		st.Program.Resolution = res
	}
	sel := argvrules.Select(argv[0], argvrules.Program{Path: res.Found, Links: res.Links})
	if sel.Family != nil {
		st.Family = sel.Family.Name
	}
	if confine != nil {
		var add []string
		if st.Confinement, add = confine(argv, sel.Family, res, env); len(add) > 0 {
			st.Env = childenv.Overlay(env, add)
		}
	}
	return st
}

// Call is a plan of stages (each argv resolved with env's PATH) in dir;
// the caller owns dir (Pin closes it with the test).
func Call(dir *workdir.Dir, confine Confine, env []string, stages ...[]string) *plan.Call {
	c := &plan.Call{Dir: dir}
	for _, argv := range stages {
		c.Stages = append(c.Stages, Stage(confine, env, argv...))
	}
	return c
}
