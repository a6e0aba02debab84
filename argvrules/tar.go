package argvrules

import (
	"path"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// Policy names of the tar family.
const (
	tarPolicy        = "tar command execution option"
	tarGrammarPolicy = "tar option grammar"
)

const (
	riskTarCompress   = "runs a program as the compressor"
	riskTarToCommand  = "runs a program for each extracted file"
	riskTarRsh        = "runs a program as the remote shell"
	riskTarRmt        = "runs a program as the remote tape server"
	riskTarInfoScript = "runs a program at the end of each volume"
	riskTarCheckpoint = "selects a checkpoint action other than the inert ., dot, bell, echo[=TEXT], ttyout=TEXT and totals (exec= runs a program)"
	// riskTarVolumePrompt: at the end of each volume GNU tar 1.34
	// (src/buffer.c, the new-volume menu) asks on stdin, or /dev/tty when
	// the archive is stdin, and its "!" answer spawns $SHELL reading the
	// same stdin: a request's stdin becomes shell commands (verified: tar
	// -c -L 10 -f a.tar big with stdin "!\n" started sh).
	riskTarVolumePrompt = "starts GNU tar's interactive volume prompt, whose \"!\" answer runs a shell reading stdin"
	riskTarTapeLength   = "implies --multi-volume in GNU tar 1.34 and so " + riskTarVolumePrompt
)

// gnuTarOutputOptions are the GNU tar 1.34 options whose value names a
// file tar creates or rewrites (src/tar.c): --index-file (the verbose
// listing), --volno-file (the volume number, rewritten at exit) and
// -g/--listed-incremental (the snapshot file, rewritten after the dump).
// Their value must stay inside the working directory (OutputPath).
// bsdtar 3.7 has none of them: there "--index-file" and "--volno-file"
// are unknown or ambiguous prefixes (a grammar error) and -g is unknown.
var gnuTarOutputOptions = map[string]bool{
	"index-file": true, "volno-file": true, "listed-incremental": true,
}

const gnuTarProgram = "GNU tar 1.34"

// gnuTarTable is the GNU tar 1.34 option table (src/tar.c options[] and
// src/names.c names_options[], plus the options argp adds: --help/-?,
// --usage, --version, and the hidden --program-name and --HANG), written
// from reading that source. OPTION_ALIAS rows share their Key and argument
// with the row they alias, as argp does. GNU tar parses with
// ARGP_IN_ORDER, so options after operands are options; its old-style
// first word is handled by gnuTarParse.
var gnuTarTable = newTable(gnuTarProgram, false, []option{
	// operation modes
	{Long: "list", Short: 't'},
	{Long: "extract", Short: 'x'},
	{Long: "get", Key: "x"},
	{Long: "create", Short: 'c'},
	{Long: "diff", Short: 'd'},
	{Long: "compare", Key: "d"},
	{Long: "append", Short: 'r'},
	{Long: "update", Short: 'u'},
	{Long: "catenate", Short: 'A'},
	{Long: "concatenate", Key: "A"},
	{Long: "delete"},
	{Long: "test-label"},
	// operation modifiers
	{Long: "sparse", Short: 'S'},
	{Long: "hole-detection", Arg: requiredArg},
	{Long: "sparse-version", Arg: requiredArg},
	{Long: "incremental", Short: 'G'},
	{Long: "listed-incremental", Short: 'g', Arg: requiredArg},
	{Long: "level", Arg: requiredArg},
	{Long: "ignore-failed-read"},
	{Long: "occurrence", Arg: optionalArg},
	{Long: "seek", Short: 'n'},
	{Long: "no-seek"},
	{Long: "no-check-device"},
	{Long: "check-device"},
	// overwrite control
	{Long: "verify", Short: 'W'},
	{Long: "remove-files"},
	{Long: "keep-old-files", Short: 'k'},
	{Long: "skip-old-files"},
	{Long: "keep-newer-files"},
	{Long: "overwrite"},
	{Long: "unlink-first", Short: 'U'},
	{Long: "recursive-unlink"},
	{Long: "no-overwrite-dir"},
	{Long: "overwrite-dir"},
	{Long: "keep-directory-symlink"},
	{Long: "one-top-level", Arg: optionalArg},
	// output streams
	{Long: "to-stdout", Short: 'O'},
	{Long: "to-command", Arg: requiredArg, Risk: riskTarToCommand, Rule: ruleTarExecOption},
	{Long: "ignore-command-error"},
	{Long: "no-ignore-command-error"},
	// file attributes
	{Long: "owner", Arg: requiredArg},
	{Long: "group", Arg: requiredArg},
	{Long: "owner-map", Arg: requiredArg},
	{Long: "group-map", Arg: requiredArg},
	{Long: "mtime", Arg: requiredArg},
	{Long: "clamp-mtime"},
	{Long: "mode", Arg: requiredArg},
	{Long: "atime-preserve", Arg: optionalArg},
	{Long: "touch", Short: 'm'},
	{Long: "same-owner"},
	{Long: "no-same-owner"},
	{Long: "numeric-owner"},
	{Long: "preserve-permissions", Short: 'p'},
	{Long: "same-permissions", Key: "p"},
	{Long: "no-same-permissions"},
	{Long: "preserve-order", Short: 's'},
	{Long: "same-order", Key: "s"},
	{Long: "delay-directory-restore"},
	{Long: "no-delay-directory-restore"},
	{Long: "sort", Arg: requiredArg},
	// extended attributes
	{Long: "xattrs"},
	{Long: "no-xattrs"},
	{Long: "xattrs-include", Arg: requiredArg},
	{Long: "xattrs-exclude", Arg: requiredArg},
	{Long: "selinux"},
	{Long: "no-selinux"},
	{Long: "acls"},
	{Long: "no-acls"},
	// device selection
	{Long: "file", Short: 'f', Arg: requiredArg},
	{Short: '0'}, {Short: '1'}, {Short: '2'}, {Short: '3'}, {Short: '4'},
	{Short: '5'}, {Short: '6'}, {Short: '7'}, {Short: '8'}, {Short: '9'},
	{Long: "force-local"},
	{Long: "rmt-command", Arg: requiredArg, Risk: riskTarRmt, Rule: ruleTarExecOption},
	{Long: "rsh-command", Arg: requiredArg, Risk: riskTarRsh, Rule: ruleTarExecOption},
	{Long: "multi-volume", Short: 'M', Risk: riskTarVolumePrompt, Rule: ruleTarMultiVolume},
	{Long: "tape-length", Short: 'L', Arg: requiredArg, Risk: riskTarTapeLength, Rule: ruleTarMultiVolume},
	{Long: "info-script", Short: 'F', Arg: requiredArg, Risk: riskTarInfoScript, Rule: ruleTarExecOption},
	{Long: "new-volume-script", Key: "F", Arg: requiredArg, Risk: riskTarInfoScript, Rule: ruleTarExecOption},
	{Long: "volno-file", Arg: requiredArg},
	// device blocking
	{Long: "blocking-factor", Short: 'b', Arg: requiredArg},
	{Long: "record-size", Arg: requiredArg},
	{Long: "ignore-zeros", Short: 'i'},
	{Long: "read-full-records", Short: 'B'},
	// archive format
	{Long: "format", Short: 'H', Arg: requiredArg},
	{Long: "old-archive"},
	{Long: "portability", Key: "old-archive"},
	{Long: "posix"},
	{Long: "pax-option", Arg: requiredArg},
	{Long: "label", Short: 'V', Arg: requiredArg},
	// compression
	{Long: "auto-compress", Short: 'a'},
	{Long: "no-auto-compress"},
	{Long: "use-compress-program", Short: 'I', Arg: requiredArg, Risk: riskTarCompress, Rule: ruleTarExecOption},
	{Long: "bzip2", Short: 'j'},
	{Long: "gzip", Short: 'z'},
	{Long: "gunzip", Key: "z"},
	{Long: "ungzip", Key: "z"},
	{Long: "compress", Short: 'Z'},
	{Long: "uncompress", Key: "Z"},
	{Long: "lzip"},
	{Long: "lzma"},
	{Long: "lzop"},
	{Long: "xz", Short: 'J'},
	{Long: "zstd"},
	// local file selection
	{Long: "one-file-system"},
	{Long: "absolute-names", Short: 'P'},
	{Long: "dereference", Short: 'h'},
	{Long: "hard-dereference"},
	{Long: "starting-file", Short: 'K', Arg: requiredArg},
	{Long: "newer", Short: 'N', Arg: requiredArg},
	{Long: "after-date", Key: "N", Arg: requiredArg},
	{Long: "newer-mtime", Arg: requiredArg},
	{Long: "backup", Arg: optionalArg},
	{Long: "suffix", Arg: requiredArg},
	// file name transformations
	{Long: "strip-components", Arg: requiredArg},
	{Long: "transform", Arg: requiredArg},
	{Long: "xform", Key: "transform", Arg: requiredArg},
	// informative output
	{Long: "checkpoint", Arg: optionalArg},
	{Long: "checkpoint-action", Arg: requiredArg, Risk: riskTarCheckpoint, Rule: ruleTarExecOption},
	{Long: "check-links", Short: 'l'},
	{Long: "totals", Arg: optionalArg},
	{Long: "utc"},
	{Long: "full-time"},
	{Long: "index-file", Arg: requiredArg},
	{Long: "block-number", Short: 'R'},
	{Long: "show-defaults"},
	{Long: "show-snapshot-field-ranges"},
	{Long: "show-omitted-dirs"},
	{Long: "show-transformed-names"},
	{Long: "show-stored-names", Key: "show-transformed-names"},
	{Long: "quoting-style", Arg: requiredArg},
	{Long: "quote-chars", Arg: requiredArg},
	{Long: "no-quote-chars", Arg: requiredArg},
	// -w asks "add 'x'?" per file on stdin (or /dev/tty when the archive
	// is stdin); the answer only selects files, nothing is run, so it is
	// allowed (the runner gives no tty and a timeout bounds the wait).
	{Long: "interactive", Short: 'w'},
	{Long: "confirmation", Key: "w"},
	{Long: "verbose", Short: 'v'},
	{Long: "warning", Arg: requiredArg},
	// compatibility and other
	{Short: 'o'},
	{Long: "restrict"},
	// src/names.c names_options
	{Long: "add-file", Arg: requiredArg},
	{Long: "directory", Short: 'C', Arg: requiredArg},
	{Long: "files-from", Short: 'T', Arg: requiredArg},
	{Long: "null"},
	{Long: "no-null"},
	{Long: "unquote"},
	{Long: "no-unquote"},
	{Long: "verbatim-files-from"},
	{Long: "no-verbatim-files-from"},
	{Long: "exclude", Arg: requiredArg},
	{Long: "exclude-from", Short: 'X', Arg: requiredArg},
	{Long: "exclude-caches"},
	{Long: "exclude-caches-under"},
	{Long: "exclude-caches-all"},
	{Long: "exclude-tag", Arg: requiredArg},
	{Long: "exclude-ignore", Arg: requiredArg},
	{Long: "exclude-ignore-recursive", Arg: requiredArg},
	{Long: "exclude-tag-under", Arg: requiredArg},
	{Long: "exclude-tag-all", Arg: requiredArg},
	{Long: "exclude-vcs"},
	{Long: "exclude-vcs-ignores"},
	{Long: "exclude-backups"},
	{Long: "recursion"},
	{Long: "no-recursion"},
	{Long: "anchored"},
	{Long: "no-anchored"},
	{Long: "ignore-case"},
	{Long: "no-ignore-case"},
	{Long: "wildcards"},
	{Long: "no-wildcards"},
	{Long: "wildcards-match-slash"},
	{Long: "no-wildcards-match-slash"},
	// argp's own options
	{Long: "help", Short: '?'},
	{Long: "usage"},
	{Long: "version"},
	{Long: "program-name", Arg: requiredArg},
	{Long: "HANG", Arg: optionalArg},
})

// gnuTarParse parses argv the way GNU tar 1.34 does: when argv[1] does not
// start with "-" it is an old-style word whose letters are options and
// whose value-taking letters take the following words in order
// ("tar cIf PROG out.tar dir": I takes PROG, f takes out.tar); the rest
// is parsed with getopt_long in order (options after operands count).
func gnuTarParse(argv []string) parsed {
	start := 1
	var old []event
	if len(argv) > 1 && !strings.HasPrefix(argv[1], "-") {
		word := argv[1]
		start = 2
		for j := 0; j < len(word); j++ {
			c := word[j]
			name := "-" + string(c)
			opt := gnuTarTable.Short(c)
			if opt == nil {
				return parsed{Events: old, End: -1, Err: &parseError{Kind: parseUnknown, Index: 1, Word: word, Name: name, Program: gnuTarProgram}}
			}
			ev := event{Kind: optionEvent, Opt: opt, Index: 1, Word: word, Name: name, OldStyle: true, ValueIndex: -1}
			if opt.Arg != noArg {
				if start >= len(argv) {
					return parsed{Events: append(old, ev), End: -1, Err: &parseError{Kind: parseMissingValue, Index: 1, Word: word, Name: name, Program: gnuTarProgram}}
				}
				ev.Value, ev.HasValue, ev.ValueIndex = argv[start], true, start
				start++
			}
			old = append(old, ev)
		}
	}
	p := gnuTarTable.Parse(argv, start, permute)
	if len(old) > 0 {
		p.Events = append(old, p.Events...)
	}
	return p
}

// gnuTarRemote reports whether GNU tar treats archive name as HOST:PATH
// (a colon after a non-empty prefix without "/"), which makes it start a
// remote shell unless --force-local is given (lib/rtapelib.c _remdev).
func gnuTarRemote(name string) bool {
	i := strings.IndexByte(name, ':')
	return i > 0 && !strings.Contains(name[:i], "/")
}

// checkTar is the recognizer of the tar family (tar, gtar, bsdtar). It checks
// argv under both the GNU tar 1.34 and the bsdtar 3.7 grammar, whatever the
// executable name, and refuses when either reading selects
// --checkpoint-action (any action except the inert ones listed at
// tarInertCheckpointAction, see tarAllowInertCheckpointActions),
// -I/--use-compress-program,
// --to-command, --rsh-command, --rmt-command or
// -F/--info-script/--new-volume-script, -M/--multi-volume or
// -L/--tape-length (both reach GNU tar's volume prompt, whose "!" runs a
// shell), in any spelling (abbreviation, cluster, old-style letter, -W
// name in bsdtar, after operands). It also refuses a GNU archive name of
// the form HOST:PATH (-f/--file value) unless --force-local is given, and
// a --index-file, --volno-file or -g/--listed-incremental value that
// OutputPath does not keep inside ctx.Dir (rule tar.output-path), and
// under either reading the places tarWrites checks: the -f archive (or
// $TAPE) of -c/-r/-u/-A/--delete and the operands (and --add-file names)
// --remove-files deletes,
// the -C and --one-top-level directories of -x, a -T list under
// --remove-files or (unless verbatim) under -x, a --suffix holding "/"
// (tar.output-path), and -P
// in extract mode (tar.absolute-names). A reading with a grammar error makes that
// tar exit before acting; argv is refused when neither reading is clean.
func checkTar(argv []string, ctx Context) *Rejection {
	if len(argv) == 0 {
		return nil
	}
	gnu := gnuTarParse(argv)
	bsd := bsdtarParse(argv)
	// Options that run a named program are reported before the volume
	// prompt, which needs a second step (stdin) to run anything.
	for _, prompt := range []bool{false, true} {
		if r := tarRisk(gnu.Events, gnuTarProgram, prompt); r != nil {
			return r
		}
		if r := tarRisk(bsd.Events, bsdtarProgram, prompt); r != nil {
			return r
		}
	}
	if r := gnuTarRemoteArchive(gnu); r != nil {
		return r
	}
	if r := gnuTarOutputFiles(gnu, ctx); r != nil {
		return r
	}
	if r := tarWrites(gnu, gnuTarOps, ctx); r != nil {
		return r
	}
	if r := tarWrites(bsd, bsdtarOps, ctx); r != nil {
		return r
	}
	if gnu.Err != nil && bsd.Err != nil {
		if gnu.Err.Kind == parseAmbiguous {
			return grammarRejection("tar", tarPolicy, tarGrammarPolicy, gnu.Err, false)
		}
		if bsd.Err.Kind == parseAmbiguous {
			return grammarRejection("tar", tarPolicy, tarGrammarPolicy, bsd.Err, false)
		}
		return grammarRejection("tar", tarPolicy, tarGrammarPolicy, gnu.Err, false)
	}
	// An ambiguous prefix that could reach a helper is refused even when
	// the other dialect accepts the word.
	for _, e := range []*parseError{gnu.Err, bsd.Err} {
		if e != nil && e.Kind == parseAmbiguous && anyRisky(e.Candidates) {
			return grammarRejection("tar", tarPolicy, tarGrammarPolicy, e, false)
		}
	}
	return nil
}

func anyRisky(opts []*option) bool {
	for _, o := range opts {
		if o.Risk != "" {
			return true
		}
	}
	return false
}

// tarAllowInertCheckpointActions keeps --checkpoint-action values that
// only print: a deliberate difference, documented with its reason in
// docs/rules.md ("tar checkpoint actions"). Set it to false to refuse every action, as the
// reference README's compatibility note describes.
const tarAllowInertCheckpointActions = true

// tarInertCheckpointAction reports whether GNU tar 1.34 (src/checkpoint.c
// checkpoint_compile_action) reads value as an action that runs nothing
// and waits for nothing.
func tarInertCheckpointAction(value string) bool {
	switch value {
	case ".", "dot", "bell", "echo", "totals":
		return true
	}
	return strings.HasPrefix(value, "echo=") || strings.HasPrefix(value, "ttyout=")
}

// tarRisk returns the refusal for the first risky event whose rule is
// (prompt) or is not (!prompt) ruleTarMultiVolume.
func tarRisk(events []event, program string, prompt bool) *Rejection {
	for i := range events {
		ev := &events[i]
		if ev.Kind == optionEvent && (ev.Opt.Rule == ruleTarMultiVolume) != prompt {
			continue
		}
		if ev.Kind == optionEvent && ev.Opt.Long == "checkpoint-action" && ev.HasValue &&
			tarAllowInertCheckpointActions && tarInertCheckpointAction(ev.Value) {
			continue
		}
		if ev.Kind == optionEvent && ev.Opt.Risky(ev.HasValue) {
			return optionRejection(ev, tarPolicy, program)
		}
	}
	return nil
}

func gnuTarRemoteArchive(p parsed) *Rejection {
	for i := range p.Events {
		if ev := &p.Events[i]; ev.Kind == optionEvent && ev.Opt.Long == "force-local" {
			return nil
		}
	}
	for i := range p.Events {
		ev := &p.Events[i]
		if ev.Kind == optionEvent && ev.Opt.Long == "file" && ev.HasValue && gnuTarRemote(ev.Value) {
			return ruleTarRemoteArchive.Reject(ev.Index, ev.Word,
				"%s names the archive %q, which GNU tar 1.34 reads as HOST:PATH and opens by running a remote shell (add --force-local for a local file)",
				describeEvent(ev), ev.Value)
		}
	}
	return nil
}

// gnuTarOutputFiles checks the value of each gnuTarOutputOptions event
// with OutputPath.
func gnuTarOutputFiles(p parsed, ctx Context) *Rejection {
	for i := range p.Events {
		ev := &p.Events[i]
		if ev.Kind == optionEvent && ev.HasValue && gnuTarOutputOptions[ev.Opt.Long] {
			if r := outputPath(ctx, "tar", ev.Index, ev.Word, ev.Value, redirect.File); r != nil {
				return r
			}
		}
	}
	return nil
}

// tarOp is what one tar event does, under either grammar, as far as the
// write check needs to know.
type tarOp int

const (
	tarOther tarOp = iota
	// tarWriteArchive: a mode that creates or rewrites the -f archive:
	// GNU tar 1.34 -c -r -u -A and --delete (src/tar.c, "Main operation
	// mode"; --delete rewrites the archive in place, src/delete.c),
	// bsdtar 3.7 -c -r -u (bsdtar(1) "-r ... appended", "-u ... update").
	tarWriteArchive
	// tarExtract: -x, which writes the members below the -C directory.
	tarExtract
	// tarFile: -f/--file, the archive.
	tarFile
	// tarDirectory: -C/--directory (bsdtar also --cd). Both tars
	// compose a relative value with the previous one ("-C a -C b" is
	// a/b; GNU tar manual 6.10.1 "Changing the Working Directory",
	// bsdtar tar/bsdtar.c set_chdir) and open the -f archive before any
	// -C, in the starting directory (verified with both).
	tarDirectory
	// tarAbsolute: GNU -P/--absolute-names, bsdtar -P, --absolute-paths
	// and --insecure: extraction keeps leading "/" and ".." in member
	// names (GNU tar manual 6.10.2 "Absolute File Names", bsdtar(1) -P).
	tarAbsolute
	// tarStdout: -O/--to-stdout: extraction writes nothing to disk.
	tarStdout
	// tarTopLevel: GNU --one-top-level[=DIR]: extraction into DIR below
	// the -C directory; "--one-top-level=/abs" and "=../x" leave it
	// (verified with GNU tar 1.34).
	tarTopLevel
	// tarRemove: GNU --remove-files: after archiving, tar deletes each
	// named file, relative to the -C in effect (GNU tar manual 4.4.2
	// "Removing Files"); bsdtar 3.7 has no such option.
	tarRemove
	// tarFilesFrom: GNU -T/--files-from, a list of names read at run
	// time. GNU tar 1.34 obeys "-C DIR" and "--directory=DIR" lines in
	// it in every mode, extraction included (verified: the member lands
	// in DIR), unless --verbatim-files-from or --null is in effect at
	// that -T (GNU tar manual 6.3 "Reading Names from a File"); bsdtar
	// 3.6 obeys them only when creating.
	tarFilesFrom
	// tarVerbatim and tarNoVerbatim switch that for the -T options
	// that follow: --verbatim-files-from and --null (which implies it,
	// verified), --no-verbatim-files-from and --no-null.
	tarVerbatim
	tarNoVerbatim
	// tarSuffix: GNU --suffix, appended to the name of a file that
	// extraction with --backup renames out of the way (GNU tar manual
	// 4.5 "Backup options"). A "/" in it makes the rename's target a
	// path below that name: "--suffix=/../../x" over an existing symlink
	// to a directory moves it to ../x, outside (verified with 1.34).
	tarSuffix
	// tarAddFile: GNU --add-file=NAME, a name given as an option (for a
	// name that starts with "-"): --remove-files deletes it like an
	// operand (verified with 1.34).
	tarAddFile
)

// gnuTarOps and bsdtarOps name the events' Key (GNU) or letter and long
// name (bsdtar) that matter to tarWrites. --transform and bsdtar -s are
// absent on purpose: without -P both tars strip a leading "/" and ".."
// from the renamed member (verified: s,^,/abs/, and s,^,../, stay inside).
var (
	gnuTarOps = map[string]tarOp{
		"c": tarWriteArchive, "r": tarWriteArchive, "u": tarWriteArchive, "A": tarWriteArchive, "delete": tarWriteArchive,
		"x": tarExtract, "f": tarFile, "C": tarDirectory, "P": tarAbsolute, "O": tarStdout, "one-top-level": tarTopLevel,
		"remove-files": tarRemove, "T": tarFilesFrom,
		"verbatim-files-from": tarVerbatim, "null": tarVerbatim, "no-verbatim-files-from": tarNoVerbatim, "no-null": tarNoVerbatim,
		"suffix": tarSuffix, "add-file": tarAddFile,
	}
	bsdtarOps = map[string]tarOp{
		"c": tarWriteArchive, "r": tarWriteArchive, "u": tarWriteArchive,
		"create": tarWriteArchive, "append": tarWriteArchive, "update": tarWriteArchive,
		"x": tarExtract, "extract": tarExtract, "f": tarFile, "file": tarFile,
		"C": tarDirectory, "directory": tarDirectory, "cd": tarDirectory,
		"P": tarAbsolute, "absolute-paths": tarAbsolute, "insecure": tarAbsolute,
		"O": tarStdout, "to-stdout": tarStdout,
	}
)

// tarOpOf returns what ev does under the grammar whose table is ops.
func tarOpOf(ev *event, ops map[string]tarOp) tarOp {
	if ev.Kind != optionEvent {
		return tarOther
	}
	key := ev.Opt.Key
	switch {
	case key != "":
	case ev.Opt.Short != 0:
		key = string(ev.Opt.Short)
	default:
		key = ev.Opt.Long
	}
	return ops[key]
}

// tarWrites checks, under one grammar's events, the places tar writes
// besides the options of gnuTarOutputOptions: in a mode that writes the
// archive, every -f value (or $TAPE, which both tars use when there is no
// -f), and with --remove-files every operand, which tar deletes after
// archiving it; in extract mode without -O, every -C directory as
// composed so far and any --one-top-level directory below each, and -P
// is refused.
// Reading modes (-t, -d, and -x's archive) name files tar only reads,
// and -C in create mode only selects what is read.
func tarWrites(p parsed, ops map[string]tarOp, ctx Context) *Rejection {
	var write, extract, stdout, file, remove bool
	for i := range p.Events {
		switch tarOpOf(&p.Events[i], ops) {
		case tarRemove:
			remove = true
		case tarWriteArchive:
			write = true
		case tarExtract:
			extract = true
		case tarStdout:
			stdout = true
		case tarFile:
			file = true
		}
	}
	if write && !file && ctx.Env != nil {
		if v, ok := ctx.Env("TAPE"); ok && v != "" && !redirect.Harmless(v) {
			if err := redirect.ProbeWrite(ctx.Dir, v, redirect.File); err != nil {
				return familyRule("tar", kindOutputPath, "output path outside the working directory").Reject(-1, "",
					"the environment's TAPE=%q names the archive tar writes when no -f is given, which must stay inside the working directory (%s)", v, err.Error())
			}
		}
	}
	extract = extract && !stdout
	dir := "."
	verbatim := false
	for i := range p.Events {
		ev := &p.Events[i]
		switch tarOpOf(ev, ops) {
		case tarVerbatim:
			verbatim = true
		case tarNoVerbatim:
			verbatim = false
		case tarFilesFrom:
			if r := tarFilesFromCheck(ev, write && remove, extract && !verbatim); r != nil {
				return r
			}
		case tarAddFile:
			if write && remove && ev.HasValue && !redirect.Harmless(ev.Value) {
				if r := outputPath(ctx, "tar", ev.Index, ev.Word, tarJoin(dir, ev.Value), redirect.FileOrDir); r != nil {
					return r
				}
			}
		case tarSuffix:
			if ev.HasValue && strings.Contains(ev.Value, "/") {
				return familyRule("tar", kindOutputPath, "output path outside the working directory").Reject(ev.Index, ev.Word,
					"argument %d %q puts a \"/\" in the backup suffix, so a backup's name is a path below the file's that may lead out of the working directory",
					ev.Index, ev.Word)
			}
		}
		if ev.Kind == operandEvent && write && remove && !redirect.Harmless(ev.Word) {
			if r := outputPath(ctx, "tar", ev.Index, ev.Word, tarJoin(dir, ev.Word), redirect.FileOrDir); r != nil {
				return r
			}
			continue
		}
		switch tarOpOf(ev, ops) {
		case tarFile:
			if write && ev.HasValue {
				if r := outputValue(ctx, "tar", ev, redirect.File); r != nil {
					return r
				}
			}
		case tarAbsolute:
			if extract {
				return ruleTarAbsoluteNames.Reject(ev.Index, ev.Word,
					"argument %d %q keeps absolute and \"..\" member names in extract mode, so the archive decides where tar writes (add -O to extract to standard output)",
					ev.Index, ev.Word)
			}
		case tarDirectory:
			if !ev.HasValue {
				continue
			}
			dir = tarJoin(dir, ev.Value)
			if extract {
				if r := tarDirCheck(ctx, ev, dir); r != nil {
					return r
				}
			}
		case tarTopLevel:
			if extract && ev.HasValue {
				if r := tarDirCheck(ctx, ev, tarJoin(dir, ev.Value)); r != nil {
					return r
				}
			}
		}
	}
	return nil
}

// tarFilesFromCheck refuses a -T list whose names the check cannot see
// where they decide a write: with --remove-files (tar deletes every name
// it archives, absolute ones included) and, unless verbatim, in extract
// mode (a "-C DIR" line moves the extraction anywhere).
func tarFilesFromCheck(ev *event, remove, extract bool) *Rejection {
	rule := familyRule("tar", kindOutputPath, "output path outside the working directory")
	switch {
	case remove:
		return rule.Reject(ev.Index, ev.Word,
			"argument %d %q reads the names --remove-files deletes from a list the policy cannot check, so they may lie outside the working directory (name the files as operands)",
			ev.Index, ev.Word)
	case extract:
		return rule.Reject(ev.Index, ev.Word,
			"argument %d %q reads a list whose \"-C DIR\" lines GNU tar obeys in extract mode, so the list decides where tar writes (add --verbatim-files-from before it)",
			ev.Index, ev.Word)
	}
	return nil
}

// tarJoin composes a -C value with the directory the earlier ones chose.
func tarJoin(dir, v string) string {
	if path.IsAbs(v) || dir == "." {
		return v
	}
	return dir + "/" + v
}

// tarDirCheck checks p, the directory extraction writes into after ev,
// naming ev in the refusal.
func tarDirCheck(ctx Context, ev *event, p string) *Rejection {
	word := ev.Word
	if ev.ValueIndex >= 0 && ev.ValueIndex != ev.Index {
		word = ev.Word + " " + ev.Value
	}
	return outputPath(ctx, "tar", ev.Index, word, p, redirect.Dir)
}
