package argvrules

import (
	"path"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

const (
	riskSplitFilter = "runs a shell command for every output chunk"
	riskDiffProgram = "runs a program of its choosing instead of diff"
	riskSdiffOutput = "starts sdiff's interactive merge, whose 'e' commands (read from standard input) run an editor (ed by default, which has a '!' shell escape)"
)

// splitTable is the GNU coreutils 9.x split option table ("split --help",
// coreutils 9.1), with the obsolete -NUMBER form (split -1000 f) modelled
// as the digit letters split's short-option string contains.
var splitTable = newTable("GNU split 9.x", false, append([]option{
	{Long: "suffix-length", Short: 'a', Arg: requiredArg},
	{Long: "additional-suffix", Arg: requiredArg},
	{Long: "bytes", Short: 'b', Arg: requiredArg},
	{Long: "line-bytes", Short: 'C', Arg: requiredArg},
	{Short: 'd'},
	{Long: "numeric-suffixes", Arg: optionalArg},
	{Short: 'x'},
	{Long: "hex-suffixes", Arg: optionalArg},
	{Long: "elide-empty-files", Short: 'e'},
	{Long: "filter", Arg: requiredArg, Risk: riskSplitFilter, Rule: ruleSplitExecOption},
	{Long: "lines", Short: 'l', Arg: requiredArg},
	{Long: "number", Short: 'n', Arg: requiredArg},
	{Long: "separator", Short: 't', Arg: requiredArg},
	{Long: "unbuffered", Short: 'u'},
	{Long: "verbose"},
	{Long: "io-blksize", Arg: requiredArg}, // undocumented test option
	{Long: "help"},
	{Long: "version"},
}, digitOptions()...))

// digitOptions returns short rows for 0-9 (obsolete -NUMBER line counts).
func digitOptions() []option {
	out := make([]option, 0, 10)
	for c := byte('0'); c <= '9'; c++ {
		out = append(out, option{Short: c})
	}
	return out
}

var splitProgram = &getoptProgram{
	family: "split", policy: "split external program", grammar: "split option grammar",
	table: splitTable, order: permute,
}

// checkSplit is the recognizer of GNU split. It refuses --filter=COMMAND in
// every getopt_long spelling (--filter CMD, --fil=CMD, after operands).
// The output PREFIX operand is delegated (split writes PREFIXaa, PREFIXab
// ... where the operand says, like cp's destination), but the names split
// makes up are contained where they land (splitNames).
func checkSplit(argv []string, ctx Context) *Rejection {
	if r := splitProgram.check(argv, ctx); r != nil {
		return r
	}
	return splitNames(ctx, splitProgram.table.Parse(argv, 1, splitProgram.order))
}

// splitNames contains the chunk files split names itself (split.c
// next_file_name: PREFIX, default "x", plus a suffix of letters, digits or
// hex digits, plus --additional-suffix): every existing entry of the
// prefix's directory that starts with the prefix (a planted symlink
// there is followed by split's O_CREAT open), and a prefix that a suffix
// could complete into a configuration file by role (.gitconfi + g).
func splitNames(ctx Context, p parsed) *Rejection {
	var ops []*event
	for i := range p.Events {
		if p.Events[i].Kind == operandEvent {
			ops = append(ops, &p.Events[i])
		}
	}
	prefix, index, word := "x", 0, "split"
	if len(ops) >= 2 {
		prefix, index, word = ops[1].Word, ops[1].Index, ops[1].Word
	}
	extra := ""
	for i := range p.Events {
		if ev := &p.Events[i]; ev.Kind == optionEvent && ev.Opt.Long == "additional-suffix" && ev.HasValue {
			extra = ev.Value
		}
	}
	if redirect.Check(prefix) != nil {
		return nil // a PREFIX outside the working directory is delegated, like cp's destination
	}
	dir, base := path.Split(prefix)
	if dir == "" {
		dir = "."
	}
	if couldBecomeConfig(prefix, "abcdefghijklmnopqrstuvwxyz0123456789", extra) {
		return familyRule("split", kindOutputPath, "output path outside the working directory").Reject(index, word,
			"argument %d %q is a prefix split completes with a suffix, which can spell a configuration file by role (.gitconfig, .npmrc ...)", index, word)
	}
	return defaultOutputs(ctx, "split", index, word, dir, func(n string) bool { return strings.HasPrefix(n, base) })
}

// sdiffTable is the GNU diffutils 3.x sdiff option table ("sdiff --help",
// diffutils 3.8).
var sdiffTable = newTable("GNU sdiff 3.x", false, []option{
	{Long: "output", Short: 'o', Arg: requiredArg, Risk: riskSdiffOutput, Rule: ruleSdiffInteractive},
	{Long: "ignore-case", Short: 'i'},
	{Long: "ignore-tab-expansion", Short: 'E'},
	{Long: "ignore-trailing-space", Short: 'Z'},
	{Long: "ignore-space-change", Short: 'b'},
	{Long: "ignore-all-space", Short: 'W'},
	{Long: "ignore-blank-lines", Short: 'B'},
	{Long: "ignore-matching-lines", Short: 'I', Arg: requiredArg},
	{Long: "strip-trailing-cr"},
	{Long: "text", Short: 'a'},
	{Long: "width", Short: 'w', Arg: requiredArg},
	{Long: "left-column", Short: 'l'},
	{Long: "suppress-common-lines", Short: 's'},
	{Long: "expand-tabs", Short: 't'},
	{Long: "tabsize", Arg: requiredArg},
	{Long: "minimal", Short: 'd'},
	{Long: "speed-large-files", Short: 'H'},
	{Long: "diff-program", Arg: requiredArg, Risk: riskDiffProgram, Rule: ruleSdiffExecOption},
	{Long: "help"},
	{Long: "version", Short: 'v'},
})

var sdiffProgram = &getoptProgram{
	family: "sdiff", policy: "sdiff external program", grammar: "sdiff option grammar",
	table: sdiffTable, order: permute,
}

// checkSdiff is the recognizer of GNU sdiff. It refuses --diff-program=PROG
// and -o/--output FILE: -o is sdiff's interactive merge mode, which reads
// commands from standard input, and its 'e' commands start an editor
// (EDITOR, else ed) whose shell escape the same input can drive.
func checkSdiff(argv []string, ctx Context) *Rejection {
	return sdiffProgram.check(argv, ctx)
}

// diff3Table is the GNU diffutils 3.x diff3 option table ("diff3 --help",
// diffutils 3.8).
var diff3Table = newTable("GNU diff3 3.x", false, []option{
	{Long: "show-all", Short: 'A'},
	{Long: "ed", Short: 'e'},
	{Long: "show-overlap", Short: 'E'},
	{Long: "easy-only", Short: '3'},
	{Long: "overlap-only", Short: 'x'},
	{Short: 'X'},
	{Short: 'i'},
	{Long: "merge", Short: 'm'},
	{Long: "text", Short: 'a'},
	{Long: "strip-trailing-cr"},
	{Long: "initial-tab", Short: 'T'},
	{Long: "diff-program", Arg: requiredArg, Risk: riskDiffProgram, Rule: ruleDiff3ExecOption},
	{Long: "label", Short: 'L', Arg: requiredArg},
	{Long: "help"},
	{Long: "version", Short: 'v'},
})

var diff3Program = &getoptProgram{
	family: "diff3", policy: "diff3 external program", grammar: "diff3 option grammar",
	table: diff3Table, order: permute,
}

// checkDiff3 is the recognizer of GNU diff3: it refuses --diff-program=PROG in
// every getopt_long spelling. diff3 writes only to standard output.
func checkDiff3(argv []string, ctx Context) *Rejection {
	return diff3Program.check(argv, ctx)
}
