package git

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// argKind says whether an option takes a value, following the git 2.53
// parse-options flags: a required value (PARSE_OPT_NONE with an argh) may be
// attached (--name=v, -nv) or separate (--name v, -n v, even when v starts
// with "-"); an optional value (PARSE_OPT_OPTARG) is only ever attached.
type argKind uint8

const (
	argNone argKind = iota
	argRequired
	argOptional
)

// optSpec is one row of a subcommand's option table, written from the git
// 2.53 builtin/*.c option arrays (and checked against git 2.39's
// --git-completion-helper-all output).
//
// Tables only promise the two facts the recognizer relies on: which options
// consume a value, and which options are dangerous. An option missing from a
// table is treated as a value-less flag, which can only make the recognizer
// scan more arguments than git does (stricter), never fewer.
type optSpec struct {
	long  string       // long name without "--"; may itself begin with "no-"
	short byte         // short letter, 0 if none
	arg   argKind      // value kind
	noNeg bool         // PARSE_OPT_NONEG: no --no-<long> form
	rule  refusal.Rule // non-zero: selecting this option is refused with this rule
}

// optTable is a subcommand's parse-options configuration.
type optTable struct {
	opts []optSpec
	// number: the table has OPT_NUMBER_CALLBACK, so digits inside a short
	// cluster are a number option (grep -1, -10).
	number bool
	// stopAtNonOption: PARSE_OPT_STOP_AT_NON_OPTION (grep).
	stopAtNonOption bool
	// nodash lists single-character NODASH options ("(" and ")" in grep).
	nodash string
	// strictShort: an unknown short letter is refused instead of being read
	// as a flag, for tables whose dangerous letters could hide behind a
	// letter this table does not know (grep, rebase).
	strictShort bool
	// noAbbrev: the parser accepts exact long names only (diff.c and
	// revision.c, and parse-options with PARSE_OPT_KEEP_UNKNOWN_OPT as in
	// format-patch and difftool). A prefix of a dangerous name is still
	// refused, conservatively.
	noAbbrev bool
}

// optEvent is one option occurrence found by parseOptions.
type optEvent struct {
	spec     *optSpec
	unset    bool   // --no-<long> form
	value    string // the value, when hasValue
	hasValue bool
	index    int    // argv index of the option element
	vindex   int    // argv index of a separate value, or -1
	arg      string // the option element verbatim
	// ambiguous lists the candidates of an abbreviation git cannot resolve
	// uniquely; spec is nil then.
	ambiguous []*optSpec
	// unknown marks an option the table does not know (git would stop with
	// a usage error; the recognizer keeps scanning).
	unknown bool
}

// parseResult is what one parse-options pass over a subcommand's arguments
// yields.
type parseResult struct {
	events   []optEvent
	operands []int // argv indices of operands, in order
	// endIndex is the argv index where option parsing ended because of
	// "--", "--end-of-options" or stopAtNonOption; -1 when it ran to the end.
	endIndex int
}

// parseOptions walks args (whose first element is argv[base]) the way git
// 2.53 parse_options_step does: short clusters, attached and separate
// values, unique-prefix abbreviation of long names with exact matches
// winning, --no- negation, "--" and "--end-of-options" ending the options,
// and (unless stopAtNonOption) options recognised after operands.
func parseOptions(args []string, base int, t *optTable) parseResult {
	res := parseResult{endIndex: -1}
	for i := 0; i < len(args); i++ {
		a := args[i]
		idx := base + i
		if a == "" || a[0] != '-' || a == "-" {
			if len(a) == 1 && strings.IndexByte(t.nodash, a[0]) >= 0 {
				continue
			}
			if t.stopAtNonOption {
				res.endIndex = idx
				for j := i; j < len(args); j++ {
					res.operands = append(res.operands, base+j)
				}
				return res
			}
			res.operands = append(res.operands, idx)
			continue
		}
		if a == "--" || a == "--end-of-options" {
			res.endIndex = idx
			for j := i + 1; j < len(args); j++ {
				res.operands = append(res.operands, base+j)
			}
			return res
		}
		var consumed int
		var evs []optEvent
		if strings.HasPrefix(a, "--") {
			evs, consumed = parseLong(args, i, base, t)
		} else {
			evs, consumed = parseShort(args, i, base, t)
		}
		res.events = append(res.events, evs...)
		i += consumed
	}
	return res
}

// parseLong resolves one "--name[=value]" element; it returns the event and
// how many following elements were consumed as its value.
func parseLong(args []string, i, base int, t *optTable) ([]optEvent, int) {
	a := args[i]
	body := a[2:]
	name, val, hasEq := strings.Cut(body, "=")
	ev := optEvent{index: base + i, vindex: -1, arg: a}
	if name == "help" || name == "help-all" {
		// parse-options prints usage and exits; nothing after it runs.
		ev.unknown = true
		return []optEvent{ev}, 0
	}
	spec, unset, amb := resolveLong(name, t)
	switch {
	case len(amb) > 0:
		ev.ambiguous = amb
		return []optEvent{ev}, 0
	case spec == nil:
		ev.unknown = true
		return []optEvent{ev}, 0
	}
	ev.spec, ev.unset = spec, unset
	if unset || spec.arg == argNone {
		return []optEvent{ev}, 0
	}
	if hasEq {
		ev.value, ev.hasValue = val, true
		return []optEvent{ev}, 0
	}
	if spec.arg == argRequired && i+1 < len(args) {
		ev.value, ev.hasValue, ev.vindex = args[i+1], true, base+i+1
		return []optEvent{ev}, 1
	}
	return []optEvent{ev}, 0
}

// resolveLong implements parse_long_opt's matching: a leading "no-" asks
// for the negated form, an exact name wins at once, otherwise each option
// whose name starts with the typed text registers as an abbreviation, and a
// typed text that is itself a prefix of "no-" registers every negatable
// option's opposite form. More than one registration is ambiguous (git then
// stops with a usage error); the candidates are returned so the caller can
// refuse when one of them is dangerous.
func resolveLong(name string, t *optTable) (spec *optSpec, unset bool, ambiguous []*optSpec) {
	typed, neg, noNo := name, false, false
	if rest, ok := strings.CutPrefix(name, "no-"); ok {
		typed = rest
		if rest2, ok := strings.CutPrefix(rest, "no-"); ok {
			typed, noNo = rest2, true
		} else {
			neg = true
		}
	}
	var cands []*optSpec
	var candUnset []bool
	for k := range t.opts {
		s := &t.opts[k]
		if s.long == "" {
			continue
		}
		long, optNeg := s.long, false
		if rest, ok := strings.CutPrefix(long, "no-"); ok {
			long, optNeg = rest, true
		} else if noNo {
			continue
		}
		allowUnset := !s.noNeg
		if neg != optNeg && !allowUnset {
			continue
		}
		if long == typed {
			return s, neg != optNeg, nil
		}
		if strings.HasPrefix(long, typed) {
			cands = append(cands, s)
			candUnset = append(candUnset, neg != optNeg)
		}
		if allowUnset && strings.HasPrefix("no-", name) {
			cands = append(cands, s)
			candUnset = append(candUnset, !optNeg)
		}
	}
	if t.noAbbrev {
		for _, c := range cands {
			if c.rule.Code != "" {
				return nil, false, cands
			}
		}
		return nil, false, nil
	}
	switch len(cands) {
	case 0:
		return nil, false, nil
	case 1:
		return cands[0], candUnset[0], nil
	}
	return nil, false, cands
}

// parseShort reads one short-option cluster such as "-nOP" or "-C3": letters
// are flags until one takes a value, which then takes the rest of the
// cluster (or, when required and the rest is empty, the next element).
func parseShort(args []string, i, base int, t *optTable) ([]optEvent, int) {
	a := args[i]
	var evs []optEvent
	for p := 1; p < len(a); p++ {
		c := a[p]
		spec := findShort(c, t)
		if spec == nil {
			if t.number && c >= '0' && c <= '9' {
				for p+1 < len(a) && a[p+1] >= '0' && a[p+1] <= '9' {
					p++
				}
				continue
			}
			evs = append(evs, optEvent{index: base + i, vindex: -1, arg: a, unknown: true,
				value: string(c)})
			if t.strictShort {
				return evs, 0
			}
			continue
		}
		ev := optEvent{spec: spec, index: base + i, vindex: -1, arg: a}
		if spec.arg == argNone {
			evs = append(evs, ev)
			continue
		}
		if rest := a[p+1:]; rest != "" {
			ev.value, ev.hasValue = rest, true
			return append(evs, ev), 0
		}
		if spec.arg == argRequired && i+1 < len(args) {
			ev.value, ev.hasValue, ev.vindex = args[i+1], true, base+i+1
			return append(evs, ev), 1
		}
		return append(evs, ev), 0
	}
	return evs, 0
}

func findShort(c byte, t *optTable) *optSpec {
	for k := range t.opts {
		if t.opts[k].short == c {
			return &t.opts[k]
		}
	}
	return nil
}
