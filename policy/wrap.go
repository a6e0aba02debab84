package policy

import (
	"slices"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// maxWrapDepth bounds nested wrappers: timeout 5 nice env LC_ALL=C sort
// is three; no everyday command line nests eight.
const maxWrapDepth = 8

// wrapState is what the wrappers around a stage tell its judgement.
type wrapState struct {
	depth int
	// more: an xargs around the stage appends words from standard input
	// (argvrules.Context.MoreOperands).
	more bool
	// replace are the -I strings of the xargs around the stage: a word
	// holding one becomes a line of standard input.
	replace []string
}

// checkName refuses a program name an xargs -I around it would replace
// with standard input.
func (ws wrapState) checkName(name string, at int) error {
	for _, r := range ws.replace {
		if strings.Contains(name, r) {
			return reject(CodeWrapReplace, at, name,
				"the program name %q holds xargs -I's replace string %q, so standard input would choose the program: name the program", name, r)
		}
	}
	return nil
}

// wrapper judges a wrapper's stage: the wrapper's own options and
// operands with its grammar (argvrules.Wrap), then the argv it runs as a
// stage of its own, judged by the whole policy as if it were the call
// (allowlist, refusal list, resolution, its family's recognizer and
// sandbox profile). The wrapper adds no power: the stage is confined as
// the wrapped program is, plus the wrapper's own file, and the wrapper
// executes the program the policy resolved, by the absolute path that
// replaces its name in Argv (it searches no PATH again).
func (p *Policy) wrapper(w stageWords, c callContext, ws wrapState, st plan.Stage, sel argvrules.Selection) (plan.Stage, error) {
	argv, offsets := w.argv, w.offsets
	st.Env, st.Confinement = p.stageEnv(st, sel.Family, c)
	ctx := p.recognizerContext(c, st, sel)
	ctx.MoreOperands = ws.more
	ctx.Outputs = &st.Outputs
	if err := p.recognize(argv, offsets, ctx); err != nil {
		return st, err
	}
	ctx.Outputs = nil
	wr, _, r := argvrules.Wrap(sel.Family, argv, ctx)
	if r != nil {
		return st, r.Shifted(offsets)
	}
	if wr.Program < 0 && wr.Default == "" {
		return st, nil // runs nothing: the wrapper is a leaf
	}
	if ws.depth >= maxWrapDepth {
		return st, reject(CodeWrapDepth, offsets[0], argv[0], "wrappers nest more than %d deep here; run the innermost program directly", maxWrapDepth)
	}
	own := argv
	if wr.Program >= 0 {
		own = argv[:wr.Program]
	}
	if err := ws.checkOwn(own, offsets); err != nil {
		return st, err
	}
	inner, err := p.judge(innerWords(w, wr), c.withEnv(wr.Env), ws.inside(wr))
	if err != nil {
		return st, err
	}
	return joinWrapped(st, inner, own, c.base, wr), nil
}

// checkOwn refuses a wrapper's own word (an option, its value, an
// operand such as timeout's DURATION) that an xargs -I around it would
// replace with standard input, which could make it any option.
func (ws wrapState) checkOwn(own []string, offsets []int) error {
	for i := 1; i < len(own); i++ {
		for _, r := range ws.replace {
			if strings.Contains(own[i], r) {
				return reject(CodeWrapReplace, offsets[i], own[i],
					"argument %d %q holds xargs -I's replace string %q in %s's own options or operands, so standard input would choose them", offsets[i], own[i], r, own[0])
			}
		}
	}
	return nil
}

// inside is the state of the stage a wrapper runs.
func (ws wrapState) inside(wr argvrules.Wrapping) wrapState {
	in := wrapState{depth: ws.depth + 1, more: ws.more || wr.Appends, replace: ws.replace}
	if wr.Replace != "" {
		in.replace = append(slices.Clip(in.replace), wr.Replace)
	}
	return in
}

// innerWords are the wrapped stage's words: argv from the program's
// name, or the program the wrapper runs when argv names none (xargs's
// echo), placed at the wrapper's own name.
func innerWords(w stageWords, wr argvrules.Wrapping) stageWords {
	if wr.Program < 0 {
		return stageWords{argv: []string{wr.Default}, offsets: []int{w.offsets[0]}, start: w.offsets[0]}
	}
	return stageWords{argv: w.argv[wr.Program:], offsets: w.offsets[wr.Program:], start: w.offsets[wr.Program]}
}

// withEnv is c with its base environment changed as env changes it for
// the program it runs.
func (c callContext) withEnv(e argvrules.EnvChange) callContext {
	if e.Clear || len(e.Unset) > 0 || len(e.Set) > 0 {
		c.base = e.Apply(c.base)
	}
	return c
}

// joinWrapped is the wrapper's stage around the judged inner one: Argv
// with the program's name replaced by the resolved path (and, after
// env's own words, the entries env would otherwise drop: the hardening,
// the family's and the sandbox's, which the inner stage was judged
// with), the inner stage's environment and confinement with the
// wrapper's own files added to what it may execute.
func joinWrapped(st, inner plan.Stage, own []string, base []string, wr argvrules.Wrapping) plan.Stage {
	added := envDiff(inner.Env, childenvOverlayBase(base, wr))
	outer := childenv.Overlay(base, added)
	restore := envDiff(inner.Env, wr.Env.Apply(outer))
	path := inner.Program.Found
	if path == "" {
		path = inner.Argv[0]
	}
	argv := append(append(append([]string{}, own...), restore...), path)
	argv = append(argv, inner.Argv[1:]...)
	wrapperExec := st.Confinement.Exec
	st.Argv, st.Env, st.Confinement = argv, outer, inner.Confinement
	st.Confinement.Exec = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(inner.Confinement.Exec), wrapperExec...))))
	st.Outputs = append(st.Outputs, inner.Outputs...)
	if inner.Program.Err != nil && st.Program.Err == nil {
		st.Program.Err = inner.Program.Err // the program cannot start, so neither can the stage
	}
	st.Wrapped = &inner
	return st
}

// childenvOverlayBase is the base environment the inner stage was built
// from.
func childenvOverlayBase(base []string, wr argvrules.Wrapping) []string {
	if wr.Env.Clear || len(wr.Env.Unset) > 0 || len(wr.Env.Set) > 0 {
		return wr.Env.Apply(base)
	}
	return base
}

// envDiff are the entries of want that have is not (same name and value),
// in want's order.
func envDiff(want, is []string) []string {
	var out []string
	for _, kv := range want {
		if !slices.Contains(is, kv) {
			out = append(out, kv)
		}
	}
	return out
}
