package argvrules

import (
	"path"
	"strings"
)

// awkDialect is how one awk implementation, in one mode, tokenizes a
// program: after which identifiers and operators a "/" starts a regex
// literal, and whether gawk's extensions (/inet special files) exist. It
// matters because a keyword in one dialect is a plain variable in another:
// "case / 1 ... | "cmd" ... 1 /" is a regex in default gawk and a
// division followed by a pipe in mawk, BusyBox awk and gawk --posix.
type awkDialect struct {
	name string
	// regexAfter are the keywords after which "/" starts a regex literal;
	// every other identifier is an operand, after which it divides (the
	// safe reading: a division exposes the text a regex would hide).
	regexAfter map[string]bool
	// eitherAfter are identifiers after which the grammar decides; both
	// readings are checked.
	eitherAfter map[string]bool
	// punct gives the role of "/" after ")", "++" and "--"; after "]" it
	// divides and after any other operator it starts a regex.
	punct map[string]awkSlashRole
	// gawk: /inet network files, run-time file names and ARGV are checked.
	gawk bool
}

// words builds a set.
func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// awkPOSIXKeywords are the keywords of every awk (POSIX XCU awk, Grammar:
// the reserved words, plus nextfile, now in POSIX 2024), after which a
// "/" can only begin a regex.
const awkPOSIXKeywords = "BEGIN END break continue delete do else exit for function if in next nextfile print printf return while"

// gawkSlashPunct: gawk's scanner is told by the parser whether a regex may
// start (want_regexp), so after ")" (closing "if (...)" or a grouping),
// "++" and "--" either reading is possible.
var gawkSlashPunct = map[string]awkSlashRole{")": slashEither, "++": slashEither, "--": slashEither}

// The dialects, from each implementation's keyword table.
var (
	// gawk 5.2.1 awkgram.y tokentab: GAWKX keywords (case, default,
	// switch, BEGINFILE, ENDFILE) are keywords unless do_traditional;
	// NOT_POSIX ones (func) unless do_posix (check_special).
	awkGawk = &awkDialect{
		name:        "gawk 5.x",
		regexAfter:  words(awkPOSIXKeywords + " func case default switch BEGINFILE ENDFILE"),
		eitherAfter: words("getline length"),
		punct:       gawkSlashPunct,
		gawk:        true,
	}
	// gawk -c/--traditional: GAWKX keywords are names.
	awkGawkTraditional = &awkDialect{
		name:        "gawk 5.x --traditional",
		regexAfter:  words(awkPOSIXKeywords + " func"),
		eitherAfter: words("getline length"),
		punct:       gawkSlashPunct,
		gawk:        true,
	}
	// gawk -P/--posix or POSIXLY_CORRECT (which also sets traditional):
	// func is a name too.
	awkGawkPosix = &awkDialect{
		name:        "gawk 5.x --posix",
		regexAfter:  words(awkPOSIXKeywords),
		eitherAfter: words("getline length"),
		punct:       gawkSlashPunct,
		gawk:        true,
	}
	// mawk 1.3.4 kw.c keywords[] (20200120 and 20260129 snapshots) and
	// scan.c SC_DIV: "/" divides only after a number, string, ")", a name,
	// a regex, "]", a field or getline (can_precede_div), and after "++"
	// or "--" it always starts a regex. Builtins such as length, gsub,
	// match, split and sub are keywords there; case, switch, func are not.
	awkMawk = &awkDialect{
		name:       "mawk 1.3.4",
		regexAfter: words(awkPOSIXKeywords + " gsub length match split sub"),
		punct:      map[string]awkSlashRole{")": slashDivide, "++": slashRegex, "--": slashRegex},
	}
	// BusyBox 1.35–1.37 editors/awk.c tokenlist: the statement keywords,
	// func/function, BEGIN/END and the builtins are words; the parser
	// passes TC_REGEXP to next_token where an operand may start, so after
	// builtins, getline, length, ")" and "++" either is possible. There is
	// no switch/case/default and no BEGINFILE.
	awkBusybox = &awkDialect{
		name:        "BusyBox awk",
		regexAfter:  words(awkPOSIXKeywords + " func"),
		eitherAfter: words("getline length and compl lshift or rshift xor close system fflush atan2 cos exp int log rand sin sqrt srand gensub gsub index match split sprintf sub substr systime strftime mktime tolower toupper"),
		punct:       gawkSlashPunct,
	}
)

// awkDialects are all dialects, for tests and fuzzing.
var awkDialects = []*awkDialect{awkGawk, awkGawkTraditional, awkGawkPosix, awkMawk, awkBusybox}

// awkImpl is an awk implementation, each with its own option grammar.
type awkImpl uint8

const (
	implGawk awkImpl = iota + 1
	implMawk
	implBusybox
)

// awkImplNames maps an executable's basename to its implementation; a
// name with a version suffix (gawk-5.2.1) counts by its prefix.
var awkImplNames = []struct {
	prefix string
	impl   awkImpl
}{{"gawk", implGawk}, {"mawk", implMawk}, {"busybox", implBusybox}}

// awkDialect names the implementations awkImpls picks, for the plan
// (Family.Dialect): "gawk", "mawk", "busybox", or all three joined by
// ",". checkAwk reads Context.Dialect back with awkImplsNamed.
func awkDialectOf(argv0 string, p Program) string {
	var names []string
	for _, i := range awkImpls(argv0, p) {
		names = append(names, awkImplKey[i])
	}
	return strings.Join(names, ",")
}

// awkImplKey is each implementation's name in Context.Dialect.
var awkImplKey = map[awkImpl]string{implGawk: "gawk", implMawk: "mawk", implBusybox: "busybox"}

// awkImplsNamed reads a Context.Dialect awkDialectOf wrote; an unknown
// or empty text gives nil.
func awkImplsNamed(dialect string) []awkImpl {
	var out []awkImpl
	for name := range strings.SplitSeq(dialect, ",") {
		for i, k := range awkImplKey {
			if k == name {
				out = append(out, i)
			}
		}
	}
	return out
}

// awkImpls returns the implementations argv may run: the one the file at
// the end of the resolved chain is (/usr/bin/awk -> /etc/alternatives/awk
// -> /usr/bin/mawk is mawk; awk -> busybox is BusyBox awk), else the one
// argv[0] names (gawk, mawk), else all three: a plain "awk" or "nawk" that
// was not resolved, or resolves to a file of unknown make, may be any.
func awkImpls(argv0 string, p Program) []awkImpl {
	names := p.names()
	if len(names) > 0 {
		if i, ok := awkImplOf(names[len(names)-1]); ok {
			return []awkImpl{i}
		}
		return []awkImpl{implGawk, implMawk, implBusybox}
	}
	if i, ok := awkImplOf(path.Base(argv0)); ok && i != implBusybox {
		return []awkImpl{i}
	}
	return []awkImpl{implGawk, implMawk, implBusybox}
}

func awkImplOf(base string) (awkImpl, bool) {
	for _, n := range awkImplNames {
		if strings.HasPrefix(base, n.prefix) {
			return n.impl, true
		}
	}
	return 0, false
}
