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
var bsdtarLong = newTable(bsdtarProgram, false, []option{
	{Long: "absolute-paths"}, {Long: "append"}, {Long: "acls"}, {Long: "auto-compress"},
	{Long: "b64encode"}, {Long: "block-size", Arg: requiredArg}, {Long: "blocking-factor", Arg: requiredArg},
	{Long: "bunzip2"}, {Long: "bzip"}, {Long: "bzip2"}, {Long: "cd", Arg: requiredArg},
	{Long: "check-links"}, {Long: "chroot"}, {Long: "clamp-mtime"}, {Long: "clear-nochange-fflags"},
	{Long: "compress"}, {Long: "confirmation"}, {Long: "create"}, {Long: "dereference"},
	{Long: "directory", Arg: requiredArg}, {Long: "disable-copyfile"}, {Long: "exclude", Arg: requiredArg},
	{Long: "exclude-from", Arg: requiredArg}, {Long: "exclude-vcs"}, {Long: "extract"}, {Long: "fast-read"},
	{Long: "fflags"}, {Long: "file", Arg: requiredArg}, {Long: "files-from", Arg: requiredArg},
	{Long: "format", Arg: requiredArg}, {Long: "gid", Arg: requiredArg}, {Long: "gname", Arg: requiredArg},
	{Long: "group", Arg: requiredArg}, {Long: "grzip"}, {Long: "gunzip"}, {Long: "gzip"}, {Long: "help"},
	{Long: "hfsCompression"}, {Long: "ignore-zeros"}, {Long: "include", Arg: requiredArg}, {Long: "insecure"},
	{Long: "interactive"}, {Long: "keep-newer-files"}, {Long: "keep-old-files"}, {Long: "list"},
	{Long: "lrzip"}, {Long: "lz4"}, {Long: "lzip"}, {Long: "lzma"}, {Long: "lzop"}, {Long: "mac-metadata"},
	{Long: "mode", Arg: requiredArg}, {Long: "modification-time"}, {Long: "mtime", Arg: requiredArg},
	{Long: "newer", Arg: requiredArg}, {Long: "newer-ctime", Arg: requiredArg},
	{Long: "newer-ctime-than", Arg: requiredArg}, {Long: "newer-mtime", Arg: requiredArg},
	{Long: "newer-mtime-than", Arg: requiredArg}, {Long: "newer-than", Arg: requiredArg},
	{Long: "no-acls"}, {Long: "no-fflags"}, {Long: "no-mac-metadata"}, {Long: "no-read-sparse"},
	{Long: "no-recursion"}, {Long: "no-safe-writes"}, {Long: "no-same-owner"}, {Long: "no-same-permissions"},
	{Long: "no-xattr"}, {Long: "no-xattrs"}, {Long: "nodump"}, {Long: "nopreserveHFSCompression"},
	{Long: "norecurse"}, {Long: "null"}, {Long: "numeric-owner"}, {Long: "older", Arg: requiredArg},
	{Long: "older-ctime", Arg: requiredArg}, {Long: "older-ctime-than", Arg: requiredArg},
	{Long: "older-mtime", Arg: requiredArg}, {Long: "older-mtime-than", Arg: requiredArg},
	{Long: "older-than", Arg: requiredArg}, {Long: "one-file-system"}, {Long: "options", Arg: requiredArg},
	{Long: "owner", Arg: requiredArg}, {Long: "passphrase", Arg: requiredArg}, {Long: "posix"},
	{Long: "preserve-permissions"}, {Long: "read-full-blocks"}, {Long: "read-sparse"}, {Long: "safe-writes"},
	{Long: "same-owner"}, {Long: "same-permissions"}, {Long: "strip-components", Arg: requiredArg},
	{Long: "to-stdout"}, {Long: "totals"}, {Long: "uid", Arg: requiredArg}, {Long: "uname", Arg: requiredArg},
	{Long: "uncompress"}, {Long: "unlink"}, {Long: "unlink-first"}, {Long: "update"},
	{Long: "use-compress-program", Arg: requiredArg, Risk: riskTarCompress, Rule: ruleTarExecOption},
	{Long: "uuencode"}, {Long: "verbose"}, {Long: "version"}, {Long: "xattrs"}, {Long: "xz"}, {Long: "zstd"},
})

// bsdtarShortOpts maps each short letter to a pseudo-row so events can
// name it; only the argument kind matters (no bsdtar short option runs a
// program: -I is --files-from there).
var bsdtarShortOpts = func() map[byte]*option {
	m := make(map[byte]*option)
	for i := 0; i < len(bsdtarShort); i++ {
		c := bsdtarShort[i]
		if c == ':' {
			continue
		}
		o := &option{Short: c}
		if i+1 < len(bsdtarShort) && bsdtarShort[i+1] == ':' {
			o.Arg = requiredArg
		}
		m[c] = o
	}
	return m
}()

// bsdtarLookup is bsdtar's long option match: exact name wins, otherwise
// exactly one prefix match; two or more prefix matches are ambiguous.
func bsdtarLookup(name string) (opt *option, abbrev bool, amb []*option) {
	var matches []*option
	opts := bsdtarLong.rows()
	for i := range opts {
		o := &opts[i]
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
func bsdtarParse(argv []string) parsed {
	p := parsed{End: -1, Events: make([]event, 0, len(argv))}
	i := 1
	if len(argv) > 1 && !strings.HasPrefix(argv[1], "-") {
		word := argv[1]
		i = 2
		for j := 0; j < len(word); j++ {
			c := word[j]
			name := "-" + string(c)
			opt := bsdtarShortOpts[c]
			if opt == nil {
				p.Err = &parseError{Kind: parseUnknown, Index: 1, Word: word, Name: name, Program: bsdtarProgram}
				return p
			}
			ev := event{Kind: optionEvent, Opt: opt, Index: 1, Word: word, Name: name, OldStyle: true, ValueIndex: -1}
			if opt.Arg == requiredArg {
				if i >= len(argv) {
					p.Err = &parseError{Kind: parseMissingValue, Index: 1, Word: word, Name: name, Program: bsdtarProgram}
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

func bsdtarCluster(p *parsed, argv []string, i int) int {
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
			p.Err = &parseError{Kind: parseUnknown, Index: i, Word: w, Name: "-" + string(c), Program: bsdtarProgram}
			return i
		}
		if opt.Arg == noArg {
			p.Events = append(p.Events, event{Kind: optionEvent, Opt: opt, Index: i, Word: w, Name: "-" + string(c), Cluster: len(w) > 2, ValueIndex: -1})
			continue
		}
		value, vi := w[j+1:], i
		if value == "" {
			if i+1 >= len(argv) {
				p.Err = &parseError{Kind: parseMissingValue, Index: i, Word: w, Name: "-" + string(c), Program: bsdtarProgram}
				return i
			}
			vi = i + 1
			value = argv[vi]
		}
		if c == 'W' {
			return bsdtarLongOpt(p, argv, i, vi, value, "-W ", "-W")
		}
		p.Events = append(p.Events, event{Kind: optionEvent, Opt: opt, Index: i, Word: w, Name: "-" + string(c), Cluster: len(w) > 2,
			Value: value, HasValue: true, ValueIndex: vi})
		return vi
	}
	return i
}

func bsdtarLongOpt(p *parsed, argv []string, idx, at int, spec, prefix, via string) int {
	name, value, hasValue := strings.Cut(spec, "=")
	opt, abbrev, amb := bsdtarLookup(name)
	word := argv[idx]
	spelled := prefix + name
	switch {
	case amb != nil:
		p.Err = &parseError{Kind: parseAmbiguous, Index: idx, Word: word, Name: spelled, Candidates: amb, Program: bsdtarProgram}
		return at
	case opt == nil:
		p.Err = &parseError{Kind: parseUnknown, Index: idx, Word: word, Name: spelled, Program: bsdtarProgram}
		return at
	}
	ev := event{Kind: optionEvent, Opt: opt, Index: idx, Word: word, Name: spelled, Abbrev: abbrev, ValueIndex: -1, Via: via}
	switch {
	case opt.Arg == noArg && hasValue:
		p.Err = &parseError{Kind: parseUnexpectedValue, Index: idx, Word: word, Name: spelled, Program: bsdtarProgram}
	case hasValue:
		ev.Value, ev.HasValue, ev.ValueIndex = value, true, at
	case opt.Arg == requiredArg:
		if at+1 >= len(argv) {
			p.Err = &parseError{Kind: parseMissingValue, Index: idx, Word: word, Name: spelled, Program: bsdtarProgram}
		} else {
			at++
			ev.Value, ev.HasValue, ev.ValueIndex = argv[at], true, at
		}
	}
	p.Events = append(p.Events, ev)
	return at
}
