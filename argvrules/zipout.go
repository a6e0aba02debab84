package argvrules

import (
	"path"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// zipOption is one row of Info-ZIP zip 3.0's option table as "zip -so"
// prints it: the short name (one or two characters: "ds" is one option,
// not -d -s), the long name, and whether it takes a value (req) or a
// list of values (list: the words up to the next option or "@").
type zipOption struct {
	short, long string
	value       zipValue
}

type zipValue int

const (
	zipNoValue zipValue = iota
	zipReq
	zipList
)

// zipOptions is zip 3.0's table ("zip -so" of Debian's zip 3.0-13),
// options only for other systems left out. zip accepts a unique prefix
// of a long name ("--ou x.zip" is --output-file) and a short option's
// value attached, after "=", or as the next word (zip -h2, "Options and
// Values").
var zipOptions = []zipOption{
	{"0", "store", 0}, {"1", "compress-1", 0}, {"2", "compress-2", 0}, {"3", "compress-3", 0},
	{"4", "compress-4", 0}, {"5", "compress-5", 0}, {"6", "compress-6", 0}, {"7", "compress-7", 0},
	{"8", "compress-8", 0}, {"9", "compress-9", 0}, {"A", "adjust-sfx", 0}, {"b", "temp-path", zipReq},
	{"c", "entry-comments", 0}, {"d", "delete", 0}, {"db", "display-bytes", 0}, {"dc", "display-counts", 0},
	{"dd", "display-dots", 0}, {"dg", "display-globaldots", 0}, {"ds", "dot-size", zipReq},
	{"du", "display-usize", 0}, {"dv", "display-volume", 0}, {"D", "no-dir-entries", 0},
	{"DF", "difference-archive", 0}, {"e", "encrypt", 0}, {"F", "fix", 0}, {"FF", "fixfix", 0},
	{"FI", "fifo", 0}, {"FS", "filesync", 0}, {"f", "freshen", 0}, {"fd", "force-descriptors", 0},
	{"fz", "force-zip64", 0}, {"g", "grow", 0}, {"h", "help", 0}, {"H", "", 0}, {"?", "", 0},
	{"h2", "more-help", 0}, {"i", "include", zipList}, {"j", "junk-paths", 0}, {"J", "junk-sfx", 0},
	{"k", "DOS-names", 0}, {"l", "to-crlf", 0}, {"ll", "from-crlf", 0}, {"lf", "logfile-path", zipReq},
	{"la", "log-append", 0}, {"li", "log-info", 0}, {"L", "license", 0}, {"m", "move", 0}, {"mm", "", 0},
	{"MM", "must-match", 0}, {"n", "suffixes", zipReq}, {"nw", "no-wild", 0}, {"o", "latest-time", 0},
	{"O", "output-file", zipReq}, {"p", "paths", 0}, {"P", "password", zipReq}, {"q", "quiet", 0},
	{"r", "recurse-paths", 0}, {"R", "recurse-patterns", 0}, {"RE", "regex", 0}, {"s", "split-size", zipReq},
	{"sp", "split-pause", 0}, {"sv", "split-verbose", 0}, {"sb", "split-bell", 0}, {"sc", "show-command", 0},
	{"sd", "show-debug", 0}, {"sf", "show-files", 0}, {"so", "show-options", 0}, {"su", "show-unicode", 0},
	{"sU", "show-just-unicode", 0}, {"t", "from-date", zipReq}, {"tt", "before-date", zipReq},
	{"T", "test", 0}, {"TT", "unzip-command", zipReq}, {"u", "update", 0}, {"U", "copy-entries", 0},
	{"UN", "unicode", zipReq}, {"v", "verbose", 0}, {"", "version", 0}, {"ws", "wild-stop-dirs", 0},
	{"x", "exclude", zipList}, {"X", "strip-extra", 0}, {"y", "symlinks", 0}, {"z", "archive-comment", 0},
	{"Z", "compression-method", zipReq}, {"@", "names-stdin", 0},
}

// zipWrites are the options whose value zip writes: --out's new archive,
// -lf's log file and -b's directory for the temporary archive.
var zipWrites = map[string]redirect.Kind{"output-file": redirect.File, "logfile-path": redirect.File, "temp-path": redirect.Dir}

// zipSuffixes are the suffixes zip 3.0 adds to a written name whose last
// component has no ".": --out's and the archive's ".zip", -lf's ".log"
// (verified: "zip o f" writes o.zip, through o.zip when it is a symlink;
// "-lf lg" writes lg.log; "sub.d/o" is sub.d/o.zip, "p." stays p.).
var zipSuffixes = map[string]string{"output-file": ".zip", "logfile-path": ".log"}

// zipAppends reports whether zip adds its suffix to name.
func zipAppends(name string) bool {
	return !redirect.Harmless(name) && !strings.Contains(path.Base(name), ".")
}

// zipShows are the modes that list and exit without writing the archive.
var zipShows = map[string]bool{"show-files": true, "show-unicode": true, "show-just-unicode": true, "show-command": true, "show-options": true}

func zipShort(s string) *zipOption {
	for i := range zipOptions {
		if zipOptions[i].short == s {
			return &zipOptions[i]
		}
	}
	return nil
}

// zipLong returns the row whose long name is name or, failing that, the
// only one name is a prefix of.
func zipLong(name string) *zipOption {
	var found *zipOption
	for i := range zipOptions {
		o := &zipOptions[i]
		switch {
		case o.long == name:
			return o
		case name != "" && strings.HasPrefix(o.long, name):
			if found != nil {
				return nil
			}
			found = o
		}
	}
	return found
}

// zipModes are the options that change what zip's operands mean: a show
// mode lists and exits, -m deletes the archived paths, -@ reads the
// paths from standard input (its argv index, or -1).
type zipModes struct {
	shows, move bool
	stdinNames  int
}

func (m *zipModes) note(opt *zipOption, i int) {
	switch {
	case zipShows[opt.long]:
		m.shows = true
	case opt.long == "move":
		m.move = true
	case opt.long == "names-stdin":
		m.stdinNames = i
	}
}

// zipOutputs checks the files zip 3.0 writes: the archive operand (the
// first word that is neither an option nor an option's value; zip reads
// options anywhere and "--" makes the rest paths), unless --out names
// the new archive instead or a show mode lists and exits; --out, -lf and
// -b; and with -m/--move the path operands, which zip deletes once they
// are archived (zip -h2, "-m ... delete original files"), and which
// -m refuses to take from standard input (-@). Each must pass
// outputPath (rule zip.output-path). An unknown option
// stops the scan: zip exits on it before writing.
func zipOutputs(argv []string, ctx Context) *Rejection {
	archive := -1
	var out bool
	type write struct {
		ev   event
		kind redirect.Kind
		ext  string // the suffix zip adds to a name without one
	}
	var writes []write
	modes := zipModes{stdinNames: -1}
	var paths []int
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		var opt *zipOption
		var value string
		hasValue, valueAt := false, i
		switch {
		case w == "--":
			for j := i + 1; j < len(argv); j++ {
				if archive < 0 {
					archive = j
				} else {
					paths = append(paths, j)
				}
			}
			i = len(argv)
			continue
		case strings.HasPrefix(w, "--"):
			name, v, has := strings.Cut(w[2:], "=")
			if opt = zipLong(name); opt == nil {
				return nil
			}
			value, hasValue = v, has
		case strings.HasPrefix(w, "-") && len(w) > 1:
			for j := 1; j < len(w); {
				opt = nil
				if j+2 <= len(w) {
					opt = zipShort(w[j : j+2])
				}
				if opt == nil {
					opt = zipShort(w[j : j+1])
				}
				if opt == nil {
					if w[j] == '-' { // a negation, as in -X- or -sf-
						j++
						continue
					}
					return nil
				}
				j += len(opt.short)
				if opt.value != zipNoValue {
					if rest := strings.TrimPrefix(w[j:], "="); rest != "" {
						value, hasValue = rest, true
					}
					break
				}
				modes.note(opt, i)
				opt = nil
			}
			if opt == nil {
				continue
			}
		default:
			switch {
			case w == "@":
			case archive < 0:
				archive = i
			default:
				paths = append(paths, i)
			}
			continue
		}
		modes.note(opt, i)
		if opt.value == zipNoValue {
			continue
		}
		if !hasValue {
			if i+1 >= len(argv) {
				return nil
			}
			valueAt = i + 1
			value = argv[valueAt]
		}
		if kind := zipWrites[opt.long]; kind != 0 {
			if opt.long == "output-file" {
				out = true
			}
			writes = append(writes, write{event{Index: i, Word: w, Value: value, HasValue: true, ValueIndex: valueAt}, kind, zipSuffixes[opt.long]})
		}
		attached := valueAt == i
		i = valueAt
		// A list's value attached to its option ("-ia", "-i=a",
		// "--include=a") is the whole list: the next word is an operand
		// again (verified with zip 3.0: "zip -ia out.zip f" writes
		// out.zip).
		if opt.value == zipList && !attached {
			for i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "-") {
				i++
				if argv[i] == "@" {
					break
				}
			}
		}
	}
	for i := range writes {
		w := &writes[i]
		if r := outputValue(ctx, "zip", &w.ev, w.kind); r != nil {
			return r
		}
		if w.ext != "" && zipAppends(w.ev.Value) {
			full := w.ev
			full.Value += w.ext
			if r := outputValue(ctx, "zip", &full, w.kind); r != nil {
				return r
			}
		}
	}
	if archive >= 0 && !out && !modes.shows && !redirect.Harmless(argv[archive]) {
		if r := outputPath(ctx, "zip", archive, argv[archive], argv[archive], redirect.File); r != nil {
			return r
		}
		if zipAppends(argv[archive]) {
			if r := outputPath(ctx, "zip", archive, argv[archive], argv[archive]+".zip", redirect.File); r != nil {
				return r
			}
		}
	}
	if modes.move && !modes.shows && modes.stdinNames >= 0 {
		return familyRule("zip", kindOutputPath, "output path outside the working directory").Reject(modes.stdinNames, argv[modes.stdinNames],
			"argument %d %q reads from standard input the names -m/--move deletes once they are archived, which the policy cannot check (name the files as operands)",
			modes.stdinNames, argv[modes.stdinNames])
	}
	if modes.move && !modes.shows {
		for _, i := range paths {
			if redirect.Harmless(argv[i]) {
				continue
			}
			if r := outputPath(ctx, "zip", i, argv[i], argv[i], redirect.FileOrDir); r != nil {
				return r
			}
		}
	}
	return nil
}
