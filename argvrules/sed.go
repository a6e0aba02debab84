package argvrules

import (
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// Policy names of the sed family.
const (
	sedPolicy        = "sed script command"
	sedGrammarPolicy = "sed option grammar"
)

const gnuSedProgram = "GNU sed 4.9"

// gnuSedTable is GNU sed 4.9's getopt_long table (sed/sed.c longopts and
// SHORTOPTS "bsnrzuEe:f:l:i::V:"). -V is in the optstring but falls to
// usage(); it is left out, so it is an unknown option here too.
// --follow-symlinks exists where readlink does (every platform sed runs
// on here).
var gnuSedTable = newTable(gnuSedProgram, false, []option{
	{Long: "binary", Short: 'b'},
	{Long: "regexp-extended", Short: 'r', Key: "r"},
	{Short: 'E', Key: "r"},
	{Long: "debug"},
	{Long: "expression", Short: 'e', Arg: requiredArg},
	{Long: "file", Short: 'f', Arg: requiredArg},
	{Long: "in-place", Short: 'i', Arg: optionalArg},
	{Long: "line-length", Short: 'l', Arg: requiredArg},
	{Long: "null-data", Short: 'z', Key: "z"},
	{Long: "zero-terminated", Key: "z"},
	{Long: "quiet", Short: 'n', Key: "n"},
	{Long: "silent", Key: "n"},
	{Long: "posix"},
	{Long: "sandbox"},
	{Long: "separate", Short: 's'},
	{Long: "unbuffered", Short: 'u'},
	{Long: "version"},
	{Long: "help"},
	{Long: "follow-symlinks"},
})

const busyboxSedProgram = "BusyBox sed 1.35"

// busyboxSedTable is BusyBox 1.35–1.37 editors/sed.c: getopt32long
// "i::rEne:*f:*" with sed_longopts.
var busyboxSedTable = newTable(busyboxSedProgram, false, []option{
	{Long: "in-place", Short: 'i', Arg: optionalArg},
	{Long: "regexp-extended", Short: 'r', Key: "r"},
	{Short: 'E', Key: "r"},
	{Long: "quiet", Short: 'n', Key: "n"},
	{Long: "silent", Key: "n"},
	{Long: "expression", Short: 'e', Arg: requiredArg},
	{Long: "file", Short: 'f', Arg: requiredArg},
})

// sedImpl is a sed implementation.
type sedImpl uint8

const (
	sedGNU sedImpl = iota + 1
	sedBusybox
)

var sedImplName = map[sedImpl]string{sedGNU: gnuSedProgram, sedBusybox: busyboxSedProgram}

// sedImpls returns the implementations argv may run, from the file the
// resolved program's symlink chain ends in (as for awk): BusyBox behind a
// "sed" link, GNU sed for a file named sed (Linux, Windows' Git and
// MSYS2) or gsed; the BSD sed of macOS and the BSDs, and toybox, have
// grammars this family does not model (ok is false, with the file's
// name). An unresolved name is read with both GNU and BusyBox grammars.
func sedImpls(argv0 string, p Program) (impls []sedImpl, unknown string) {
	names := p.names()
	if len(names) == 0 {
		if strings.HasPrefix(path.Base(argv0), "gsed") {
			return []sedImpl{sedGNU}, ""
		}
		return []sedImpl{sedGNU, sedBusybox}, ""
	}
	last := strings.TrimSuffix(strings.ToLower(names[len(names)-1]), ".exe")
	switch {
	case strings.HasPrefix(last, "busybox"):
		return []sedImpl{sedBusybox}, ""
	case strings.HasPrefix(last, "gsed"):
		return []sedImpl{sedGNU}, ""
	case last == "sed" && !bsdSedPlatform(runtime.GOOS):
		return []sedImpl{sedGNU}, ""
	}
	return nil, names[len(names)-1]
}

// bsdSedPlatform: the systems whose /usr/bin/sed is BSD sed.
func bsdSedPlatform(goos string) bool {
	switch goos {
	case "darwin", "ios", "freebsd", "netbsd", "openbsd", "dragonfly":
		return true
	}
	return false
}

// sedReading is one grammar's reading of an argv: the script chunks in
// the order that implementation compiles them, the input files, and how
// they are edited in place.
type sedReading struct {
	impl     sedImpl
	chunks   []sedChunk
	script   sedScript
	files    []event // operands after the script: the input files
	inPlace  bool
	suffix   string // the -i/--in-place value
	hasSufx  bool
	inPlaceE *event // the last -i event, for messages
	follow   bool   // GNU --follow-symlinks
	reject   *Rejection
}

// checkSed is the recognizer of the sed family (GNU sed 4.9, BusyBox sed).
// argv is read with the grammar of each implementation it may run
// (sedImpls); every script chunk (-e values, --expression=, -f files read
// through the working directory, or the script operand) is compiled by
// a model of that implementation's compiler (sedgnu.go, sedbusybox.go).
// Refused: commands that run a program (GNU e, the e flag of s), file
// writes (w, W, the w flag of s) outside the working directory (GNU's
// /dev/stdout and /dev/stderr, and /dev/null, are fine), a script that
// does not compile, -f from standard input or from outside the working
// directory, and in-place editing (-i, --in-place) of a file, or into a
// backup name, that leaves the working directory or goes through a
// symlink leading out. r and R read files, which is delegated like cat.
func checkSed(argv []string, ctx Context) *Rejection {
	if len(argv) == 0 {
		return nil
	}
	impls, unknown := sedImpls(argv[0], ctx.Program)
	if impls == nil {
		return ruleSedDialect.Reject(0, argv[0],
			"%q runs %s, a sed whose grammar this policy does not model (GNU sed and BusyBox sed are); install GNU sed (gsed) and allowlist it", argv[0], unknown)
	}
	orders := []ordering{permute}
	if _, ok := ctx.getenv("POSIXLY_CORRECT"); ok {
		orders = append(orders, requireOrder)
	}
	var readings []sedReading
	for _, impl := range impls {
		for _, order := range orders {
			note := ""
			if len(impls)*len(orders) > 1 {
				note = sedImplName[impl]
			}
			r := sedRead(impl, argv, ctx, order, note)
			if r.reject != nil {
				return r.reject
			}
			readings = append(readings, r)
		}
	}
	for _, r := range readings {
		if rej := r.judge(argv, ctx, len(readings) > 1); rej != nil {
			return rej
		}
	}
	return nil
}

// sedRead parses argv with impl's option grammar and compiles its script.
func sedRead(impl sedImpl, argv []string, ctx Context, order ordering, note string) sedReading {
	r := sedReading{impl: impl}
	tbl := gnuSedTable
	if impl == sedBusybox {
		tbl = busyboxSedTable
	}
	p := tbl.Parse(argv, 1, order)
	if p.Err != nil {
		r.reject = grammarRejection("sed", sedPolicy, sedGrammarPolicy, p.Err, false)
		return r
	}
	posix := posixExtended
	if _, ok := ctx.getenv("POSIXLY_CORRECT"); ok {
		posix = posixCorrect
	}
	gnu := newGnuSed(posix)
	var exprs, files []sedChunk // BusyBox compiles every -e before every -f
	var operands []event
	for i := range p.Events {
		ev := p.Events[i]
		if ev.Kind == operandEvent {
			operands = append(operands, ev)
			continue
		}
		switch optKey(ev.Opt) {
		case "expression":
			c := sedChunk{text: ev.Value, index: ev.ValueIndex, arg: argv[ev.ValueIndex]}
			exprs = append(exprs, c)
			r.compile(gnu, c)
		case "file":
			text, rej := sedScriptFile(ctx, &ev, note)
			if rej != nil {
				r.reject = rej
				return r
			}
			c := sedChunk{text: text, index: ev.Index, arg: ev.Word, file: ev.Value}
			files = append(files, c)
			r.compile(gnu, c)
		case "posix":
			gnu.posix = posixBasic
		case "sandbox":
			gnu.sandbox = true
		case "in-place":
			r.inPlace, r.suffix, r.hasSufx, r.inPlaceE = true, ev.Value, ev.HasValue, &p.Events[i]
		case "follow-symlinks":
			r.follow = true
		}
	}
	if len(exprs)+len(files) == 0 && len(operands) > 0 {
		c := sedChunk{text: operands[0].Word, index: operands[0].Index, arg: operands[0].Word}
		exprs = append(exprs, c)
		r.compile(gnu, c)
		operands = operands[1:]
	}
	r.files = operands
	if impl == sedBusybox {
		bb := &bbSed{}
		r.chunks = append(exprs, files...)
		for i, c := range r.chunks {
			if c.file != "" {
				bb.file(i, c.text)
			} else {
				bb.block(i, c.text)
			}
		}
		r.script = bb.finish()
	} else {
		r.script = gnu.finish()
	}
	if len(r.chunks) == 0 {
		r.reject = ruleSedNoScript.Reject(0, argv[0],
			"%q gives sed no script to run (as --help, --version or a bare sed): only invocations that run a script are admitted", strings.Join(argv, " "))
	}
	return r
}

// compile adds a chunk to a GNU reading (GNU compiles each -e and -f as
// its option is met); BusyBox readings compile at the end.
func (r *sedReading) compile(g *gnuSed, c sedChunk) {
	if r.impl != sedGNU {
		return
	}
	r.chunks = append(r.chunks, c)
	g.compile(len(r.chunks)-1, c.text)
}

// sedScriptFile reads the -f file of ev through the working directory.
func sedScriptFile(ctx Context, ev *event, note string) (string, *Rejection) {
	if isStdinName(ev.Value) {
		return "", ruleSedScriptFile.Reject(ev.Index, ev.Word,
			"%s, which reads the sed script from standard input, which the policy cannot inspect%s", describeEvent(ev), grammarNote(note))
	}
	text, err := readInside(ctx, ev.Value)
	if err != nil {
		return "", ruleSedScriptFile.Reject(ev.Index, ev.Word,
			"%s, which reads the sed script file %q; the policy reads script files only inside the working directory and could not read this one (%v)%s", describeEvent(ev), ev.Value, err, grammarNote(note))
	}
	return text, nil
}

// judge refuses what the reading's script and in-place editing do.
func (r *sedReading) judge(argv []string, ctx Context, several bool) *Rejection {
	note := ""
	if several {
		note = sedImplName[r.impl]
	}
	if r.impl == sedGNU {
		if rej := r.checkLocale(ctx, note); rej != nil {
			return rej
		}
	}
	for _, e := range r.script.effects {
		c := r.chunks[e.chunk]
		switch e.kind {
		case sedEffExec:
			return ruleSedExec.Reject(c.index, argv[c.index],
				"%s: the %s runs a shell command%s", c.where(e.off), e.cmd, grammarNote(note))
		case sedEffWrite:
			if sedHarmlessWrite(e.file) {
				continue
			}
			if err := redirect.ProbeWrite(ctx.Dir, e.file, redirect.File); err != nil {
				return familyRule("sed", kindOutputPath, "output path outside the working directory").Reject(c.index, argv[c.index],
					"%s: the %s writes to %q, which must stay inside the working directory (%s)%s", c.where(e.off), e.cmd, e.file, err.Error(), grammarNote(note))
			}
		}
	}
	if e := r.script.err; e != nil {
		c := r.chunks[e.chunk]
		return ruleSedSyntax.Reject(c.index, argv[c.index],
			"%s: %s (%s reading): a script the policy cannot follow as sed compiles it is refused", c.where(e.off), e.msg, sedImplName[r.impl])
	}
	if r.inPlace {
		return r.checkInPlace(ctx, note)
	}
	return nil
}

// sedHarmlessWrite: the names a w command may write without containment:
// GNU sed's special /dev/stdout and /dev/stderr (compile.c
// special_files; elsewhere the same devices of the process), and
// /dev/null. "-" is an ordinary file name to sed's w.
func sedHarmlessWrite(name string) bool {
	return name == "/dev/stdout" || name == "/dev/stderr" || name == "/dev/null"
}

// checkLocale refuses non-ASCII script text when the children's locale
// is multibyte and not UTF-8 (Shift_JIS, GBK, Big5 ...): there an ASCII
// byte such as "\" can be the second half of a character, which GNU
// sed's compiler skips and the model does not.
func (r *sedReading) checkLocale(ctx Context, note string) *Rejection {
	loc, ok := sedLocale(ctx)
	if ok {
		return nil
	}
	for _, c := range r.chunks {
		for i := 0; i < len(c.text); i++ {
			if c.text[i] >= 0x80 {
				return ruleSedLocale.Reject(c.index, "",
					"%s: non-ASCII script text under the locale %q, whose multibyte characters the policy does not follow (UTF-8 and C locales are followed)%s", c.where(i), loc, grammarNote(note))
			}
		}
	}
	return nil
}

// sedLocale returns the children's LC_CTYPE (LC_ALL, LC_CTYPE, LANG in
// that order) and whether it is one where no ASCII byte is part of a
// multibyte character: C, POSIX or a UTF-8 charset.
func sedLocale(ctx Context) (string, bool) {
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if s, ok := ctx.getenv(v); ok && s != "" {
			if s == "C" || s == "POSIX" {
				return s, true
			}
			_, cs, _ := strings.Cut(s, ".")
			cs, _, _ = strings.Cut(cs, "@")
			cs = strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(cs))
			return s, cs == "utf8"
		}
	}
	return "", true
}

// checkInPlace contains every file edited in place and its backup.
func (r *sedReading) checkInPlace(ctx Context, note string) *Rejection {
	for i := range r.files {
		ev := &r.files[i]
		name := ev.Word
		if r.impl == sedGNU && r.follow {
			real, err := gnuFollowSymlink(ctx, name)
			if err != nil {
				return r.inPlaceRejection(ev, name, "", err.Error(), note)
			}
			name = real
		}
		if err := redirect.ProbeWrite(ctx.Dir, name, redirect.File); err != nil {
			return r.inPlaceRejection(ev, name, "", err.Error(), note)
		}
		bak := r.backupName(name)
		if bak == "" {
			continue
		}
		if err := redirect.ProbeWrite(ctx.Dir, bak, redirect.File); err != nil {
			return r.inPlaceRejection(ev, name, bak, err.Error(), note)
		}
	}
	return nil
}

// backupName is the name the original of file is renamed to, "" when
// none is kept. GNU (sed.c, execute.c get_backup_file_name): without a
// "*" the suffix is appended; with one, every "*" is replaced by the file
// name as sed opened it (a suffix with "/" names another directory).
// BusyBox appends the value as it is.
func (r *sedReading) backupName(file string) string {
	if !r.hasSufx {
		return ""
	}
	if r.impl == sedBusybox {
		if r.suffix == "" {
			return ""
		}
		return file + r.suffix
	}
	ext := r.suffix
	if !strings.Contains(ext, "*") {
		ext = "*" + ext
	}
	if ext == "*" {
		return ""
	}
	return strings.ReplaceAll(ext, "*", file)
}

func (r *sedReading) inPlaceRejection(file *event, name, bak, why, note string) *Rejection {
	opt := r.inPlaceE
	what := fmt.Sprintf("argument %d %q is a file %s edits in place (argument %d %q), writing %q", file.Index, file.Word, "sed", opt.Index, opt.Word, name)
	if bak != "" {
		what = fmt.Sprintf("argument %d %q is a file sed edits in place keeping a backup (argument %d %q), renamed to %q", file.Index, file.Word, opt.Index, opt.Word, bak)
	}
	return familyRule("sed", kindOutputPath, "output path outside the working directory").Reject(file.Index, file.Word,
		"%s, which must stay inside the working directory (%s)%s", what, why, grammarNote(note))
}

// gnuFollowSymlink is GNU sed's follow_symlink (utils.c) under
// --follow-symlinks: the last component's symlinks are replaced by their
// targets, a relative target joined to the link's directory, until a
// file that is not a link. Links are read through the working directory;
// an absolute target is refused (sed would edit that path).
func gnuFollowSymlink(ctx Context, name string) (string, error) {
	if ctx.Dir == nil {
		return name, nil
	}
	fn := name
	for range 40 {
		fi, err := ctx.Dir.Root().Lstat(fn)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return fn, nil // not a link (or missing: sed fails before writing)
		}
		target, err := ctx.Dir.Root().Readlink(fn)
		if err != nil {
			return "", err
		}
		if path.IsAbs(target) {
			return "", fmt.Errorf("--follow-symlinks makes sed edit %q, the absolute target of the link %q", target, fn)
		}
		if i := strings.LastIndexByte(fn, '/'); i >= 0 {
			target = fn[:i+1] + target
		}
		fn = target
	}
	return "", fmt.Errorf("too many levels of symbolic links at %q", name)
}
