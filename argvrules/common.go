package argvrules

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// getoptProgram is a program whose whole argv is one GNU getopt_long (or
// getopt_long-like) grammar: a table, an operand ordering, whether the
// program accepts unique abbreviations of long names, and the options that
// name an output path, keyed by Option.Key (the long name, or the short
// letter for short-only rows).
type getoptProgram struct {
	family  string // reason-code prefix, e.g. "wget"
	policy  string // policy text for refused options
	grammar string // policy text for grammar errors
	table   *table
	order   ordering
	// exact is true for programs whose parser has no abbreviations (clap,
	// curl): an abbreviation the engine resolves is an unknown option there.
	exact bool
	// outputs maps an option key to the kind of path its value names;
	// values "-" (standard output) and "/dev/null" are always accepted.
	outputs map[string]redirect.Kind
	// operand, when set, judges each operand (make's variable assignments).
	operand func(argv []string, ev *event) *Rejection
	// value, when set, judges each option value beyond Risk and outputs
	// (make -f -).
	value func(ev *event) *Rejection
}

// check parses argv[1:] and returns the first refusal in argv order: a
// risky option, an abbreviation the program would not accept, an output
// path outside ctx.Dir, a refused operand; then the first grammar error.
// Risky options before a grammar error are reported even though the real
// program would stop with a usage error: that error is not relied on.
func (g *getoptProgram) check(argv []string, ctx Context) *Rejection {
	if len(argv) == 0 {
		return nil
	}
	p := g.table.Parse(argv, 1, g.order)
	for i := range p.Events {
		ev := &p.Events[i]
		if r := g.event(argv, ctx, ev); r != nil {
			return r
		}
	}
	if p.Err != nil {
		return grammarRejection(g.family, g.policy, g.grammar, p.Err, g.exact)
	}
	return nil
}

func (g *getoptProgram) event(argv []string, ctx Context, ev *event) *Rejection {
	if ev.Kind == operandEvent {
		if g.operand != nil {
			return g.operand(argv, ev)
		}
		return nil
	}
	if g.exact && ev.Abbrev {
		return familyRule(g.family, kindUnknownOption, g.grammar).Reject(ev.Index, ev.Word,
			"argument %d %q abbreviates %s, but %s accepts only exact long option names (only known options are allowed)",
			ev.Index, ev.Word, ev.Opt.Display(), g.table.Program)
	}
	if ev.Opt.Risky(ev.HasValue) {
		return optionRejection(ev, g.policy, "")
	}
	if kind := g.outputs[optKey(ev.Opt)]; kind != 0 && ev.HasValue {
		if r := outputValue(ctx, g.family, ev, kind); r != nil {
			return r
		}
	}
	if g.value != nil {
		return g.value(ev)
	}
	return nil
}

// optKey is the identity used in getoptProgram.outputs.
func optKey(o *option) string {
	switch {
	case o.Key != "":
		return o.Key
	case o.Long != "":
		return o.Long
	default:
		return string(o.Short)
	}
}

// longName splits a Go-flag or nopt style option word ("-name",
// "--name", "-name=value", "--name=value") into its name and value.
// ok is false for words that are not options ("-", "--", "", operands).
func longName(w string) (name, value string, hasValue, ok bool) {
	if len(w) < 2 || w[0] != '-' || w == "--" {
		return "", "", false, false
	}
	s := strings.TrimPrefix(w[1:], "-")
	if s == "" {
		return "", "", false, false
	}
	name, value, hasValue = strings.Cut(s, "=")
	return name, value, hasValue, true
}
