package argvrules

const (
	riskRgPre      = "runs a preprocessor program on every searched file"
	riskRgPreGlob  = "selects files for a --pre preprocessor program"
	riskRgHostname = "runs a program to learn the host name for hyperlinks"
	riskRgZip      = "runs external decompression programs (gzip, xz, bzip2, lz4, zstd, brotli ...) on compressed files"
)

// rgTable is the union of the ripgrep 13.0 ("rg --help", clap 2) and
// ripgrep 14.1 (its own lexopt-based parser) option tables, written from
// their --help texts and flag documentation. Neither version abbreviates
// long names, so the table is used with exact matching. "--no-X"
// negations are listed where either version documents or accepts them.
var rgTable = newTable("ripgrep 13/14", false, []option{
	{Long: "after-context", Short: 'A', Arg: requiredArg},
	{Long: "auto-hybrid-regex"}, {Long: "no-auto-hybrid-regex"},
	{Long: "before-context", Short: 'B', Arg: requiredArg},
	{Long: "binary"}, {Long: "no-binary"},
	{Long: "block-buffered"}, {Long: "no-block-buffered"},
	{Long: "byte-offset", Short: 'b'}, {Long: "no-byte-offset"},
	{Long: "case-sensitive", Short: 's'},
	{Long: "color", Arg: requiredArg},
	{Long: "colors", Arg: requiredArg},
	{Long: "column"}, {Long: "no-column"},
	{Long: "context", Short: 'C', Arg: requiredArg},
	{Long: "context-separator", Arg: requiredArg}, {Long: "no-context-separator"},
	{Long: "count", Short: 'c'},
	{Long: "count-matches"},
	{Long: "crlf"}, {Long: "no-crlf"},
	{Long: "debug"}, {Long: "trace"},
	{Long: "dfa-size-limit", Arg: requiredArg},
	{Long: "encoding", Short: 'E', Arg: requiredArg}, {Long: "no-encoding"},
	{Long: "engine", Arg: requiredArg},
	{Long: "field-context-separator", Arg: requiredArg},
	{Long: "field-match-separator", Arg: requiredArg},
	{Long: "file", Short: 'f', Arg: requiredArg},
	{Long: "files"},
	{Long: "files-with-matches", Short: 'l'},
	{Long: "files-without-match"},
	{Long: "fixed-strings", Short: 'F'}, {Long: "no-fixed-strings"},
	{Long: "follow", Short: 'L'}, {Long: "no-follow"},
	{Long: "generate", Arg: requiredArg},
	{Long: "glob", Short: 'g', Arg: requiredArg},
	{Long: "glob-case-insensitive"}, {Long: "no-glob-case-insensitive"},
	{Long: "help", Short: 'h'},
	{Long: "heading"}, {Long: "no-heading"},
	{Long: "hidden", Short: '.'}, {Long: "no-hidden"},
	{Long: "hostname-bin", Arg: requiredArg, Risk: riskRgHostname, Rule: ruleRgExecOption},
	{Long: "hyperlink-format", Arg: requiredArg},
	{Long: "iglob", Arg: requiredArg},
	{Long: "ignore-case", Short: 'i'},
	{Long: "ignore-file", Arg: requiredArg},
	{Long: "ignore-file-case-insensitive"}, {Long: "no-ignore-file-case-insensitive"},
	{Long: "include-zero"}, {Long: "no-include-zero"},
	{Long: "invert-match", Short: 'v'}, {Long: "no-invert-match"},
	{Long: "json"}, {Long: "no-json"},
	{Long: "line-buffered"}, {Long: "no-line-buffered"},
	{Long: "line-number", Short: 'n'},
	{Long: "line-regexp", Short: 'x'},
	{Long: "max-columns", Short: 'M', Arg: requiredArg},
	{Long: "max-columns-preview"}, {Long: "no-max-columns-preview"},
	{Long: "max-count", Short: 'm', Arg: requiredArg},
	{Long: "max-depth", Short: 'd', Arg: requiredArg},
	{Long: "maxdepth", Key: "max-depth", Arg: requiredArg},
	{Long: "max-filesize", Arg: requiredArg},
	{Long: "mmap"}, {Long: "no-mmap"},
	{Long: "multiline", Short: 'U'}, {Long: "no-multiline"},
	{Long: "multiline-dotall"}, {Long: "no-multiline-dotall"},
	{Long: "no-config"},
	{Long: "no-filename", Short: 'I'},
	{Long: "no-ignore"}, {Long: "ignore"},
	{Long: "no-ignore-dot"}, {Long: "ignore-dot"},
	{Long: "no-ignore-exclude"}, {Long: "ignore-exclude"},
	{Long: "no-ignore-files"}, {Long: "ignore-files"},
	{Long: "no-ignore-global"}, {Long: "ignore-global"},
	{Long: "no-ignore-messages"}, {Long: "ignore-messages"},
	{Long: "no-ignore-parent"}, {Long: "ignore-parent"},
	{Long: "no-ignore-vcs"}, {Long: "ignore-vcs"},
	{Long: "no-line-number", Short: 'N'},
	{Long: "no-messages"}, {Long: "messages"},
	{Long: "no-pcre2-unicode"}, {Long: "pcre2-unicode"},
	{Long: "no-require-git"}, {Long: "require-git"},
	{Long: "no-unicode"}, {Long: "unicode"},
	{Long: "null", Short: '0'},
	{Long: "null-data"},
	{Long: "one-file-system"}, {Long: "no-one-file-system"},
	{Long: "only-matching", Short: 'o'},
	{Long: "passthru"}, {Long: "passthrough", Key: "passthru"},
	{Long: "path-separator", Arg: requiredArg},
	{Long: "pcre2", Short: 'P'}, {Long: "no-pcre2"},
	{Long: "pcre2-version"},
	{Long: "pre", Arg: requiredArg, Risk: riskRgPre, Rule: ruleRgExecOption},
	{Long: "no-pre"},
	{Long: "pre-glob", Arg: requiredArg, Risk: riskRgPreGlob, Rule: ruleRgExecOption},
	{Long: "pretty", Short: 'p'},
	{Long: "quiet", Short: 'q'},
	{Long: "regex-size-limit", Arg: requiredArg},
	{Long: "regexp", Short: 'e', Arg: requiredArg},
	{Long: "replace", Short: 'r', Arg: requiredArg},
	{Long: "search-zip", Short: 'z', Risk: riskRgZip, Rule: ruleRgExecOption},
	{Long: "no-search-zip"},
	{Long: "smart-case", Short: 'S'},
	{Long: "sort", Arg: requiredArg},
	{Long: "sortr", Arg: requiredArg},
	{Long: "sort-files"}, {Long: "no-sort-files"},
	{Long: "stats"}, {Long: "no-stats"},
	{Long: "stop-on-nonmatch"},
	{Long: "text", Short: 'a'}, {Long: "no-text"},
	{Long: "threads", Short: 'j', Arg: requiredArg},
	{Long: "trim"}, {Long: "no-trim"},
	{Long: "type", Short: 't', Arg: requiredArg},
	{Long: "type-add", Arg: requiredArg},
	{Long: "type-clear", Arg: requiredArg},
	{Long: "type-list"},
	{Long: "type-not", Short: 'T', Arg: requiredArg},
	{Long: "unrestricted", Short: 'u'},
	{Long: "version", Short: 'V'},
	{Long: "vimgrep"},
	{Long: "with-filename", Short: 'H'},
	{Long: "word-regexp", Short: 'w'},
})

var rgProgram = &getoptProgram{
	family:  "rg",
	policy:  "ripgrep external program",
	grammar: "ripgrep option grammar",
	table:   rgTable,
	order:   permute,
	exact:   true,
	value:   rgValue,
}

// rgOptionalWhenHyphen are the options ripgrep 13 (clap 2) does not give
// a separate value that starts with "-": "--engine --pre=CMD" is --engine
// with its default and then --pre there, while ripgrep 14 reads --pre=CMD
// as the engine name. Found by TestTablesMatchPrograms.
var rgOptionalWhenHyphen = map[string]bool{"engine": true}

// rgValue refuses the reading on which the two ripgrep versions differ.
func rgValue(ev *event) *Rejection {
	if !rgOptionalWhenHyphen[ev.Opt.Long] || ev.ValueIndex == ev.Index || len(ev.Value) < 2 || ev.Value[0] != '-' {
		return nil
	}
	return ruleRgAmbiguousValue.Reject(ev.ValueIndex, ev.Value,
		"argument %d %q follows %s: ripgrep 14 reads it as that option's value, but ripgrep 13 reads it as an option of its own (write %s=VALUE)",
		ev.ValueIndex, ev.Value, ev.Opt.Display(), ev.Opt.Display())
}

// checkRg is the recognizer of ripgrep (rg). It parses argv with the union of
// the ripgrep 13 and 14 option tables (exact long names, short clusters
// such as -uuz, attached and separate values, options after operands) and
// refuses the options that run another program: --pre, --pre-glob,
// --hostname-bin and -z/--search-zip. A pattern that starts with "-" is
// data only after -e/--regexp (it is that option's value) or after an
// unconsumed "--"; anywhere else rg reads it as an option, and so does checkRg.
// Unknown options and abbreviations are refused (ripgrep rejects them
// too). ripgrep writes no files; the configuration file named by
// RIPGREP_CONFIG_PATH is environment, which the minimal child environment
// does not pass.
func checkRg(argv []string, ctx Context) *Rejection {
	return rgProgram.check(argv, ctx)
}
