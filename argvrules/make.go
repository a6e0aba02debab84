package argvrules

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/internal/fsview"
)

const riskMakeEval = "evaluates its value as makefile text, where $(shell ...) and recipes run commands"

// makeTable is the union of the GNU Make 4.3 and 4.4 option tables ("make
// --help" of both, plus the undocumented --jobserver-auth/--jobserver-fds
// and --sync-mutex rows make passes to sub-makes). Aliases share a Key
// (glibc getopt_long does not call a prefix of two aliases ambiguous).
var makeTable = newTable("GNU Make 4.3/4.4", false, []option{
	{Short: 'b'}, {Short: 'm'},
	{Long: "always-make", Short: 'B'},
	{Long: "directory", Short: 'C', Arg: requiredArg},
	{Short: 'd'},
	{Long: "debug", Arg: optionalArg},
	{Long: "environment-overrides", Short: 'e'},
	{Long: "eval", Short: 'E', Arg: requiredArg, Risk: riskMakeEval, Rule: ruleMakeEval},
	{Long: "file", Short: 'f', Arg: requiredArg},
	{Long: "makefile", Key: "f", Arg: requiredArg},
	{Long: "help", Short: 'h'},
	{Long: "ignore-errors", Short: 'i'},
	{Long: "include-dir", Short: 'I', Arg: requiredArg},
	{Long: "jobs", Short: 'j', Arg: optionalArg},
	{Long: "jobserver-auth", Arg: requiredArg},
	{Long: "jobserver-fds", Arg: requiredArg},
	{Long: "jobserver-style", Arg: requiredArg},
	{Long: "sync-mutex", Arg: requiredArg},
	{Long: "keep-going", Short: 'k'},
	{Long: "load-average", Short: 'l', Arg: optionalArg},
	{Long: "max-load", Key: "l", Arg: optionalArg},
	{Long: "check-symlink-times", Short: 'L'},
	{Long: "just-print", Short: 'n'},
	{Long: "dry-run", Key: "n"},
	{Long: "recon", Key: "n"},
	{Long: "old-file", Short: 'o', Arg: requiredArg},
	{Long: "assume-old", Key: "o", Arg: requiredArg},
	{Long: "output-sync", Short: 'O', Arg: optionalArg},
	{Long: "print-data-base", Short: 'p'},
	{Long: "question", Short: 'q'},
	{Long: "no-builtin-rules", Short: 'r'},
	{Long: "no-builtin-variables", Short: 'R'},
	{Long: "shuffle", Arg: optionalArg},
	{Long: "silent", Short: 's'},
	{Long: "quiet", Key: "s"},
	{Long: "no-silent"},
	{Long: "no-keep-going", Short: 'S'},
	{Long: "stop", Key: "S"},
	{Long: "touch", Short: 't'},
	{Long: "trace"},
	{Long: "version", Short: 'v'},
	{Long: "print-directory", Short: 'w'},
	{Long: "no-print-directory"},
	{Long: "what-if", Short: 'W', Arg: requiredArg},
	{Long: "new-file", Key: "W", Arg: requiredArg},
	{Long: "assume-new", Key: "W", Arg: requiredArg},
	{Long: "warn-undefined-variables"},
})

// makeProgram is make's grammar with the assignment rules of ctx.
func makeProgram(ctx Context) *getoptProgram {
	return &getoptProgram{
		family:  "make",
		policy:  "make command-line makefile text",
		grammar: "make option grammar",
		table:   makeTable,
		order:   permute,
		operand: makeOperand(ctx),
	}
}

// makeOperand judges command-line variable assignments. GNU make reads
// every operand that contains "=" as a definition (NAME=v, NAME:=v,
// NAME::=v, NAME:::=v, NAME+=v, NAME?=v, NAME!=shell-command), even after
// "--", and the value is pasted into recipes, which a shell runs. An
// inert assignment is allowed (make VERBOSE=1, make test TESTS=unit,
// CFLAGS="-O2 -g", PREFIX=/usr/local); refused are "!=" (runs a shell),
// names that are not plain identifiers or that steer make itself
// (makeSpecialVars), and values that could be code or a program:
// make's "$" expansion ($(shell ...)), shell metacharacters, a word that
// is a refused program (CC=sh), and any "/" unless the whole value is one
// existing directory (a path may name a program, a compiler plugin or a
// wrapper: CC=./x, CFLAGS=-fplugin=/tmp/x.so). An operand without "=" is
// a goal (target).
func makeOperand(ctx Context) func([]string, *event) *Rejection {
	return func(_ []string, ev *event) *Rejection {
		name, op, value, ok := makeAssignment(ev.Word)
		if !ok {
			return nil
		}
		why := makeAssignmentRisk(ctx, name, op, value)
		if why == "" {
			return nil
		}
		return ruleMakeVariableAssignment.Reject(ev.Index, ev.Word,
			"argument %d %q is a command-line variable assignment that %s", ev.Index, ev.Word, why)
	}
}

// makeAssignOps are GNU make 4.4's assignment operators, longest first.
var makeAssignOps = []string{":::=", "::=", ":=", "+=", "?=", "!=", "="}

// makeAssignment splits a "NAME op VALUE" operand (main.c
// handle_non_switch_argument → try_variable_definition).
func makeAssignment(w string) (name, op, value string, ok bool) {
	eq := strings.IndexByte(w, '=')
	if eq < 0 {
		return "", "", "", false
	}
	for _, o := range makeAssignOps {
		if start := eq + 1 - len(o); start >= 0 && w[start:eq+1] == o {
			return strings.TrimSpace(w[:start]), o, w[eq+1:], true
		}
	}
	return strings.TrimSpace(w[:eq]), "=", w[eq+1:], true
}

// makeSpecialVars are the variables that change how make itself runs or
// reads makefiles (GNU make manual 6.14 "Other Special Variables", 5.3.2
// "Choosing the Shell", 5.7.3 "Communicating Options to a Sub-make", 3.4
// MAKEFILES, 4.5.1 VPATH). Names starting with "." are special too.
var makeSpecialVars = words("SHELL MAKESHELL MAKEFLAGS MFLAGS GNUMAKEFLAGS MAKEFILES MAKE MAKE_COMMAND MAKEOVERRIDES MAKELEVEL MAKECMDGOALS MAKEFILE_LIST MAKE_RESTARTS MAKE_HOST CURDIR VPATH SUFFIXES")

// makeUnsafeValue matches make expansion and shell metacharacters.
const makeUnsafeValue = "$`\\\"';&|<>(){}[]*?~#!\n\r"

func makeAssignmentRisk(ctx Context, name, op, value string) string {
	switch {
	case op == "!=":
		return "runs its value with the shell (!=)"
	case !isMakeName(name):
		return "names a variable that is not a plain identifier, so it can be a special or computed name"
	case makeSpecialVars[name]:
		return "sets " + name + ", which changes how make runs recipes or reads makefiles"
	case strings.ContainsAny(value, makeUnsafeValue):
		return "has make expansion or shell metacharacters in its value, which recipes run as code"
	}
	for _, w := range strings.Fields(value) {
		if ctx.refused(w) {
			return fmt.Sprintf("names %q, a program refused by this policy, which a recipe would run", w)
		}
	}
	if strings.Contains(value, "/") && !makeValueIsDir(ctx, value) {
		return "has a path in its value that is not an existing directory, so it may name a program, plugin or wrapper that recipes run"
	}
	return ""
}

// isMakeName reports a plain identifier (letters, digits, underscore).
func isMakeName(s string) bool { return isAwkName(s) }

// makeValueIsDir reports whether value is one path naming an existing
// directory: absolute, or relative to the working directory.
func makeValueIsDir(ctx Context, value string) bool {
	if strings.ContainsAny(value, " \t") || strings.HasPrefix(value, "-") {
		return false
	}
	if !filepath.IsAbs(value) {
		if ctx.Dir == nil || !filepath.IsLocal(value) {
			return false
		}
		fi, err := ctx.Dir.Root().Stat(value)
		return err == nil && fi.IsDir()
	}
	// Outside the working directory only where the stage may read: the
	// verdict must not tell whether a path the sandbox hides exists.
	fi, err := ctx.view().Stat(filepath.Clean(value))
	return err == nil && fi.IsDir()
}

// checkMake is the recognizer of GNU make (make, gmake). Refused: -E/--eval in
// every getopt_long spelling (-sE..., --ev=..., after goals); command-line
// variable assignments that could be code or a program (makeOperand); a makefile
// (-f, --file, --makefile, any abbreviation or attached value) that is
// "-" or resolves under /dev, /proc or /sys (standard input, a device or
// a file descriptor: text the request supplies), or that is not a regular
// file, or whose resolution cannot be decided; and -C or -I directories
// that resolve there. Plain make, make GOAL, make -j4 GOAL, make -C DIR,
// make -f Makefile.other stay allowed: the recipes of the repository's
// makefiles, include files and MAKEFLAGS passed by an operator are
// delegated authority.
func checkMake(argv []string, ctx Context) *Rejection {
	if r := makeProgram(ctx).check(argv, ctx); r != nil {
		return r
	}
	return makeFiles(argv, ctx)
}

// makeFiles resolves the directories and makefiles argv names the way
// GNU make 4.3/4.4 uses them: every -C applies in argv order (relative
// ones to the previous directory) before any makefile is read, so a
// relative -f FILE is opened in the last -C directory; -I directories are
// searched for include files. Each is resolved physically (fsview.View.Walk)
// from ctx.Dir, looking only where the stage may read, so ".." after a symlink and symlinks to /dev/stdin or
// /proc/self/fd/0 count as the kernel would count them.
func makeFiles(argv []string, ctx Context) *Rejection {
	p := makeTable.Parse(argv, 1, permute)
	dir := ctx.dirPath()
	for i := range p.Events {
		ev := &p.Events[i]
		if ev.Kind != optionEvent || !ev.HasValue || ev.Opt.Short != 'C' {
			continue
		}
		if r := makePath(ctx, ev, dir, "directory"); r != nil {
			return r
		}
		if filepath.IsAbs(ev.Value) {
			dir = ev.Value
		} else if dir != "" {
			dir = dir + "/" + ev.Value
		}
	}
	for i := range p.Events {
		ev := &p.Events[i]
		if ev.Kind != optionEvent || !ev.HasValue {
			continue
		}
		var r *Rejection
		switch {
		case ev.Opt.Short == 'f' || ev.Opt.Key == "f":
			r = makePath(ctx, ev, dir, "makefile")
		case ev.Opt.Short == 'I':
			// Judged from both the starting and the final directory:
			// which one make searches a relative -I from is not relied on.
			if r = makePath(ctx, ev, ctx.dirPath(), "include directory"); r == nil {
				r = makePath(ctx, ev, dir, "include directory")
			}
		}
		if r != nil {
			return r
		}
	}
	return nil
}

// makePath judges one path value: what ("makefile", "directory",
// "include directory") says how make uses it, base is the directory a
// relative value is opened from ("" when unknown).
func makePath(ctx Context, ev *event, base, what string) *Rejection {
	v := ev.Value
	word := ev.Word
	if ev.ValueIndex != ev.Index {
		word += " " + v
	}
	rule := ruleMakeStdinMakefile
	if what != "makefile" {
		rule = ruleMakeDeviceDirectory
	}
	refuse := func(format string, args ...any) *Rejection {
		detail := fmt.Sprintf(format, args...)
		return rule.Reject(ev.Index, word,
			"argument %d %q names %q as the %s (%s), %s", ev.Index, word, v, what, ev.Opt.Display(), detail)
	}
	if what == "makefile" && v == "-" {
		return refuse("which reads the makefile from standard input, text the request supplies")
	}
	if !filepath.IsAbs(v) && base == "" {
		return refuse("a relative path, which cannot be resolved because the working directory is unknown")
	}
	res, err := ctx.view().Walk(base, v)
	resolved, exists, pseudo := res.Path, res.Exists, res.Pseudo
	switch {
	case errors.Is(err, fsview.ErrHidden):
		return refuse("which leads through %q, outside what the stage may read, so where it resolves is not looked at", resolved)
	case err != nil:
		return refuse("whose resolution cannot be decided (%v), so it may lead to standard input or a device", err)
	case pseudo && what == "makefile":
		return refuse("which resolves to %q under /dev, /proc or /sys: standard input, a device or a file descriptor, text the request can supply", resolved)
	case pseudo:
		return refuse("which resolves to %q under /dev, /proc or /sys, where a makefile or include name reaches standard input, a device or a file descriptor", resolved)
	case what == "makefile" && exists && !isRegular(ctx, resolved):
		return refuse("which resolves to %q, not a regular file (a FIFO, socket or device can carry text the request supplies)", resolved)
	}
	return nil
}

// isRegular reports whether p (already resolved) is a regular file or a
// directory, the only kinds make can read a makefile from without a
// writer on the other end (a directory fails with an error).
func isRegular(ctx Context, p string) bool {
	fi, err := ctx.view().Stat(p)
	return err == nil && (fi.Mode().IsRegular() || fi.IsDir())
}
