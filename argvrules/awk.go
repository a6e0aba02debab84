package argvrules

import "strings"

// Policy names of the awk family.
const (
	awkPolicy        = "awk external access"
	awkGrammarPolicy = "awk option grammar"
)

const (
	riskAwkProgFile  = "reads awk program text from a file the policy cannot inspect"
	riskAwkLoad      = "loads a shared-library extension"
	riskAwkDebug     = "starts the gawk debugger, which takes commands (including eval) from stdin or a file"
	riskAwkWriteFile = "writes the file named by its value"
	riskAwkPersist   = "keeps the interpreter heap in a persistent file"
)

const gawkProgram = "gawk 5.x"

// gawkTable is the gawk 5.1–5.3 option table (main.c optab and the
// optstring "+F:f:v:W;bcCd::D::e:E:ghi:kIl:L::nNo::Op::MPrSstVYZ:"),
// written from reading those sources and checked against gawk 5.2.1
// "--help". The "+" means options stop at the first operand; "W;" makes
// "-W name" the long option --name. Refused: program files (-f, -E, -i,
// -l and their long names), the debugger (-D), --persist, and the
// file-writing -d/-o/-p when they are given a file (bare forms write
// awkvars.out/awkprof.out in the working directory and are allowed).
// -Y/-Z exist only in debugging builds and are unknown here.
var gawkTable = newTable(gawkProgram, true, []option{
	{Long: "assign", Short: 'v', Arg: requiredArg},
	{Long: "bignum", Short: 'M'},
	{Long: "characters-as-bytes", Short: 'b'},
	{Long: "copyright", Short: 'C'},
	{Long: "csv", Short: 'k'},
	{Long: "debug", Short: 'D', Arg: optionalArg, Risk: riskAwkDebug, Rule: ruleAwkDebugger},
	{Long: "dump-variables", Short: 'd', Arg: optionalArg, Risk: riskAwkWriteFile, RiskIfValue: true, Rule: ruleAwkFileOutput},
	{Long: "exec", Short: 'E', Arg: requiredArg, Risk: riskAwkProgFile, Rule: ruleAwkProgramFile},
	{Long: "field-separator", Short: 'F', Arg: requiredArg},
	{Long: "file", Short: 'f', Arg: requiredArg, Risk: riskAwkProgFile, Rule: ruleAwkProgramFile},
	{Long: "gen-pot", Short: 'g'},
	{Long: "help", Short: 'h'},
	{Long: "include", Short: 'i', Arg: requiredArg, Risk: riskAwkProgFile, Rule: ruleAwkProgramFile},
	{Long: "lint", Short: 'L', Arg: optionalArg},
	{Long: "lint-old", Short: 't'},
	{Long: "load", Short: 'l', Arg: requiredArg, Risk: riskAwkLoad, Rule: ruleAwkProgramFile},
	{Long: "non-decimal-data", Short: 'n'},
	{Long: "no-optimize", Short: 's'},
	{Long: "nostalgia"},
	{Long: "optimize", Short: 'O'},
	{Long: "persist", Arg: optionalArg, Risk: riskAwkPersist, Rule: ruleAwkFileOutput},
	{Long: "posix", Short: 'P'},
	{Long: "pretty-print", Short: 'o', Arg: optionalArg, Risk: riskAwkWriteFile, RiskIfValue: true, Rule: ruleAwkFileOutput},
	{Long: "profile", Short: 'p', Arg: optionalArg, Risk: riskAwkWriteFile, RiskIfValue: true, Rule: ruleAwkFileOutput},
	{Long: "re-interval", Short: 'r'},
	{Long: "sandbox", Short: 'S'},
	{Long: "source", Short: 'e', Arg: requiredArg},
	{Long: "trace", Short: 'I'},
	{Long: "traditional", Short: 'c'},
	{Long: "use-lc-numeric", Short: 'N'},
	{Long: "version", Short: 'V'},
	{Short: 'W'}, // handled by Table.LongW
})

const mawkProgram = "mawk 1.3.4"

// mawkWOptions are mawk 1.3.4's -W option names (init.c w_options, both
// the 20200120 and 2026 snapshots), which mawk also accepts as long
// options: each may be abbreviated, case-insensitively. Only exec takes a
// program file; random and sprintf take a number.
var mawkWOptions = []string{
	"version", "binmode", "dump", "exec", "help", "interactive", "posix",
	"random", "re-interval", "sprintf", "traditional", "usage", "lint",
	"lint-old", "non-decimal-data", "posix_space",
}

// awkReading is what one dialect's grammar makes of an argv: the argv
// indices holding program text, and the first refusal or grammar error.
type awkReading struct {
	programs []int
	reject   *Rejection
	err      *Rejection
}

// checkAwk is the recognizer of the awk family (awk, gawk, mawk, nawk). argv is
// parsed with the gawk 5.x grammar (gawk), the mawk 1.3.4 grammar (mawk),
// or both (any other name); it is refused when any reading selects a
// program file, include, extension library, the debugger or a file-writing
// option, when any reading has a grammar error, or when any text a reading
// takes as the awk program fails checkAwkProgram. -v values, -F values and
// operands such as var=value and file names are data.
func checkAwk(argv []string, ctx Context) *Rejection {
	if len(argv) == 0 {
		return nil
	}
	var readings []awkReading
	switch baseName(argv) {
	case "gawk":
		readings = []awkReading{gawkRead(argv)}
	case "mawk":
		readings = []awkReading{mawkRead(argv)}
	default:
		readings = []awkReading{gawkRead(argv), mawkRead(argv)}
	}
	for _, r := range readings {
		if r.reject != nil {
			return r.reject
		}
	}
	checked := -1
	for _, r := range readings {
		for _, idx := range r.programs {
			if idx == checked {
				continue
			}
			if rej := checkAwkProgram(argv[idx], idx); rej != nil {
				return rej
			}
			checked = idx
		}
	}
	for _, r := range readings {
		if r.err != nil {
			return r.err
		}
	}
	return nil
}

// gawkRead applies the gawk grammar: getopt_long in require order; -e and
// --source values are program text; without -e/-f the first operand is.
func gawkRead(argv []string) awkReading {
	var r awkReading
	p := gawkTable.Parse(argv, 1, requireOrder)
	haveSource := false
	for i := range p.Events {
		ev := &p.Events[i]
		switch {
		case ev.Kind == operandEvent:
			if !haveSource {
				r.programs = append(r.programs, ev.Index)
			}
			return gawkFinish(r, p)
		case ev.Opt.Risky(ev.HasValue):
			r.reject = optionRejection(ev, awkPolicy, awkReadingNote(argv, gawkProgram))
			return r
		case ev.Opt.Long == "source" && ev.HasValue:
			haveSource = true
			r.programs = append(r.programs, ev.ValueIndex)
		}
	}
	return gawkFinish(r, p)
}

func gawkFinish(r awkReading, p parsed) awkReading {
	if p.Err != nil {
		r.err = grammarRejection("awk", awkPolicy, awkGrammarPolicy, p.Err, false)
		if p.Err.Kind == parseAmbiguous && anyRisky(p.Err.Candidates) {
			r.reject = r.err
		}
	}
	return r
}

// awkReadingNote names the dialect only when argv[0] does not pin it.
func awkReadingNote(argv []string, program string) string {
	switch baseName(argv) {
	case "gawk", "mawk":
		return ""
	}
	return program
}

// mawkRead applies the mawk 1.3.4 grammar (init.c process_cmdline): no
// clusters; "-x" takes the next word as its value and "-xVALUE" the rest;
// -W takes a comma-separated list of abbreviable names; long options are
// the -W names; the first word not starting with "-" (or the word after
// "--") is the program unless -f or -W exec gave one.
func mawkRead(argv []string) awkReading {
	var r awkReading
	note := awkReadingNote(argv, mawkProgram)
	i := 1
	for ; i < len(argv) && strings.HasPrefix(argv[i], "-"); i++ {
		w := argv[i]
		if w == "-" {
			r.err = ruleAwkUnknownOption.Reject(i, w, "argument %d %q: mawk reads no program from \"-\" without -f", i, w)
			return r
		}
		if w == "--" {
			i++
			break
		}
		if strings.HasPrefix(w, "--") {
			if rej, end := mawkWList(argv, i, i, w[2:], note); rej != nil {
				r.reject = rej
				return r
			} else if end < 0 {
				r.err = ruleAwkUnknownOption.Reject(i, w, "argument %d %q is not a known %s option (only known options are allowed)", i, w, mawkProgram)
				return r
			} else {
				i = end
			}
			continue
		}
		letter := w[1]
		value, vi := w[2:], i
		if value == "" {
			if i+1 >= len(argv) {
				r.err = ruleAwkMissingValue.Reject(i, w, "argument %d %q requires a value in %s", i, w, mawkProgram)
				return r
			}
			vi = i + 1
			value = argv[vi]
		}
		switch letter {
		case 'f':
			r.reject = ruleAwkProgramFile.Reject(i, w, "argument %d %q is -f, which %s%s", i, w, riskAwkProgFile, grammarNote(note))
			return r
		case 'W':
			rej, end := mawkWList(argv, i, vi, value, note)
			if rej != nil {
				r.reject = rej
				return r
			}
			if end < 0 {
				r.err = ruleAwkUnknownOption.Reject(i, w, "argument %d %q passes an unknown -W option to %s (only known options are allowed)", i, w, mawkProgram)
				return r
			}
			i = end
		case 'v', 'F', 'r':
			i = vi
		default:
			r.err = ruleAwkUnknownOption.Reject(i, w, "argument %d %q is not a known %s option (only known options are allowed)", i, w, mawkProgram)
			return r
		}
	}
	if i < len(argv) {
		r.programs = append(r.programs, i)
	}
	return r
}

// mawkWList checks a -W value (or long option text) at argv[at], given
// by the option word argv[idx]: a
// comma-separated list of name[=value] items, each name an abbreviation
// of a mawk -W option. It returns a refusal for exec, and the last argv
// index consumed (-1 when a name is unknown). A bare "exec" or a numeric
// option without "=" takes the next word.
func mawkWList(argv []string, idx, at int, list, note string) (*Rejection, int) {
	end := at
	for _, item := range strings.Split(list, ",") {
		if item == "" {
			continue
		}
		name, _, hasValue := strings.Cut(item, "=")
		full := mawkWLookup(name)
		switch full {
		case "":
			return nil, -1
		case "exec":
			return ruleAwkProgramFile.Reject(idx, argv[idx],
				"argument %d %q selects mawk's -W exec (as %q), which %s and ends option processing%s", idx, argv[idx], item, riskAwkProgFile, grammarNote(note)), end
		case "random", "sprintf":
			if !hasValue && end+1 < len(argv) {
				end++
			}
		}
	}
	return nil, end
}

// mawkWLookup resolves a possibly abbreviated -W name case-insensitively;
// "" when unknown. A name that abbreviates "exec" is "exec" even where
// mawk would report an ambiguity (it keeps going with its first match).
// An empty name matches mawk's first row, -W version, which exits.
func mawkWLookup(name string) string {
	if name == "" {
		return "version"
	}
	if len(name) <= len("exec") && strings.EqualFold("exec"[:len(name)], name) {
		return "exec"
	}
	for _, full := range mawkWOptions {
		if len(name) <= len(full) && strings.EqualFold(full[:len(name)], name) {
			return full
		}
	}
	return ""
}
