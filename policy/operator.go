package policy

import (
	"fmt"
	"path"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// literalHint points a client that needs a literal operator argument to
// the tool that passes every argument as data.
const literalHint = `to give a program literal ";", "&&", "||" or "|" arguments, use the execute_command tool (MCP_SHELL_TOOLS), where every argument is data`

// operatorReason returns the refusal for a whole-element shell operator
// (err, from checkWhole), or the real reason when the operator is not it:
// the stage the operator ends, the words since the last "|" without
// redirections, is refused anyway by its program's recognizer, so
// removing the operator would not help. That holds when the program is
// allowed, and for a ";" after a find stage (find's -exec terminator:
// find . -exec id ";" is refused by the find rule whatever the
// allowlist). The real reason keeps its code and says the operator was
// not why. Any other error, and any other operator, stands as it is.
func (p *Policy) operatorReason(argv []string, dir *workdir.Dir, err error) error {
	op := refusal.As(err)
	if op == nil || op.Code != CodeShellOperator || p.cfg.Recognize == nil {
		return err
	}
	words, offsets := stageBefore(argv, op.Index)
	if len(words) == 0 || checkName(words[0], 0) != nil {
		return err
	}
	if _, _, refused := Refused(words[0]); refused {
		return err
	}
	_, notAllowed := p.allowed(words[0], 0)
	f := argvrules.FamilyOf(path.Base(words[0]))
	findTerminator := op.Arg == ";" && f != nil && f.Name == "find"
	if notAllowed != nil && !findTerminator {
		return err
	}
	r := p.cfg.Recognize(words, argvrules.Context{Dir: dir, GitSubcommands: p.cfg.GitSubcommands})
	if r == nil {
		return err
	}
	r = r.Shifted(offsets)
	r.Message += fmt.Sprintf(" (the %q at argument %d was not the reason: %s)", op.Arg, op.Index, literalHint)
	return r
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
