package argvrules

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// Policy names of the awk family.
const (
	awkPolicy        = "awk external access"
	awkGrammarPolicy = "awk option grammar"
)

const (
	riskAwkProgFile = "reads awk program text from a file the policy cannot inspect (of the include files, only gawk's own inplace is admitted)"
	riskAwkLoad     = "loads a shared-library extension"
	riskAwkDebug    = "starts the gawk debugger, which takes commands (including eval) from stdin or a file"
	riskAwkPersist  = "keeps the interpreter heap in a persistent file"
)

const gawkProgram = "gawk 5.x"

// gawkTable is the gawk 5.1–5.3 option table (main.c optab and the
// optstring "+F:f:v:W;bcCd::D::e:E:ghi:kIl:L::nNo::Op::MPrSstVYZ:"),
// written from reading those sources and checked against gawk 5.2.1
// "--help". The "+" means options stop at the first operand; "W;" makes
// "-W name" the long option --name. Refused: program files (-f, -E, -i,
// -l and their long names), the debugger (-D) and --persist. The
// file-writing -d/-o/-p write their value or, bare, awkvars.out and
// awkprof.out in the working directory (main.c optab, profile.c): every
// one is an output path (gawkOutputs), contained like "-o FILE" of any
// family, so a planted awkvars.out symlink is refused.
// -Y/-Z exist only in debugging builds and are unknown here.
var gawkTable = newTable(gawkProgram, true, []option{
	{Long: "assign", Short: 'v', Arg: requiredArg},
	{Long: "bignum", Short: 'M'},
	{Long: "characters-as-bytes", Short: 'b'},
	{Long: "copyright", Short: 'C'},
	{Long: "csv", Short: 'k'},
	{Long: "debug", Short: 'D', Arg: optionalArg, Risk: riskAwkDebug, Rule: ruleAwkDebugger},
	{Long: "dump-variables", Short: 'd', Arg: optionalArg},
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
	{Long: "pretty-print", Short: 'o', Arg: optionalArg},
	{Long: "profile", Short: 'p', Arg: optionalArg},
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

// gawkOutputs are gawk's file-writing options and the file each writes
// when given no value (gawk 5.2 main.c: DEFAULT_VARFILE "awkvars.out",
// DEFAULT_PROFILE "awkprof.out" for --profile and --pretty-print).
var gawkOutputs = map[string]string{
	"dump-variables": "awkvars.out",
	"profile":        "awkprof.out",
	"pretty-print":   "awkprof.out",
}

// awkReading is what one implementation's grammar makes of an argv: the
// argv indices holding program text, the dialect they are read in, and
// the first refusal or grammar error.
type awkReading struct {
	dialect  *awkDialect
	programs []int
	reject   *Rejection
	err      *Rejection
}

// checkAwk is the recognizer of the awk family (awk, gawk, mawk, nawk and
// BusyBox's awk applet). argv is read with the grammar of each
// implementation it may run (awkImpls: the resolved program decides, else
// argv[0]'s name, else all of gawk 5.x, mawk 1.3.4 and BusyBox awk); it is
// refused when any reading selects a program file, include, extension
// library, the debugger or --persist, writes an output file outside the
// working directory, names a gawk /inet network file, has a grammar
// error, or when any text a reading takes as the awk program fails
// checkAwkProgram in that reading's dialect (its keywords decide where a
// "/" starts a regex). -F values and plain operands are data.
func checkAwk(argv []string, ctx Context) *Rejection {
	if len(argv) == 0 {
		return nil
	}
	impls := awkImplsNamed(ctx.Dialect)
	if len(impls) == 0 {
		impls = awkImpls(argv[0], ctx.Program)
	}
	readings := make([]awkReading, 0, len(impls))
	for _, impl := range impls {
		note := ""
		if len(impls) > 1 {
			note = awkImplName[impl]
		}
		readings = append(readings, awkRead(impl, argv, ctx, note))
	}
	for _, r := range readings {
		if r.reject != nil {
			return r.reject
		}
	}
	type text struct {
		idx int
		d   *awkDialect
	}
	checked := map[text]bool{}
	syntax := map[int]*Rejection{} // per program text: a syntax refusal, or nil once a dialect tokenized it
	for _, r := range readings {
		for _, idx := range r.programs {
			if checked[text{idx, r.dialect}] {
				continue
			}
			checked[text{idx, r.dialect}] = true
			rej, syn := awkProgramVerdict(argv[idx], idx, r.dialect)
			if rej != nil {
				return rej
			}
			if prev, seen := syntax[idx]; !seen || prev != nil {
				syntax[idx] = syn
			}
		}
	}
	for _, r := range readings {
		for _, idx := range r.programs {
			if syntax[idx] != nil {
				return syntax[idx]
			}
		}
	}
	for _, r := range readings {
		if r.err != nil {
			return r.err
		}
	}
	return nil
}

// awkImplName names each implementation's grammar in messages.
var awkImplName = map[awkImpl]string{implGawk: gawkProgram, implMawk: mawkProgram, implBusybox: busyboxAwkProgram}

func awkRead(impl awkImpl, argv []string, ctx Context, note string) awkReading {
	switch impl {
	case implGawk:
		return gawkRead(argv, ctx, note)
	case implMawk:
		return mawkRead(argv, note)
	}
	return busyboxRead(argv, note)
}

// gawkRead applies the gawk grammar: getopt_long in require order; -e and
// --source values are program text; without -e/-f the first operand is;
// the operands after it are input files or var=value assignments, which
// gawk opens or processes for escapes (-v values too), so a /inet name
// there is refused. -c/--traditional and -P/--posix (or POSIXLY_CORRECT in
// the child environment) change the dialect the program is read in.
func gawkRead(argv []string, ctx Context, note string) awkReading {
	r := awkReading{dialect: awkGawk}
	p := gawkTable.Parse(argv, 1, requireOrder)
	haveSource, havePrograms := false, false
	traditional, posix := false, false
	if _, ok := ctx.getenv("POSIXLY_CORRECT"); ok {
		posix = true
	}
	var ip awkInplace
	var assigns []*event
	for i := range p.Events {
		ev := &p.Events[i]
		if ev.Kind == operandEvent {
			if !haveSource && !havePrograms {
				r.programs, havePrograms = append(r.programs, ev.Index), true
				continue
			}
			if rej := gawkOperand(ev); rej != nil {
				r.reject = rej
				return r
			}
			if name, _, ok := strings.Cut(ev.Word, "="); ok && awkAssignName.MatchString(name) {
				assigns = append(assigns, ev)
			} else {
				ip.files = append(ip.files, *ev)
			}
			continue
		}
		if ev.Opt.Long == "include" && ev.HasValue && isInplaceInclude(ev.Value) {
			ip.include = ev
			continue
		}
		if ev.Opt.Long == "assign" && ev.HasValue {
			assigns = append(assigns, ev)
		}
		if rej := gawkOption(ev, ctx, note); rej != nil {
			r.reject = rej
			return r
		}
		switch ev.Opt.Long {
		case "source":
			if ev.HasValue {
				haveSource = true
				r.programs = append(r.programs, ev.ValueIndex)
			}
		case "traditional":
			traditional = true
		case "posix":
			posix = true
		}
	}
	switch {
	case posix:
		r.dialect = awkGawkPosix
	case traditional:
		r.dialect = awkGawkTraditional
	}
	if ip.include != nil && p.Err == nil {
		for _, ev := range assigns {
			value := ev.Word
			if ev.Kind == optionEvent {
				value = ev.Value
			}
			if rej := ip.assignment(ev.Index, ev.Word, value); rej != nil {
				r.reject = rej
				return r
			}
		}
		if rej := ip.check(argv, r.programs, ctx); rej != nil {
			r.reject = rej
			return r
		}
	}
	return gawkFinish(r, p)
}

// gawkOption judges one gawk option: refused options, output files, and
// -v values that decode to a /inet name.
func gawkOption(ev *event, ctx Context, note string) *Rejection {
	if ev.Opt.Risky(ev.HasValue) {
		return optionRejection(ev, awkPolicy, note)
	}
	if def, ok := gawkOutputs[ev.Opt.Long]; ok {
		out := *ev
		if !ev.HasValue {
			out.Value = def
		}
		return outputValue(ctx, "awk", &out, redirect.File)
	}
	if ev.Opt.Long == "assign" && ev.HasValue {
		if _, v, ok := strings.Cut(ev.Value, "="); ok && gawkInet(v) {
			return ruleAwkNetwork.Reject(ev.Index, ev.Word, "argument %d %q assigns a value that gawk reads as a /inet network file name", ev.Index, ev.Word)
		}
	}
	return nil
}

// gawkOperand refuses an input-file operand or var=value assignment that
// names a gawk /inet network file (gawk main.c arg_assign, io.c
// nextfile → devopen): gawk connects when it opens it.
func gawkOperand(ev *event) *Rejection {
	w := ev.Word
	if name, v, ok := strings.Cut(w, "="); ok && isAwkName(name) {
		w = v
	}
	if gawkInet(w) || strings.HasPrefix(ev.Word, "/inet") {
		return ruleAwkNetwork.Reject(ev.Index, ev.Word, "argument %d %q is an input file or assignment that gawk opens as a /inet network connection", ev.Index, ev.Word)
	}
	return nil
}

// isAwkName reports whether s is an awk variable name.
func isAwkName(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlpha(c) && !isDigit(c) && c != '_' {
			return false
		}
	}
	return true
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

const busyboxAwkProgram = "BusyBox awk 1.35"

// busyboxAwkTable is BusyBox 1.35–1.37 awk's option string
// "+F:v:f:e:E:W:" (editors/awk.c OPTSTR_AWK with
// FEATURE_AWK_GNU_EXTENSIONS): plain getopt, no long options; -f and -E
// read a program file, -e is program text, -W is ignored.
var busyboxAwkTable = newTable(busyboxAwkProgram, false, []option{
	{Short: 'F', Arg: requiredArg},
	{Short: 'v', Arg: requiredArg},
	{Short: 'f', Arg: requiredArg, Risk: riskAwkProgFile, Rule: ruleAwkProgramFile},
	{Short: 'E', Arg: requiredArg, Risk: riskAwkProgFile, Rule: ruleAwkProgramFile},
	{Short: 'e', Arg: requiredArg},
	{Short: 'W', Arg: requiredArg},
})

// busyboxRead applies BusyBox awk's grammar: getopt in require order; -e
// values are program text, else the first operand is.
func busyboxRead(argv []string, note string) awkReading {
	r := awkReading{dialect: awkBusybox}
	p := busyboxAwkTable.Parse(argv, 1, requireOrder)
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
			r.reject = optionRejection(ev, awkPolicy, note)
			return r
		case ev.Opt.Short == 'e' && ev.HasValue:
			haveSource = true
			r.programs = append(r.programs, ev.ValueIndex)
		}
	}
	return gawkFinish(r, p)
}

// mawkRead applies the mawk 1.3.4 grammar (init.c process_cmdline): no
// clusters; "-x" takes the next word as its value and "-xVALUE" the rest;
// -W takes a comma-separated list of abbreviable names; long options are
// the -W names; the first word not starting with "-" (or the word after
// "--") is the program unless -f or -W exec gave one.
func mawkRead(argv []string, note string) awkReading {
	r := awkReading{dialect: awkMawk}
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
