package policy

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// stage judges one stage's argv (redirections removed) and returns its
// plan: every fact about the stage is decided here, once (the order of
// checks is the package documentation's step 4).
func (p *Policy) stage(w stageWords, c callContext) (plan.Stage, error) {
	return p.judge(w, c, wrapState{})
}

// judge is stage for a stage that may be a wrapper's (wrap.go).
func (p *Policy) judge(w stageWords, c callContext, ws wrapState) (plan.Stage, error) {
	argv, offsets := w.argv, w.offsets
	if len(argv) == 0 || strings.TrimSpace(argv[0]) == "" {
		return plan.Stage{}, reject(CodeEmpty, w.start, "", "Empty command")
	}
	name, at := argv[0], offsets[0]
	st := plan.Stage{Argv: argv}
	if err := ws.checkName(name, at); err != nil {
		return st, err
	}
	var err error
	if st.Rule, err = p.admit(name, at); err != nil {
		return st, err
	}
	if st.Program, err = p.program(name, at, c); err != nil {
		return st, err
	}
	sel := argvrules.Select(name, argvrules.Program{Path: st.Program.Found, Links: st.Program.Links})
	st.Judges, st.Dialect = familyNames(sel.Judges), sel.Dialect
	if sel.Family != nil {
		st.Family = sel.Family.Name
	}
	if sel.Family.IsWrapper() {
		return p.wrapper(w, c, ws, st, sel)
	}
	st.Subcommands = sel.Family.Subcommands(argv)
	st.Env, st.Confinement = p.stageEnv(st, sel.Family, c)
	ctx := p.recognizerContext(c, st, sel)
	ctx.Outputs = &st.Outputs
	ctx.MoreOperands = ws.more
	if err := p.recognize(argv, offsets, ctx); err != nil {
		return st, err
	}
	return st, nil
}

// admit applies the name rules: a clean name, the categorical refusal
// list (which no allowlist entry overrides), then the allowlist; it
// returns the allowlist rule that admitted name.
func (p *Policy) admit(name string, at int) (string, error) {
	if err := checkName(name, at); err != nil {
		if r, ok := err.(*refusal.Rejection); ok && r.Code == CodeUnsafeName {
			r.Message += splitHint(name)
		}
		return "", err
	}
	if err := shellHabit(name, at); err != nil {
		return "", err
	}
	if n, category, ok := Refused(name); ok {
		return "", reject(CodeRefusedProgram, at, name,
			"Command rejected by default security policy: %s (%s %q is refused whatever the allowlist says)", n, category, name)
	}
	return p.allowed(name, at)
}

// program resolves name once for the stage and judges where it leads
// (resolve.go): the file that runs is the one the plan records.
func (p *Policy) program(name string, at int, c callContext) (plan.Program, error) {
	prog, err := p.resolveProgram(name, at)
	if err != nil {
		return prog, err
	}
	if err := p.checkLocation(name, at, prog, c); err != nil {
		return prog, err
	}
	if err := checkTargets(name, at, prog.Resolution); err != nil {
		return prog, err
	}
	return prog, p.checkSystemDir(name, at, prog.Resolution)
}

// stageEnv is the one place a stage's environment is assembled, and its
// confinement decided: the call's base environment (childenv.Build: the
// minimal environment, the operator's delegated variables and the
// request's), then the hardening every stage gets (git's configuration:
// any program may run git) and the stage's family's own entries, then
// the sandbox's (the family's cache variables, TMPDIR). Each later layer
// replaces a name an earlier one set.
func (p *Policy) stageEnv(st plan.Stage, fam *argvrules.Family, c callContext) ([]string, plan.Confinement) {
	extra := c.hardening
	if fam != nil && fam.Env != nil && fam != argvrules.GitFamily() {
		extra = append(append([]string{}, extra...), fam.Env(p.workspace(c.dir.Real()))...)
	}
	env := childenv.Overlay(c.base, extra)
	if p.cfg.Sandbox == nil {
		return env, plan.Confinement{Mode: sandbox.ModeOff}
	}
	conf, add := p.cfg.Sandbox.Stage(sandbox.StageRequest{Argv: st.Argv, Family: fam, Program: st.Program.Resolution, Env: env,
		TempDir: c.tempDir, Subcommands: st.Subcommands})
	return childenv.Overlay(env, add), conf
}

// recognizerContext is what the family recognizers see of the stage: the
// families and dialect selected, the resolved program, and the stage's
// own environment.
func (p *Policy) recognizerContext(c callContext, st plan.Stage, sel argvrules.Selection) argvrules.Context {
	return argvrules.Context{
		Dir:            c.dir,
		ReadTrees:      readTrees(p.cfg.AllowedDirs, st.Confinement),
		Readable:       readable(st.Confinement),
		GitSubcommands: p.cfg.GitSubcommands,
		Program:        argvrules.Program{Path: st.Program.Found, Links: st.Program.Links},
		Env:            func(name string) (string, bool) { return childenv.Lookup(st.Env, name) },
		Refused:        func(n string) bool { _, _, ok := Refused(n); return ok },
		Judges:         sel.Judges,
		Dialect:        sel.Dialect,
	}
}

// readTrees are the allowed directories the stage may read: all of them
// unless Landlock confines it to its Read and Write trees.
func readTrees(allowed []string, c plan.Confinement) []string {
	if c.Mode != sandbox.ModeLandlock {
		return allowed
	}
	var out []string
	for _, d := range allowed {
		if workdir.Inside(d, c.Read) != "" || workdir.Inside(d, c.Write) != "" {
			out = append(out, d)
		}
	}
	return out
}

// readable is whether the stage may read a path: beneath its Landlock
// Read and Write trees, or anywhere when Landlock does not confine it.
func readable(c plan.Confinement) func(string) bool {
	if c.Mode != sandbox.ModeLandlock {
		return func(string) bool { return true }
	}
	return func(p string) bool { return workdir.Inside(p, c.Read) != "" || workdir.Inside(p, c.Write) != "" }
}

// recognize runs the recognizers on argv; offsets map a refusal's index
// to the request argv.
func (p *Policy) recognize(argv []string, offsets []int, ctx argvrules.Context) error {
	if p.cfg.Recognize == nil {
		return nil
	}
	r := p.cfg.Recognize(argv, ctx)
	if r == nil {
		return nil
	}
	return r.Shifted(offsets)
}

func familyNames(fs []*argvrules.Family) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}
