package argvrules

import "strings"

const bsdtarProgram = "bsdtar 3.7"

// bsdtarShort is bsdtar's short option string: a letter followed by ':'
// takes a value (libarchive tar/cmdline.c, unchanged from 3.5.3 to 3.7.x).
// Note the dialect differences from GNU tar: -H, -L are flags, -s takes a
// value, -I is --files-from, -W takes a long option as its value.
const bsdtarShort = "aBb:C:cf:HhI:JjkLlmnOoPpqrSs:T:tUuvW:wX:xyZz"

// bsdtarLong is bsdtar's long option table (libarchive 3.7.4 tar/cmdline.c
// tar_longopts, plus --clamp-mtime, --mode and --mtime of later releases),
// written from reading that source. bsdtar accepts a unique prefix; two
// prefix matches are an error even when they are aliases. Only
// --use-compress-program runs a program.
var bsdtarLong = NewTable(bsdtarProgram, false, []Option{
	{Long: "absolute-paths"}, {Long: "append"}, {Long: "acls"}, {Long: "auto-compress"},
	{Long: "b64encode"}, {Long: "block-size", Arg: RequiredArg}, {Long: "blocking-factor", Arg: RequiredArg},
	{Long: "bunzip2"}, {Long: "bzip"}, {Long: "bzip2"}, {Long: "cd", Arg: RequiredArg},
	{Long: "check-links"}, {Long: "chroot"}, {Long: "clamp-mtime"}, {Long: "clear-nochange-fflags"},
	{Long: "compress"}, {Long: "confirmation"}, {Long: "create"}, {Long: "dereference"},
	{Long: "directory", Arg: RequiredArg}, {Long: "disable-copyfile"}, {Long: "exclude", Arg: RequiredArg},
	{Long: "exclude-from", Arg: RequiredArg}, {Long: "exclude-vcs"}, {Long: "extract"}, {Long: "fast-read"},
	{Long: "fflags"}, {Long: "file", Arg: RequiredArg}, {Long: "files-from", Arg: RequiredArg},
	{Long: "format", Arg: RequiredArg}, {Long: "gid", Arg: RequiredArg}, {Long: "gname", Arg: RequiredArg},
	{Long: "group", Arg: RequiredArg}, {Long: "grzip"}, {Long: "gunzip"}, {Long: "gzip"}, {Long: "help"},
	{Long: "hfsCompression"}, {Long: "ignore-zeros"}, {Long: "include", Arg: RequiredArg}, {Long: "insecure"},
	{Long: "interactive"}, {Long: "keep-newer-files"}, {Long: "keep-old-files"}, {Long: "list"},
	{Long: "lrzip"}, {Long: "lz4"}, {Long: "lzip"}, {Long: "lzma"}, {Long: "lzop"}, {Long: "mac-metadata"},
	{Long: "mode", Arg: RequiredArg}, {Long: "modification-time"}, {Long: "mtime", Arg: RequiredArg},
	{Long: "newer", Arg: RequiredArg}, {Long: "newer-ctime", Arg: RequiredArg},
	{Long: "newer-ctime-than", Arg: RequiredArg}, {Long: "newer-mtime", Arg: RequiredArg},
	{Long: "newer-mtime-than", Arg: RequiredArg}, {Long: "newer-than", Arg: RequiredArg},
	{Long: "no-acls"}, {Long: "no-fflags"}, {Long: "no-mac-metadata"}, {Long: "no-read-sparse"},
	{Long: "no-recursion"}, {Long: "no-safe-writes"}, {Long: "no-same-owner"}, {Long: "no-same-permissions"},
	{Long: "no-xattr"}, {Long: "no-xattrs"}, {Long: "nodump"}, {Long: "nopreserveHFSCompression"},
	{Long: "norecurse"}, {Long: "null"}, {Long: "numeric-owner"}, {Long: "older", Arg: RequiredArg},
	{Long: "older-ctime", Arg: RequiredArg}, {Long: "older-ctime-than", Arg: RequiredArg},
	{Long: "older-mtime", Arg: RequiredArg}, {Long: "older-mtime-than", Arg: RequiredArg},
	{Long: "older-than", Arg: RequiredArg}, {Long: "one-file-system"}, {Long: "options", Arg: RequiredArg},
	{Long: "owner", Arg: RequiredArg}, {Long: "passphrase", Arg: RequiredArg}, {Long: "posix"},
	{Long: "preserve-permissions"}, {Long: "read-full-blocks"}, {Long: "read-sparse"}, {Long: "safe-writes"},
	{Long: "same-owner"}, {Long: "same-permissions"}, {Long: "strip-components", Arg: RequiredArg},
	{Long: "to-stdout"}, {Long: "totals"}, {Long: "uid", Arg: RequiredArg}, {Long: "uname", Arg: RequiredArg},
	{Long: "uncompress"}, {Long: "unlink"}, {Long: "unlink-first"}, {Long: "update"},
	{Long: "use-compress-program", Arg: RequiredArg, Risk: riskTarCompress, Rule: ruleTarExecOption},
	{Long: "uuencode"}, {Long: "verbose"}, {Long: "version"}, {Long: "xattrs"}, {Long: "xz"}, {Long: "zstd"},
})

// bsdtarShortOpts maps each short letter to a pseudo-row so events can
// name it; only the argument kind matters (no bsdtar short option runs a
// program: -I is --files-from there).
var bsdtarShortOpts = func() map[byte]*Option {
	m := make(map[byte]*Option)
	for i := 0; i < len(bsdtarShort); i++ {
		c := bsdtarShort[i]
		if c == ':' {
			continue
		}
		o := &Option{Short: c}
		if i+1 < len(bsdtarShort) && bsdtarShort[i+1] == ':' {
			o.Arg = RequiredArg
		}
		m[c] = o
	}
	return m
}()

// bsdtarLookup is bsdtar's long option match: exact name wins, otherwise
// exactly one prefix match; two or more prefix matches are ambiguous.
func bsdtarLookup(name string) (opt *Option, abbrev bool, amb []*Option) {
	var matches []*Option
	for i := range bsdtarLong.options {
		o := &bsdtarLong.options[i]
		if name == "" || o.Long[0] != name[0] || !strings.HasPrefix(o.Long, name) {
			continue
		}
		if len(o.Long) == len(name) {
			return o, false, nil
		}
		matches = append(matches, o)
	}
	switch len(matches) {
	case 0:
		return nil, false, nil
	case 1:
		return matches[0], true, nil
	}
	return nil, false, matches
}

// bsdtarParse parses argv the way bsdtar 3.7 (tar/cmdline.c bsdtar_getopt)
// does: an argv[1] not starting with "-" is an old-style word whose
// value-taking letters take the following words in order; then words
// starting with "-" are options until the first word that does not
// ("--" is consumed and ends options); a short cluster's value-taking
// letter takes the rest of the word or the next word; -W's value is a
// long option (name[=value]).
func bsdtarParse(argv []string) Parsed {
	p := Parsed{End: -1, Events: make([]Event, 0, len(argv))}
	i := 1
	if len(argv) > 1 && !strings.HasPrefix(argv[1], "-") {
		word := argv[1]
		i = 2
		for j := 0; j < len(word); j++ {
			c := word[j]
			name := "-" + string(c)
			opt := bsdtarShortOpts[c]
			if opt == nil {
				p.Err = &ParseError{Kind: ErrUnknown, Index: 1, Word: word, Name: name, Program: bsdtarProgram}
				return p
			}
			ev := Event{Kind: OptionEvent, Opt: opt, Index: 1, Word: word, Name: name, OldStyle: true, ValueIndex: -1}
			if opt.Arg == RequiredArg {
				if i >= len(argv) {
					p.Err = &ParseError{Kind: ErrMissingValue, Index: 1, Word: word, Name: name, Program: bsdtarProgram}
					return p
				}
				ev.Value, ev.HasValue, ev.ValueIndex = argv[i], true, i
				i++
			}
			p.Events = append(p.Events, ev)
		}
	}
	for ; i < len(argv); i++ {
		w := argv[i]
		if w == "--" {
			p.End = i
			p.operands(argv, i+1)
			return p
		}
		if !strings.HasPrefix(w, "-") {
			p.operands(argv, i)
			return p
		}
		if strings.HasPrefix(w, "--") {
			i = bsdtarLongOpt(&p, argv, i, i, w[2:], "--", "")
		} else {
			i = bsdtarCluster(&p, argv, i)
		}
		if p.Err != nil {
			return p
		}
	}
	return p
}

func bsdtarCluster(p *Parsed, argv []string, i int) int {
	w := argv[i]
	if len(w) == 1 {
		// A lone "-" reaches the short parser with no letters and is
		// skipped by bsdtar_getopt.
		return i
	}
	for j := 1; j < len(w); j++ {
		c := w[j]
		opt := bsdtarShortOpts[c]
		if opt == nil {
			p.Err = &ParseError{Kind: ErrUnknown, Index: i, Word: w, Name: "-" + string(c), Program: bsdtarProgram}
			return i
		}
		if opt.Arg == NoArg {
			p.Events = append(p.Events, Event{Kind: OptionEvent, Opt: opt, Index: i, Word: w, Name: "-" + string(c), Cluster: len(w) > 2, ValueIndex: -1})
			continue
		}
		value, vi := w[j+1:], i
		if value == "" {
			if i+1 >= len(argv) {
				p.Err = &ParseError{Kind: ErrMissingValue, Index: i, Word: w, Name: "-" + string(c), Program: bsdtarProgram}
				return i
			}
			vi = i + 1
			value = argv[vi]
		}
		if c == 'W' {
			return bsdtarLongOpt(p, argv, i, vi, value, "-W ", "-W")
		}
		p.Events = append(p.Events, Event{Kind: OptionEvent, Opt: opt, Index: i, Word: w, Name: "-" + string(c), Cluster: len(w) > 2,
			Value: value, HasValue: true, ValueIndex: vi})
		return vi
	}
	return i
}

func bsdtarLongOpt(p *Parsed, argv []string, idx, at int, spec, prefix, via string) int {
	name, value, hasValue := strings.Cut(spec, "=")
	opt, abbrev, amb := bsdtarLookup(name)
	word := argv[idx]
	spelled := prefix + name
	switch {
	case amb != nil:
		p.Err = &ParseError{Kind: ErrAmbiguous, Index: idx, Word: word, Name: spelled, Candidates: amb, Program: bsdtarProgram}
		return at
	case opt == nil:
		p.Err = &ParseError{Kind: ErrUnknown, Index: idx, Word: word, Name: spelled, Program: bsdtarProgram}
		return at
	}
	ev := Event{Kind: OptionEvent, Opt: opt, Index: idx, Word: word, Name: spelled, Abbrev: abbrev, ValueIndex: -1, Via: via}
	switch {
	case opt.Arg == NoArg && hasValue:
		p.Err = &ParseError{Kind: ErrUnexpectedValue, Index: idx, Word: word, Name: spelled, Program: bsdtarProgram}
	case hasValue:
		ev.Value, ev.HasValue, ev.ValueIndex = value, true, at
	case opt.Arg == RequiredArg:
		if at+1 >= len(argv) {
			p.Err = &ParseError{Kind: ErrMissingValue, Index: idx, Word: word, Name: spelled, Program: bsdtarProgram}
		} else {
			at++
			ev.Value, ev.HasValue, ev.ValueIndex = argv[at], true, at
		}
	}
	p.Events = append(p.Events, ev)
	return at
}
