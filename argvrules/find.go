package argvrules

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// Policy names of the find family (the reference server's catalogue).
const (
	findExecPolicy    = "find -exec"
	findOutputPolicy  = "find file output"
	findGrammarPolicy = "find expression grammar"
)

// findPrimary is one word of find's expression language.
type findPrimary struct {
	nargs int          // arguments consumed after the primary; they are data
	rule  refusal.Rule // non-zero: refused
	risk  string
}

// findPrimaries is the GNU findutils 4.9 expression table (find/parser.c
// parse_table: options, positional options, punctuation, tests and
// actions), written from reading that source, keyed by the word without
// its leading "-". nargs counts the arguments each primary consumes;
// -newerXY is handled in findLookup. The exec family (-exec, -execdir,
// -ok, -okdir) and the file-writing actions (-fprint, -fprint0, -fprintf,
// -fls) are refused; -printf, -ls, -print0, -delete and the tests are
// allowed.
var findPrimaries = map[string]findPrimary{
	// options
	"d": {}, "depth": {}, "files0-from": {nargs: 1}, "ignore_readdir_race": {},
	"maxdepth": {nargs: 1}, "mindepth": {nargs: 1}, "mount": {}, "noleaf": {},
	"noignore_readdir_race": {}, "xdev": {}, "help": {}, "-help": {},
	"version": {}, "-version": {},
	// positional options
	"daystart": {}, "follow": {}, "nowarn": {}, "regextype": {nargs: 1}, "warn": {},
	// punctuation spelled as words
	"not": {}, "a": {}, "and": {}, "o": {}, "or": {},
	// tests
	"amin": {nargs: 1}, "anewer": {nargs: 1}, "atime": {nargs: 1}, "cmin": {nargs: 1},
	"cnewer": {nargs: 1}, "ctime": {nargs: 1}, "context": {nargs: 1}, "empty": {},
	"executable": {}, "false": {}, "fstype": {nargs: 1}, "gid": {nargs: 1},
	"group": {nargs: 1}, "ilname": {nargs: 1}, "iname": {nargs: 1}, "inum": {nargs: 1},
	"ipath": {nargs: 1}, "iregex": {nargs: 1}, "iwholename": {nargs: 1}, "links": {nargs: 1},
	"lname": {nargs: 1}, "mmin": {nargs: 1}, "mtime": {nargs: 1}, "name": {nargs: 1},
	"newer": {nargs: 1}, "nogroup": {}, "nouser": {}, "path": {nargs: 1},
	"perm": {nargs: 1}, "readable": {}, "regex": {nargs: 1}, "samefile": {nargs: 1},
	"size": {nargs: 1}, "true": {}, "type": {nargs: 1}, "uid": {nargs: 1},
	"used": {nargs: 1}, "user": {nargs: 1}, "wholename": {nargs: 1}, "writable": {},
	"xtype": {nargs: 1},
	// actions
	"delete": {}, "ls": {}, "print": {}, "print0": {}, "printf": {nargs: 1},
	"prune": {}, "quit": {},
	"exec":    {rule: ruleFindExec, risk: "runs a program for each file"},
	"execdir": {rule: ruleFindExec, risk: "runs a program for each file"},
	"ok":      {rule: ruleFindExec, risk: "runs a program for each file after reading a confirmation from stdin"},
	"okdir":   {rule: ruleFindExec, risk: "runs a program for each file after reading a confirmation from stdin"},
	"fprint":  {rule: ruleFindFileOutput, risk: "writes a file named by its argument"},
	"fprint0": {rule: ruleFindFileOutput, risk: "writes a file named by its argument"},
	"fprintf": {rule: ruleFindFileOutput, risk: "writes a file named by its argument"},
	"fls":     {rule: ruleFindFileOutput, risk: "writes a file named by its argument"},
}

// findLookup resolves an expression word such as "-name" or "-newermt".
func findLookup(word string) (findPrimary, bool) {
	switch word {
	case "!", "(", ")", ",":
		return findPrimary{}, true
	}
	if len(word) < 2 || word[0] != '-' {
		return findPrimary{}, false
	}
	if p, ok := findPrimaries[word[1:]]; ok {
		return p, true
	}
	// -newerXY: X in aBcm, Y in aBcmt (find/parser.c parse_newerXY).
	if len(word) == 8 && strings.HasPrefix(word, "-newer") &&
		strings.IndexByte("aBcm", word[6]) >= 0 && strings.IndexByte("aBcmt", word[7]) >= 0 {
		return findPrimary{nargs: 1}, true
	}
	return findPrimary{}, false
}

// findLooksLikeExpression is GNU find's rule for where the start points
// end: "-x..." always, "!" and "(" always, ")" and "," only after the
// first expression word.
func findLooksLikeExpression(arg string, leading bool) bool {
	switch {
	case len(arg) > 1 && arg[0] == '-':
		return true
	case arg == "!" || arg == "(":
		return true
	case arg == ")" || arg == ",":
		return !leading
	}
	return false
}

// checkFind is the recognizer of the find family (find, gfind, bfind). It
// follows GNU findutils 4.9: leading options -H, -L, -P, -D LIST, -OLEVEL
// and "--", then start points, then the expression, in which every word
// must be a known primary (allowlist grammar) and the arguments a primary
// consumes are data: "find . -name -exec" is allowed. find has no
// end-of-options marker inside the expression, so a "--" there is an
// unknown primary. Refused wherever they appear as primaries: -exec,
// -execdir, -ok, -okdir ("find -exec") and -fprint, -fprint0, -fprintf,
// -fls ("find file output").
func checkFind(argv []string, ctx Context) *Rejection {
	i := 1
leading:
	for ; i < len(argv); i++ {
		switch a := argv[i]; {
		case a == "-H" || a == "-L" || a == "-P" || strings.HasPrefix(a, "-O"):
		case a == "--":
			i++
			break leading
		case a == "-D":
			if i+1 >= len(argv) {
				return ruleFindMissingValue.Reject(i, a, "argument %d %q requires a debug option list", i, a)
			}
			i++
		default:
			break leading
		}
	}
	for i < len(argv) && !findLooksLikeExpression(argv[i], true) {
		i++ // start points
	}
	for ; i < len(argv); i++ {
		w := argv[i]
		p, ok := findLookup(w)
		if !ok {
			return ruleFindUnknownOption.Reject(i, w,
				"argument %d %q is not a GNU find 4.9 primary (only known primaries are allowed)", i, w)
		}
		if p.rule.Code != "" {
			return p.rule.Reject(i, w, "argument %d %q is a find primary, which %s", i, w, p.risk)
		}
		if i+p.nargs >= len(argv) {
			return ruleFindMissingValue.Reject(i, w, "argument %d %q requires %d argument(s)", i, w, p.nargs)
		}
		i += p.nargs
	}
	return nil
}
