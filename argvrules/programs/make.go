package programs

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
)

const riskMakeEval = "evaluates its value as makefile text, where $(shell ...) and recipes run commands"

// makeTable is the union of the GNU Make 4.3 and 4.4 option tables ("make
// --help" of both, plus the undocumented --jobserver-auth/--jobserver-fds
// and --sync-mutex rows make passes to sub-makes). Aliases share a Key
// (glibc getopt_long does not call a prefix of two aliases ambiguous).
var makeTable = argvrules.NewTable("GNU Make 4.3/4.4", false, []argvrules.Option{
	{Short: 'b'}, {Short: 'm'},
	{Long: "always-make", Short: 'B'},
	{Long: "directory", Short: 'C', Arg: argvrules.RequiredArg},
	{Short: 'd'},
	{Long: "debug", Arg: argvrules.OptionalArg},
	{Long: "environment-overrides", Short: 'e'},
	{Long: "eval", Short: 'E', Arg: argvrules.RequiredArg, Risk: riskMakeEval, Rule: "make.eval"},
	{Long: "file", Short: 'f', Arg: argvrules.RequiredArg},
	{Long: "makefile", Key: "f", Arg: argvrules.RequiredArg},
	{Long: "help", Short: 'h'},
	{Long: "ignore-errors", Short: 'i'},
	{Long: "include-dir", Short: 'I', Arg: argvrules.RequiredArg},
	{Long: "jobs", Short: 'j', Arg: argvrules.OptionalArg},
	{Long: "jobserver-auth", Arg: argvrules.RequiredArg},
	{Long: "jobserver-fds", Arg: argvrules.RequiredArg},
	{Long: "jobserver-style", Arg: argvrules.RequiredArg},
	{Long: "sync-mutex", Arg: argvrules.RequiredArg},
	{Long: "keep-going", Short: 'k'},
	{Long: "load-average", Short: 'l', Arg: argvrules.OptionalArg},
	{Long: "max-load", Key: "l", Arg: argvrules.OptionalArg},
	{Long: "check-symlink-times", Short: 'L'},
	{Long: "just-print", Short: 'n'},
	{Long: "dry-run", Key: "n"},
	{Long: "recon", Key: "n"},
	{Long: "old-file", Short: 'o', Arg: argvrules.RequiredArg},
	{Long: "assume-old", Key: "o", Arg: argvrules.RequiredArg},
	{Long: "output-sync", Short: 'O', Arg: argvrules.OptionalArg},
	{Long: "print-data-base", Short: 'p'},
	{Long: "question", Short: 'q'},
	{Long: "no-builtin-rules", Short: 'r'},
	{Long: "no-builtin-variables", Short: 'R'},
	{Long: "shuffle", Arg: argvrules.OptionalArg},
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
	{Long: "what-if", Short: 'W', Arg: argvrules.RequiredArg},
	{Long: "new-file", Key: "W", Arg: argvrules.RequiredArg},
	{Long: "assume-new", Key: "W", Arg: argvrules.RequiredArg},
	{Long: "warn-undefined-variables"},
})

var makeProgram = &getoptProgram{
	family:  "make",
	policy:  "make command-line makefile text",
	grammar: "make option grammar",
	table:   makeTable,
	order:   argvrules.Permute,
	operand: makeOperand,
	value:   makeValue,
}

// makeOperand refuses command-line variable assignments. GNU make reads
// every operand that contains "=" as a definition (NAME=v, NAME:=v,
// NAME::=v, NAME+=v, NAME?=v, NAME!=shell-command), even after "--"; the
// value can hold $(shell ...), and SHELL, .SHELLFLAGS or MAKEFLAGS change
// how every recipe runs. An operand without "=" is a goal (target).
func makeOperand(_ []string, ev *argvrules.Event) *argvrules.Rejection {
	if !strings.Contains(ev.Word, "=") {
		return nil
	}
	return argvrules.Reject("make.variable-assignment", "make command-line makefile text", ev.Index, ev.Word,
		"argument %d %q is a command-line variable assignment, which overrides the makefile and can carry $(shell ...), SHELL or .SHELLFLAGS to run commands", ev.Index, ev.Word)
}

// makeValue refuses -f/--file/--makefile naming standard input ("-",
// /dev/stdin, /dev/fd/N, /proc/.../fd/N): the makefile would be the
// request's stdin, text the client supplies like --eval.
func makeValue(ev *argvrules.Event) *argvrules.Rejection {
	if ev.Opt.Short != 'f' && ev.Opt.Key != "f" {
		return nil
	}
	v := ev.Value
	if v == "-" || strings.HasPrefix(v, "/dev/") || strings.HasPrefix(v, "/proc/") {
		return argvrules.Reject("make.stdin-makefile", "make command-line makefile text", ev.Index, ev.Word,
			"%s with %q, which reads the makefile from standard input or a device, text the request supplies", describe(ev), v)
	}
	return nil
}

// Make is the recognizer of GNU make (make, gmake). Refused: -E/--eval in
// every getopt_long spelling (-sE..., --ev=..., after goals), -f -
// (and /dev/stdin-like makefiles), and every operand containing "=" (a
// command-line variable assignment). Plain make, make GOAL, make -j4 GOAL,
// make -C DIR, make -f Makefile.other stay allowed: the recipes of the
// repository's makefiles, include files and MAKEFLAGS passed by an
// operator are delegated authority.
func Make(argv []string, ctx argvrules.Context) *argvrules.Rejection {
	return makeProgram.check(argv, ctx)
}
