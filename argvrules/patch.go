package argvrules

import (
	"path"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

const (
	patchPolicy        = "patch external program or output"
	patchGrammarPolicy = "patch option grammar"
)

const patchProgram = "GNU patch 2.7.6"

// patchTable is GNU patch 2.7.6's getopt_long table (src/patch.c longopts
// and shortopts "bB:cd:D:eEfF:g:i:lnNo:p:r:RstTuvV:x:Y:z:Z", --merge
// with ENABLE_MERGE as Debian builds it). Refused: -e/--ed, whose ed
// script patch pipes to "ed - FILE" through popen (/bin/sh, pch.c
// do_ed_script), and -g/--get with a value other than 0, which makes
// patch run co, get or p4 through system() (util.c systemic). Paths:
// -d DIR (patch chdirs there while parsing, so every relative name below
// is below DIR), -o/--output and -r/--reject-file (files; "-" is standard
// output and no reject file), -B/--prefix, -Y/--basename-prefix and
// -z/--suffix (backup names, patchCheck), -i/--input (read).
var patchTable = newTable(patchProgram, false, []option{
	{Long: "backup", Short: 'b'},
	{Long: "prefix", Short: 'B', Arg: requiredArg},
	{Long: "context", Short: 'c'},
	{Long: "directory", Short: 'd', Arg: requiredArg},
	{Long: "ifdef", Short: 'D', Arg: requiredArg},
	{Long: "ed", Short: 'e', Risk: "feeds the ed script to \"ed - FILE\" through the shell (pch.c do_ed_script)", Rule: rulePatchExec},
	{Long: "remove-empty-files", Short: 'E'},
	{Long: "force", Short: 'f'},
	{Long: "fuzz", Short: 'F', Arg: requiredArg},
	{Long: "get", Short: 'g', Arg: requiredArg},
	{Long: "input", Short: 'i', Arg: requiredArg},
	{Long: "ignore-whitespace", Short: 'l'},
	{Long: "merge", Arg: optionalArg},
	{Long: "normal", Short: 'n'},
	{Long: "forward", Short: 'N'},
	{Long: "output", Short: 'o', Arg: requiredArg},
	{Long: "strip", Short: 'p', Arg: requiredArg},
	{Long: "reject-file", Short: 'r', Arg: requiredArg},
	{Long: "reverse", Short: 'R'},
	{Long: "quiet", Short: 's', Key: "s"},
	{Long: "silent", Key: "s"},
	{Long: "batch", Short: 't'},
	{Long: "set-time", Short: 'T'},
	{Long: "unified", Short: 'u'},
	{Long: "version", Short: 'v'},
	{Long: "version-control", Short: 'V', Arg: requiredArg},
	{Long: "debug", Short: 'x', Arg: requiredArg},
	{Long: "basename-prefix", Short: 'Y', Arg: requiredArg},
	{Long: "suffix", Short: 'z', Arg: requiredArg},
	{Long: "set-utc", Short: 'Z'},
	{Long: "dry-run"},
	{Long: "verbose"},
	{Long: "binary"},
	{Long: "help"},
	{Long: "backup-if-mismatch"},
	{Long: "no-backup-if-mismatch"},
	{Long: "posix"},
	{Long: "quoting-style", Arg: requiredArg},
	{Long: "reject-format", Arg: requiredArg},
	{Long: "read-only", Arg: requiredArg},
	{Long: "follow-symlinks"},
})

// checkPatch is the recognizer of GNU patch. It refuses the options that
// run programs (-e, -g N) and keeps every path patch writes by argv
// inside the working directory: -d, -o, -r, the backup prefix, basename
// prefix and suffix, and the file operand with the names patch derives
// from it (FILE.orig, FILE.rej, and the -B/-Y/-z backup). The names inside
// the patch text (---/+++ lines, git headers) come on standard input or
// from -i FILE and are not seen here; GNU patch 2.7.6 itself refuses
// absolute names and names with ".." there and walks the rest without
// following symlinks (safe.c), and the kernel sandbox contains every
// write. ed-style diffs in the patch text make patch run ed through the
// shell, which the family's sandbox facts do not grant (no program is).
func checkPatch(argv []string, ctx Context) *Rejection {
	if len(argv) == 0 {
		return nil
	}
	orders := []ordering{permute}
	if _, ok := ctx.getenv("POSIXLY_CORRECT"); ok {
		orders = append(orders, requireOrder)
	}
	for _, order := range orders {
		if rej := patchRead(argv, ctx, order); rej != nil {
			return rej
		}
	}
	return nil
}

// patchBackup is the backup naming of a patch argv.
type patchBackup struct {
	prefix, base, suffix string // -B, -Y, -z
	cvsSuffix            string // the obsolete "-b SUFFIX ORIGFILE PATCHFILE"
}

func patchRead(argv []string, ctx Context, order ordering) *Rejection {
	p := patchTable.Parse(argv, 1, order)
	for i := range p.Events {
		ev := &p.Events[i]
		if ev.Kind == optionEvent && ev.Opt.Risky(ev.HasValue) {
			return optionRejection(ev, patchPolicy, "")
		}
	}
	if p.Err != nil {
		return grammarRejection("patch", patchPolicy, patchGrammarPolicy, p.Err, false)
	}
	// -d first: patch chdirs while it parses, before it opens anything.
	below := ctx
	for i := range p.Events {
		ev := &p.Events[i]
		if ev.Kind == optionEvent && ev.Opt.Short == 'd' {
			if rej := outputValue(below, "patch", ev, redirect.Dir); rej != nil {
				return rej
			}
			below = below.below(ev.Value)
		}
	}
	var bk patchBackup
	var operands []*event
	for i := range p.Events {
		ev := &p.Events[i]
		if ev.Kind == operandEvent {
			operands = append(operands, ev)
			continue
		}
		switch ev.Opt.Short {
		case 'g':
			if ev.Value != "0" {
				return rulePatchExec.Reject(ev.Index, ev.Word,
					"%s, which makes patch get files from RCS, SCCS or Perforce by running co, get or p4 through the shell (util.c systemic)", describeEvent(ev))
			}
		case 'o', 'r':
			if rej := outputValue(below, "patch", ev, redirect.File); rej != nil {
				return rej
			}
		case 'B', 'Y', 'z':
			if rej := patchAffix(below, ev); rej != nil {
				return rej
			}
			switch ev.Opt.Short {
			case 'B':
				bk.prefix = ev.Value
			case 'Y':
				bk.base = ev.Value
			default:
				bk.suffix = ev.Value
			}
		}
	}
	if n := len(argv); n >= 5 && argv[n-4] == "-b" && patchCVSHack(argv[n-3:]) {
		bk.cvsSuffix = argv[n-3]
		if rej := patchAffix(below, &event{Index: n - 3, Word: argv[n-3], Value: argv[n-3], Opt: &option{Short: 'z'}}); rej != nil {
			return rej
		}
	}
	if len(operands) == 0 {
		return nil
	}
	file := operands[0]
	if bk.cvsSuffix != "" && len(operands) >= 3 {
		file = operands[1]
	}
	for _, name := range append([]string{file.Word}, bk.derived(file.Word)...) {
		if rej := outputPath(below, "patch", file.Index, file.Word, name, redirect.File); rej != nil {
			return rej
		}
	}
	return nil
}

// patchCVSHack is src/patch.c's test for "-b SUFFIX ORIGFILE PATCHFILE":
// three words after -b at the end of argv, none an option.
func patchCVSHack(last []string) bool {
	for _, w := range last {
		if len(w) > 1 && w[0] == '-' {
			return false
		}
	}
	return true
}

// patchAffix checks a backup prefix, basename prefix or suffix: what it
// makes of a file name must stay inside (a name from the patch text is
// not known here, so a stand-in file "f" in the top directory is used; a
// suffix with "/" could only name a path below a regular file).
func patchAffix(ctx Context, ev *event) *Rejection {
	sample := "f"
	switch ev.Opt.Short {
	case 'B', 'Y':
		sample = ev.Value + "f"
	case 'z':
		sample = "f" + ev.Value
	}
	if err := redirect.ProbeWrite(ctx.Dir, patchJoin(ctx, sample), redirect.File); err != nil {
		return familyRule("patch", kindOutputPath, "output path outside the working directory").Reject(ev.Index, ev.Word,
			"%s, whose backup names (as %q for a file f) must stay inside the working directory (%s)", describeEvent(ev), sample, err.Error())
	}
	return nil
}

func patchJoin(ctx Context, p string) string {
	if ctx.base != "" && !path.IsAbs(p) {
		return ctx.base + "/" + p
	}
	return p
}

// derived are the names patch writes for the file operand besides the
// file itself: its reject file, and its backup (util.c create_backup:
// PREFIX + dir + BASENAME-PREFIX + base + SUFFIX when any of -B, -Y, -z
// is given; else the simple ".orig" or a numbered ".~1~", which patch
// makes whenever the patch does not apply exactly, unless --posix).
func (bk patchBackup) derived(file string) []string {
	out := []string{file + ".rej"}
	suffix := bk.suffix
	if bk.cvsSuffix != "" {
		suffix = bk.cvsSuffix
	}
	if bk.prefix == "" && bk.base == "" && suffix == "" {
		return append(out, file+".orig", file+".~1~")
	}
	dir, base := "", file
	if i := strings.LastIndexByte(file, '/'); i >= 0 {
		dir, base = file[:i+1], file[i+1:]
	}
	return append(out, bk.prefix+dir+bk.base+base+suffix)
}
