package argvrules

import (
	"path/filepath"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// Wrapping is what a wrapper program's grammar reads of its argv: where
// the program it runs starts, and what the wrapper itself does to that
// program's words and environment. The policy judges argv[Program:] as a
// stage of its own (package policy, wrap.go).
type Wrapping struct {
	// Program is the index of the wrapped program's name in argv; -1 when
	// the wrapper runs no program (nice alone prints the niceness, env
	// alone the environment, flock FD locks a descriptor).
	Program int
	// Default is the program the wrapper runs when argv names none (GNU
	// xargs runs echo); "" when it runs none.
	Default string
	// Appends says the wrapper adds words the policy cannot see to the
	// wrapped argv: xargs appends words read from standard input, and with
	// -I puts them in place of Replace.
	Appends bool
	// Replace is xargs -I's replace string ("" when none).
	Replace string
	// Env is what the wrapper does to the environment before it runs the
	// program (env -i, -u NAME, NAME=VALUE).
	Env EnvChange
	// Preload says the wrapper makes the program load the wrapper's own
	// library (stdbuf: LD_PRELOAD of libstdbuf.so).
	Preload bool
}

// EnvChange is env's treatment of the environment, in env's order:
// clear it (-i, "-"), remove names (-u), then set entries (NAME=VALUE).
type EnvChange struct {
	Clear bool
	Unset []string
	Set   []string
}

// Apply returns env changed as the env program changes it.
func (e EnvChange) Apply(env []string) []string {
	var out []string
	if !e.Clear {
		for _, kv := range env {
			name, _, _ := strings.Cut(kv, "=")
			if !containsName(e.Unset, name) {
				out = append(out, kv)
			}
		}
	}
	return childenv.Overlay(out, e.Set)
}

func containsName(names []string, n string) bool {
	for _, m := range names {
		if m == n {
			return true
		}
	}
	return false
}

// Policy texts of the wrapper families.
const (
	wrapPolicy        = "command wrapper"
	wrapGrammarPolicy = "command wrapper option grammar"
)

// wrapper is one wrapper family's grammar: an option table read with
// getopt_long's "+" ordering (options end at the first operand: every
// wrapper's optstring starts with "+"), the operands the wrapper takes
// before the program's name, and the options whose values name files.
type wrapper struct {
	family string
	table  *table
	// lead is the number of the wrapper's own operands before the program
	// (timeout DURATION, flock FILE).
	lead int
	// outputs are options naming a file the wrapper writes (time -o).
	outputs map[string]redirect.Kind
	// option, when set, judges one option event beyond Risk and outputs,
	// and records what it does in w.
	option func(ctx Context, ev *event, w *Wrapping) *Rejection
	// operands, when set, reads the operands from the first one (at
	// index first) instead of lead: env's NAME=VALUE words, flock's -c;
	// judge false reads them without judging them.
	operands func(ctx Context, argv []string, first int, w *Wrapping, judge bool) *Rejection
	// prepare, when set, rewrites argv before parsing (nice's obsolete
	// -N adjustment), keeping every index.
	prepare func(argv []string) []string
	// appends, preload and fallback are Wrapping's Appends, Preload and
	// Default.
	appends  bool
	preload  bool
	fallback string
}

// wrappers are the wrapper families' grammars, by family name.
var wrappers = map[string]*wrapper{
	"timeout": {family: "timeout", table: timeoutTable, lead: 1},
	"nice":    {family: "nice", table: niceTable, prepare: niceObsolete},
	"ionice":  {family: "ionice", table: ioniceTable},
	"nohup":   {family: "nohup", table: nohupTable},
	"stdbuf":  {family: "stdbuf", table: stdbufTable, preload: true},
	"time":    {family: "time", table: timeTable, outputs: map[string]redirect.Kind{"output": redirect.File}},
	"env":     {family: "env", table: envTable, option: envOption, operands: envOperands},
	"flock":   {family: "flock", table: flockTable, operands: flockOperands},
	"xargs":   {family: "xargs", table: xargsTable, option: xargsOption, appends: true, fallback: "echo"},
}

// read parses argv as the wrapper does and returns what it wraps, or the
// refusal of an option or operand the wrapper must not get; judge false
// only finds the program (the audit log's reading of a refused call).
func (wr *wrapper) read(argv []string, ctx Context, judge bool) (Wrapping, *Rejection) {
	w := Wrapping{Program: -1, Appends: wr.appends, Preload: wr.preload}
	if r := wrapDialect(wr.family, ctx); r != nil && judge {
		return w, r
	}
	words := argv
	if wr.prepare != nil {
		words = wr.prepare(argv)
	}
	p := wr.table.Parse(words, 1, requireOrder)
	first := -1
	for i := range p.Events {
		ev := &p.Events[i]
		if ev.Kind == operandEvent {
			first = ev.Index
			break
		}
		if !judge {
			continue
		}
		if ev.Opt.Risky(ev.HasValue) {
			return w, optionRejection(ev, wrapPolicy, "")
		}
		if kind := wr.outputs[optKey(ev.Opt)]; kind != 0 && ev.HasValue {
			if r := outputValue(ctx, wr.family, ev, kind); r != nil {
				return w, r
			}
		}
		if wr.option != nil {
			if r := wr.option(ctx, ev, &w); r != nil {
				return w, r
			}
		}
	}
	if p.Err != nil {
		return w, grammarRejection(wr.family, wrapPolicy, wrapGrammarPolicy, p.Err, false)
	}
	if first < 0 {
		first = len(argv)
		if p.End >= 0 {
			first = p.End + 1
		}
	}
	switch {
	case wr.operands != nil:
		if r := wr.operands(ctx, argv, first, &w, judge); r != nil {
			return w, r
		}
	case first+wr.lead < len(argv):
		w.Program = first + wr.lead
	}
	if w.Program < 0 && wr.fallback != "" {
		w.Default = wr.fallback
	}
	return w, nil
}

// check is the wrapper family's recognizer: its own options and operands.
// The program it wraps is judged by the policy as a stage of its own.
// Under Context.MoreOperands (an xargs around it), a wrapper that names
// no program would take its program from the appended words.
func (wr *wrapper) check(argv []string, ctx Context) *Rejection {
	w, r := wr.read(argv, ctx, true)
	if r != nil {
		return r
	}
	if ctx.MoreOperands && w.Program < 0 && w.Default == "" {
		return familyRule(wr.family, kindAppendedWords, wrapPolicy).Reject(-1, "",
			"%s names no program, so the words xargs appends from standard input would name the program %s runs (and its options): name it", argv[0], argv[0])
	}
	return nil
}

// wrapDialect refuses a wrapper behind a multi-call binary (BusyBox,
// toybox): their applets' grammars are not the GNU ones these tables
// follow.
func wrapDialect(family string, ctx Context) *Rejection {
	for _, n := range ctx.Program.names() {
		if multiCall[n] && n != "rustup" {
			return familyRule(family, kindWrapDialect, wrapPolicy).Reject(0, "",
				"%s resolves to the %s applet, whose option grammar this policy does not model (it reads %s with the GNU grammar only)", family, n, family)
		}
	}
	return nil
}

// Wrap reads argv with the grammar of the wrapper family f: ok is false
// when f is not a wrapper. The rejection refuses the wrapper's own words.
func Wrap(f *Family, argv []string, ctx Context) (w Wrapping, ok bool, r *Rejection) {
	if f == nil || wrappers[f.Name] == nil {
		return Wrapping{Program: -1}, false, nil
	}
	w, r = wrappers[f.Name].read(argv, ctx, true)
	return w, true, r
}

// WrappedAt is where the wrapped program's name is in argv when argv[0]
// is a wrapper, read with its grammar without judging it (the audit log's
// redaction reads refused calls too): -1 when argv[0] is no wrapper or
// names no program.
func WrappedAt(argv []string) int {
	if len(argv) == 0 {
		return -1
	}
	f := FamilyOf(filepath.Base(argv[0]))
	if f == nil || wrappers[f.Name] == nil {
		return -1
	}
	w, _ := wrappers[f.Name].read(argv, Context{}, false)
	return w.Program
}

// IsWrapper reports whether f is a wrapper family.
func (f *Family) IsWrapper() bool { return f != nil && wrappers[f.Name] != nil }

// timeoutTable is GNU coreutils 9.1 timeout (src/timeout.c long_options
// and optstring "+k:s:v"; timeout(1)): timeout [OPTION] DURATION COMMAND.
var timeoutTable = newTable("GNU timeout 9.x", false, []option{
	{Long: "kill-after", Short: 'k', Arg: requiredArg},
	{Long: "signal", Short: 's', Arg: requiredArg},
	{Long: "verbose", Short: 'v'},
	{Long: "foreground"},
	{Long: "preserve-status"},
	{Long: "help"},
	{Long: "version"},
})

// niceTable is GNU coreutils 9.1 nice (src/nice.c longopts, optstring
// "+n:"; nice(1)). A negative adjustment needs CAP_SYS_NICE, which no
// stage has: nice then warns and runs the program unchanged.
var niceTable = newTable("GNU nice 9.x", false, []option{
	{Long: "adjustment", Short: 'n', Arg: requiredArg},
	{Long: "help"},
	{Long: "version"},
})

// niceObsolete rewrites nice's obsolete adjustment words ("-5", "--5",
// "-+5": src/nice.c main reads a word whose character after "-" and an
// optional sign is a digit as the adjustment, before getopt sees it) to
// the "-nN" form, before the first operand.
func niceObsolete(argv []string) []string {
	out := append([]string(nil), argv...)
	for i := 1; i < len(out); i++ {
		s := out[i]
		if s == "--" || len(s) < 2 || s[0] != '-' {
			return out
		}
		j := 1
		if s[1] == '-' || s[1] == '+' {
			j = 2
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			out[i] = "-n" + s[1:]
		} else if s == "-n" || (strings.HasPrefix("--adjustment", s) && len(s) > 2) {
			i++ // the value, whatever it looks like
		}
	}
	return out
}

// ioniceTable is util-linux 2.38 ionice (schedutils/ionice.c longopts,
// optstring "+n:c:p:P:u:tVh"). -p, -P and -u change other running
// processes instead of running a program.
var ioniceTable = newTable("util-linux ionice 2.38", false, []option{
	{Long: "classdata", Short: 'n', Arg: requiredArg},
	{Long: "class", Short: 'c', Arg: requiredArg},
	{Long: "pid", Short: 'p', Arg: requiredArg, Risk: riskOtherProcess, Rule: ruleIoniceOtherProcess},
	{Long: "pgid", Short: 'P', Arg: requiredArg, Risk: riskOtherProcess, Rule: ruleIoniceOtherProcess},
	{Long: "uid", Short: 'u', Arg: requiredArg, Risk: riskOtherProcess, Rule: ruleIoniceOtherProcess},
	{Long: "ignore", Short: 't'},
	{Long: "version", Short: 'V'},
	{Long: "help", Short: 'h'},
})

const riskOtherProcess = "changes the I/O priority of processes the call did not start"

// nohupTable is GNU coreutils 9.1 nohup (src/nohup.c:
// parse_gnu_standard_options_only, "+" ordering): --help and --version
// only. nohup writes nohup.out only when standard output is a terminal,
// which a stage's never is (it is a pipe or the ">" file).
var nohupTable = newTable("GNU nohup 9.x", false, []option{
	{Long: "help"},
	{Long: "version"},
})

// stdbufTable is GNU coreutils 9.1 stdbuf (src/stdbuf.c longopts,
// optstring "+i:o:e:"). stdbuf sets _STDBUF_I/O/E and prepends its own
// libstdbuf.so (found beside the stdbuf binary, else in PKGLIBEXECDIR:
// set_LD_PRELOAD) to LD_PRELOAD, which per-call variables may never set.
var stdbufTable = newTable("GNU stdbuf 9.x", false, []option{
	{Long: "input", Short: 'i', Arg: requiredArg},
	{Long: "output", Short: 'o', Arg: requiredArg},
	{Long: "error", Short: 'e', Arg: requiredArg},
	{Long: "help"},
	{Long: "version"},
})

// timeTable is GNU time 1.9 (src/time.c longopts, optstring "+af:o:pqvV"
// and --help): -o FILE writes the report there (an output path, contained
// like every family's; -a appends to it).
var timeTable = newTable("GNU time 1.9", false, []option{
	{Long: "append", Short: 'a'},
	{Long: "format", Short: 'f', Arg: requiredArg},
	{Long: "output", Short: 'o', Arg: requiredArg},
	{Long: "portability", Short: 'p'},
	{Long: "quiet", Short: 'q'},
	{Long: "verbose", Short: 'v'},
	{Long: "version", Short: 'V'},
	{Long: "help", Short: 'h'},
})

// envTable is GNU coreutils 9.1 env (src/env.c longopts, optstring
// "+C:iS:u:v0 \t"): the policy admits env [-i] [-u NAME] [NAME=VALUE...]
// PROGRAM; -C runs the program in another directory, -S splits one word
// into a command line the way a #! line would, and the signal options
// change how the program handles signals: refused.
var envTable = newTable("GNU env 9.x", false, []option{
	{Long: "ignore-environment", Short: 'i'},
	{Long: "null", Short: '0'},
	{Long: "unset", Short: 'u', Arg: requiredArg},
	{Long: "chdir", Short: 'C', Arg: requiredArg, Risk: "runs the program in a directory the policy did not open", Rule: ruleEnvForm},
	{Long: "split-string", Short: 'S', Arg: requiredArg, Risk: "splits one word into a command line the policy would not see as one", Rule: ruleEnvForm},
	{Long: "block-signal", Arg: optionalArg, Risk: riskEnvSignal, Rule: ruleEnvForm},
	{Long: "default-signal", Arg: optionalArg, Risk: riskEnvSignal, Rule: ruleEnvForm},
	{Long: "ignore-signal", Arg: optionalArg, Risk: riskEnvSignal, Rule: ruleEnvForm},
	{Long: "list-signal-handling"},
	{Long: "debug", Short: 'v'},
	{Long: "help"},
	{Long: "version"},
})

const riskEnvSignal = "changes how the program handles signals (only env [-i] [-u NAME] [NAME=VALUE...] PROGRAM is admitted)"

// envName is a variable name env may set or unset.
var envName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// envOption records env's -i and -u (called for every option event).
func envOption(_ Context, ev *event, w *Wrapping) *Rejection {
	switch optKey(ev.Opt) {
	case "ignore-environment":
		w.Env.Clear = true
	case "unset":
		if !envName.MatchString(ev.Value) {
			return ruleEnvForm.Reject(ev.Index, ev.Word, "argument %d %q: env -u takes a variable name", ev.Index, ev.Word)
		}
		w.Env.Unset = append(w.Env.Unset, ev.Value)
	}
	return nil
}

// envOperands reads env's operands (src/env.c main): a first "-" is -i,
// then every word holding "=" is an assignment, and the first other word
// is the program. An assignment's name must not steer programs
// (childenv.Steering: the per-call variables' rule).
func envOperands(_ Context, argv []string, first int, w *Wrapping, judge bool) *Rejection {
	i := first
	if i < len(argv) && argv[i] == "-" {
		w.Env.Clear = true
		i++
	}
	for ; i < len(argv) && strings.Contains(argv[i], "="); i++ {
		name, _, _ := strings.Cut(argv[i], "=")
		switch {
		case !judge:
		case !envName.MatchString(name):
			return ruleEnvForm.Reject(i, argv[i], "argument %d %q: %q is not a variable name env may set", i, argv[i], name)
		case childenv.Steering(name):
			why, _ := childenv.SteeringReason(name)
			return ruleEnvSteering.Reject(i, argv[i], "argument %d %q sets %s, which %s; no call may set it", i, argv[i], name, why)
		}
		w.Env.Set = append(w.Env.Set, argv[i])
	}
	if i < len(argv) {
		w.Program = i
	}
	return nil
}

// flockTable is util-linux 2.38 flock (sys-utils/flock.c long_options,
// optstring "+sexnoFuw:E:hVc:"). -c runs its value through the shell.
var flockTable = newTable("util-linux flock 2.38", false, []option{
	{Long: "shared", Short: 's'},
	{Long: "exclusive", Short: 'x', Key: "exclusive"},
	{Short: 'e', Key: "exclusive"},
	{Long: "nonblock", Short: 'n', Key: "nonblock"},
	{Long: "nb", Key: "nonblock"},
	{Long: "close", Short: 'o'},
	{Long: "no-fork", Short: 'F'},
	{Long: "unlock", Short: 'u'},
	{Long: "timeout", Short: 'w', Arg: requiredArg, Key: "timeout"},
	{Long: "wait", Arg: requiredArg, Key: "timeout"},
	{Long: "conflict-exit-code", Short: 'E', Arg: requiredArg},
	{Long: "verbose"},
	{Long: "help", Short: 'h'},
	{Long: "version", Short: 'V'},
	{Long: "command", Short: 'c', Arg: requiredArg, Risk: riskFlockShell, Rule: ruleFlockShell},
})

const riskFlockShell = "runs its value through the shell (sh -c)"

// flockOperands reads flock's operands (flock.c main): FILE then the
// program, where a "-c"/"--command" word after FILE runs the next word
// through sh -c; a single operand is a file descriptor number. flock
// opens FILE with O_CREAT (a file it may create, contained like an
// output path; a directory is opened read-only).
func flockOperands(ctx Context, argv []string, first int, w *Wrapping, judge bool) *Rejection {
	if first >= len(argv) {
		return nil
	}
	if !judge {
		if first+1 < len(argv) && argv[first+1] != "-c" && argv[first+1] != "--command" {
			w.Program = first + 1
		}
		return nil
	}
	if first+1 >= len(argv) {
		if strings.Trim(argv[first], "0123456789") != "" {
			return familyRule("flock", kindMissingValue, wrapGrammarPolicy).Reject(first, argv[first],
				"argument %d %q: flock FILE needs a program to run (a lone operand is a file descriptor number)", first, argv[first])
		}
		return nil
	}
	if next := argv[first+1]; next == "-c" || next == "--command" {
		return ruleFlockShell.Reject(first+1, next, "argument %d %q %s", first+1, next, riskFlockShell)
	}
	kind := redirect.File
	if fi, _, err := statInside(ctx, argv[first]); err == nil && fi != nil && fi.IsDir() {
		kind = redirect.Dir
	}
	if r := outputPath(ctx, "flock", first, argv[first], argv[first], kind); r != nil {
		return r
	}
	w.Program = first + 1
	return nil
}

// xargsTable is GNU findutils 4.9 xargs (xargs/xargs.c longopts and
// optstring "+0a:E:e::i::I:l::L:n:oprs:txP:d:"; xargs(1)). -p and -o need
// the terminal, which a call does not have; --process-slot-var names a
// variable set in each child; -a names the file of input words (data).
var xargsTable = newTable("GNU xargs 4.9", false, []option{
	{Long: "null", Short: '0'},
	{Long: "arg-file", Short: 'a', Arg: requiredArg},
	{Long: "delimiter", Short: 'd', Arg: requiredArg},
	{Short: 'E', Arg: requiredArg},
	{Long: "eof", Short: 'e', Arg: optionalArg},
	{Short: 'I', Arg: requiredArg},
	{Long: "replace", Short: 'i', Arg: optionalArg},
	{Short: 'L', Arg: requiredArg},
	{Long: "max-lines", Short: 'l', Arg: optionalArg},
	{Long: "max-args", Short: 'n', Arg: requiredArg},
	{Long: "open-tty", Short: 'o', Risk: riskXargsTerminal, Rule: ruleXargsTerminal},
	{Long: "interactive", Short: 'p', Risk: riskXargsTerminal, Rule: ruleXargsTerminal},
	{Long: "no-run-if-empty", Short: 'r'},
	{Long: "max-chars", Short: 's', Arg: requiredArg},
	{Long: "verbose", Short: 't'},
	{Long: "show-limits"},
	{Long: "exit", Short: 'x'},
	{Long: "max-procs", Short: 'P', Arg: requiredArg},
	{Long: "process-slot-var", Arg: requiredArg},
	{Long: "help"},
	{Long: "version"},
})

const riskXargsTerminal = "reads from the terminal, which a call does not have"

// xargsOption records -I/-i and judges -a and --process-slot-var.
func xargsOption(ctx Context, ev *event, w *Wrapping) *Rejection {
	switch optKey(ev.Opt) {
	case "I":
		w.Replace = ev.Value
	case "replace":
		w.Replace = "{}" // xargs.c: -i without a value means -I {}
		if ev.HasValue && ev.Value != "" {
			w.Replace = ev.Value
		}
	case "arg-file":
		return xargsArgFile(ctx, ev)
	case "process-slot-var":
		if !envName.MatchString(ev.Value) {
			return ruleXargsSlotVar.Reject(ev.Index, ev.Word, "argument %d %q: --process-slot-var takes a variable name", ev.Index, ev.Word)
		}
		if why, steers := childenv.SteeringReason(ev.Value); steers {
			return ruleXargsSlotVar.Reject(ev.Index, ev.Word,
				"argument %d %q sets %s in every program xargs runs, and %s; no call may set it", ev.Index, ev.Word, ev.Value, why)
		}
	}
	return nil
}

// xargsArgFile judges xargs -a FILE: the file is read as data (the words
// to append), so any file the stage can read is as admissible as cat
// FILE. Inside the working directory a FIFO or device is refused (it
// could block or never end); outside it only the device tree is refused,
// by name: whether such a file exists is not the policy's to reveal
// (statInside), and the kernel sandbox decides whether it can be read.
func xargsArgFile(ctx Context, ev *event) *Rejection {
	name := ev.Value
	if isStdinName(name) || name == "/dev/null" {
		return nil
	}
	if fi, inside, err := statInside(ctx, name); inside {
		if err != nil {
			return ruleXargsArgFile.Reject(ev.Index, ev.Word, "argument %d %q: xargs cannot read %q: %v", ev.Index, ev.Word, ev.Value, err)
		}
		if !fi.Mode().IsRegular() {
			return ruleXargsArgFile.Reject(ev.Index, ev.Word, "argument %d %q: %q is not a regular file (a FIFO or device could block or never end)", ev.Index, ev.Word, ev.Value)
		}
		return nil
	}
	if clean := filepath.Clean(name); strings.HasPrefix(clean, "/dev/") {
		return ruleXargsArgFile.Reject(ev.Index, ev.Word, "argument %d %q: %q is a device (it could block or never end)", ev.Index, ev.Word, ev.Value)
	}
	return nil
}

// appendedRejection refuses a program of family f under an xargs: the
// words xargs adds come from standard input, which the policy cannot see,
// and GNU xargs passes them as argv words, so a word may be an option
// (echo -delete | xargs find . runs find . -delete).
func appendedRejection(f *Family, argv []string) *Rejection {
	name := "the program"
	if len(argv) > 0 {
		name = argv[0]
	}
	return familyRule(f.Name, kindAppendedWords, wrapPolicy).Reject(0, name,
		"xargs adds words read from standard input to %s's argv, which the policy cannot see, and a word may be an option: %s's options can run programs, load code or write files (the %s family's grammar), so %s is refused under xargs; run %s with its operands named instead",
		name, name, f.Name, name, name)
}
