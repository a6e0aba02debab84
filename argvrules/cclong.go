package argvrules

import (
	"sort"
	"strings"
)

// GCC's driver reads "--NAME" options through a table of aliases before
// anything else (gcc/gcc.cc option_map, GCC 12; clang's Options.td has the
// same spellings as aliases): "--output FILE" is -o, "--prefix DIR" -B,
// "--for-linker W" -Xlinker, and any "--NAME" the table does not name is
// -fNAME ("--plugin=P" is -fplugin=P). A unique abbreviation of a table
// entry stands for it. ccLong rewrites those spellings to the short form
// checkCC judges, so no alias reaches the driver unjudged.

// ccAlias is one entry of the driver's table: the short option, and how
// it takes its value (ccArgNone, ccArgSeparate: the next word or after
// "=", ccArgJoined: appended to short).
type ccAlias struct {
	short string
	arg   int
}

const (
	ccArgNone = iota
	ccArgSeparate
	ccArgJoined
)

// ccAliases are the entries of option_map that lead to an option checkCC
// judges (outputs, directories, programs, passed words) or that take a
// value; the others ("--verbose", "--pedantic") need no rewriting.
var ccAliases = map[string]ccAlias{
	"output": {"-o", ccArgSeparate}, "prefix": {"-B", ccArgSeparate}, "for-linker": {"-Xlinker", ccArgSeparate},
	"for-assembler": {"-Xassembler", ccArgSeparate}, "dumpbase": {"-dumpbase", ccArgSeparate}, "dumpdir": {"-dumpdir", ccArgSeparate},
	"specs": {"-specs=", ccArgJoined}, "write-dependencies": {"-MD", ccArgNone}, "write-user-dependencies": {"-MMD", ccArgNone},
	"save-temps": {"-save-temps", ccArgNone}, "include": {"-include", ccArgSeparate}, "imacros": {"-imacros", ccArgSeparate},
	"include-directory": {"-I", ccArgJoined}, "include-directory-after": {"-idirafter", ccArgSeparate},
	"include-prefix": {"-iprefix", ccArgSeparate}, "include-with-prefix": {"-iwithprefix", ccArgSeparate},
	"include-with-prefix-before": {"-iwithprefixbefore", ccArgSeparate}, "include-with-prefix-after": {"-iwithprefix", ccArgSeparate},
	"language": {"-x", ccArgSeparate}, "library-directory": {"-L", ccArgSeparate}, "define-macro": {"-D", ccArgJoined},
	"undefine-macro": {"-U", ccArgJoined}, "entry": {"-e", ccArgSeparate}, "force-link": {"-u", ccArgSeparate},
	"sysroot": {"--sysroot=", ccArgJoined}, "param": {"--param", ccArgSeparate}, "assert": {"-A", ccArgSeparate},
	"std": {"-std=", ccArgJoined}, "machine": {"-m", ccArgJoined}, "print-file-name": {"-print-file-name=", ccArgJoined},
	"print-prog-name": {"-print-prog-name=", ccArgJoined}, "encoding": {"-fencoding=", ccArgJoined},
	"resource": {"-fcompile-resource=", ccArgJoined}, "output-class-directory": {"-foutput-class-dir=", ccArgJoined},
}

// ccOwnLong are options spelt with two dashes that the drivers take as
// they are (clang's --ld-path= ..., which checkCC judges by name; --target).
var ccOwnLong = []string{"--ld-path=", "--gcc-toolchain=", "--gcc-install-dir=", "--target=", "--target", "--sysroot", "--specs", "--entry", "--param", "--help", "--version", "--dependency-file"}

var ccAliasNames = func() []string {
	names := make([]string, 0, len(ccAliases))
	for n := range ccAliases {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}()

// ccLong rewrites argv[i], a "--NAME[=VALUE]" option, to the option the
// driver reads it as, with its separate value (consumed: the index of
// the word taken, or -1). ok is false for an abbreviation that names
// several entries, which the driver refuses too and this check cannot read.
func ccLong(argv []string, i int) (w, sep string, consumed int, ok bool) {
	w = argv[i]
	for _, own := range ccOwnLong {
		if w == own || (strings.HasSuffix(own, "=") && strings.HasPrefix(w, own)) {
			return w, "", -1, true
		}
	}
	name, value, hasValue := strings.Cut(w[2:], "=")
	alias, found := ccAliases[name]
	if !found {
		var matches []string
		for _, n := range ccAliasNames {
			if strings.HasPrefix(n, name) && name != "" {
				matches = append(matches, n)
			}
		}
		switch len(matches) {
		case 0:
			return "-f" + w[2:], "", -1, true // option_map's "--" → "-f" entry
		case 1:
			alias = ccAliases[matches[0]]
		default:
			return w, "", -1, false
		}
	}
	switch alias.arg {
	case ccArgNone:
		return alias.short, "", -1, true
	case ccArgJoined:
		if !hasValue && i+1 < len(argv) {
			return alias.short + argv[i+1], "", i + 1, true
		}
		return alias.short + value, "", -1, true
	}
	if hasValue {
		return alias.short, value, -1, true
	}
	if i+1 < len(argv) {
		return alias.short, argv[i+1], i + 1, true
	}
	return alias.short, "", -1, true
}
