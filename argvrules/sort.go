package argvrules

import "github.com/seed-b63acb1b/mcp-shell-server/redirect"

// Policy and rule names of the sort family.
const (
	sortPolicy        = "sort external program or output"
	sortGrammarPolicy = "sort option grammar"
)

const (
	riskSortCompress = "runs a program (and runs it again with -d)"
	riskSortFiles0   = "reads the list of input files from another file"
)

// sortTable is the GNU coreutils 9.x sort option table (src/sort.c
// long_options and the short option string "-bcCdfghik:mMno:rRsS:t:T:uVy:z",
// checked against coreutils 9.1 "sort --help"), written from reading that
// source. The leading "-" of the short option string makes getopt return
// operands in order, so options after operands are still options; with
// POSIXLY_CORRECT set, sort stops at the first operand, which only ever
// parses a prefix of the same events. --compress-program and
// --files0-from are refused; -o/--output FILE and -T DIR are output paths
// (sortOutputs), contained like every family's.
var sortTable = newTable("GNU sort 9.x", false, []option{
	{Long: "ignore-leading-blanks", Short: 'b'},
	{Long: "check", Arg: optionalArg},
	{Short: 'c'},
	{Short: 'C'},
	{Long: "compress-program", Arg: requiredArg, Risk: riskSortCompress, Rule: ruleSortOption},
	{Long: "debug"},
	{Long: "dictionary-order", Short: 'd'},
	{Long: "ignore-case", Short: 'f'},
	{Long: "files0-from", Arg: requiredArg, Risk: riskSortFiles0, Rule: ruleSortOption},
	{Long: "general-numeric-sort", Short: 'g'},
	{Long: "ignore-nonprinting", Short: 'i'},
	{Long: "key", Short: 'k', Arg: requiredArg},
	{Long: "merge", Short: 'm'},
	{Long: "month-sort", Short: 'M'},
	{Long: "numeric-sort", Short: 'n'},
	{Long: "human-numeric-sort", Short: 'h'},
	{Long: "version-sort", Short: 'V'},
	{Long: "random-sort", Short: 'R'},
	{Long: "random-source", Arg: requiredArg},
	{Long: "sort", Arg: requiredArg},
	{Long: "output", Short: 'o', Arg: requiredArg},
	{Long: "reverse", Short: 'r'},
	{Long: "stable", Short: 's'},
	{Long: "batch-size", Arg: requiredArg},
	{Long: "buffer-size", Short: 'S', Arg: requiredArg},
	{Long: "field-separator", Short: 't', Arg: requiredArg},
	{Long: "temporary-directory", Short: 'T', Arg: requiredArg},
	{Long: "unique", Short: 'u'},
	{Long: "zero-terminated", Short: 'z'},
	{Long: "parallel", Arg: requiredArg},
	{Short: 'y', Arg: requiredArg}, // obsolete, ignored by sort
	{Long: "help"},
	{Long: "version"},
})

// sortOutputs are the paths sort writes: -o FILE (after sorting, so
// "sort -o data data" is the in-place idiom) and the temporary files of
// -T DIR (created with mkstemp).
var sortOutputs = map[string]redirect.Kind{"output": redirect.File, "temporary-directory": redirect.Dir}

// checkSort is the recognizer of the sort family (sort, gsort). It parses argv
// with the GNU sort 9.x getopt_long grammar and refuses
// --compress-program and --files0-from, and -o/--output and
// -T/--temporary-directory outside the working directory, in every spelling getopt accepts: unique
// abbreviations (--co, --o, --out=x), short clusters (-ro FILE, -rT DIR,
// -rofile) and positions after operands. Arguments after an unconsumed
// "--" are operands (sort -- --output=data). Unknown options, ambiguous
// abbreviations and missing values are refused too (allowlist grammar).
// The obsolete "+POS1 -POS2" key syntax is not modelled: "-2" is refused
// as an unknown option.
func checkSort(argv []string, ctx Context) *Rejection {
	if len(argv) == 0 {
		return nil
	}
	p := sortTable.Parse(argv, 1, permute)
	for i := range p.Events {
		ev := &p.Events[i]
		if ev.Kind != optionEvent {
			continue
		}
		if ev.Opt.Risky(ev.HasValue) {
			return optionRejection(ev, sortPolicy, "")
		}
		if kind := sortOutputs[ev.Opt.Long]; kind != 0 && ev.HasValue {
			if r := outputValue(ctx, "sort", ev, kind); r != nil {
				return r
			}
		}
	}
	if p.Err != nil {
		return grammarRejection("sort", sortPolicy, sortGrammarPolicy, p.Err, false)
	}
	return nil
}
