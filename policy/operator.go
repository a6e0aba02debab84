package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// literalHint points a client that needs a literal operator argument to
// the tool that passes every argument as data.
const literalHint = `to give a program literal ";", "&&", "||" or "|" arguments, use the execute_command tool (MCP_SHELL_TOOLS), where every argument is data`

// operatorReason returns the refusal for a whole-element shell operator
// (err, from checkOperators), or the real reason when the operator is not
// it: the stage the operator ends, the words since the last "|" without
// redirections, is refused anyway, judged as any stage is (stage), so
// removing the operator would not help. That holds when the program is
// allowed, and for a ";" after a find stage (find's -exec terminator:
// find . -exec id ";" is refused by the find rule whatever the
// allowlist). The real reason keeps its code and says the operator was
// not why. Any other error, and any other operator, stands as it is.
func (p *Policy) operatorReason(argv []string, c callContext, err error) error {
	op := refusal.As(err)
	if op == nil || op.Code != CodeShellOperator || p.cfg.Recognize == nil {
		return err
	}
	words, offsets := stageBefore(argv, op.Index)
	if len(words) == 0 {
		return err
	}
	_, stageErr := p.stage(stageWords{argv: words, offsets: offsets}, c)
	r := refusal.As(stageErr)
	if r != nil && r.Code == CodeNotAllowed && op.Arg == ";" {
		r = p.findTerminator(words, offsets, c)
	}
	if r == nil || !recognizerCode(r.Code) {
		return err
	}
	real := *r
	real.Message += fmt.Sprintf(" (the %q at argument %d was not the reason: %s)", op.Arg, op.Index, literalHint)
	return &real
}

// findTerminator judges a stage the allowlist refuses by find's rule
// when find's family judges its name: the ";" after it is find's -exec
// terminator, refused by the find rule whatever the allowlist says.
func (p *Policy) findTerminator(words []string, offsets []int, c callContext) *refusal.Rejection {
	if checkName(words[0], 0) != nil {
		return nil
	}
	sel := argvrules.Select(words[0], argvrules.Program{})
	if !slices.ContainsFunc(sel.Judges, func(f *argvrules.Family) bool { return f.Name == "find" }) {
		return nil
	}
	return p.cfg.Recognize(words, argvrules.Context{Dir: c.dir, Judges: sel.Judges}).Shifted(offsets)
}

// recognizerCode reports whether code is a family recognizer's
// ("<family>.<what>"), the only refusals that stand instead of the
// operator's.
func recognizerCode(code refusal.Code) bool {
	family, _, _ := strings.Cut(string(code), ".")
	return slices.Contains(argvrules.Names(), family)
}

// stageBefore returns the words of the stage that the element at end
// closes: those after the last "|" before it, with redirection operators
// and their targets left out, and their positions in argv.
func stageBefore(argv []string, end int) (words []string, offsets []int) {
	start := end
	for start > 0 && argv[start-1] != "|" {
		start--
	}
	for i := start; i < end; i++ {
		switch argv[i] {
		case "<", ">", ">>":
			i++ // the target
			continue
		}
		words, offsets = append(words, argv[i]), append(offsets, i)
	}
	return words, offsets
}
