package argvrules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// gawk's in-place editing is the include file inplace.awk that ships with
// gawk (-i inplace, --include=inplace, -i inplace.awk): its BEGINFILE rule
// calls the inplace extension, which writes each input file's output to
// FILE.gawk.XXXXXX next to FILE and renames it over FILE, first linking
// FILE to FILE+SUFFIX when a suffix is set (gawk 5.x extension/inplace.c,
// awklib/eg/lib/inplace.awk). So in-place editing writes the file operands
// and their backups, and nothing else, unless the program steers it: the
// suffix (inplace::suffix, the older INPLACE_SUFFIX, awk::INPLACE_SUFFIX)
// and the extension's own state (inplace::filename names the file the
// next rename writes) are variables a program or an assignment can set.
//
// The include is found through AWKPATH, whose default (".:/usr/share/awk")
// searches the working directory first: a request-written ./inplace or
// ./inplace.awk would be loaded instead. The awk family's Env therefore
// gives its stages an AWKPATH of gawk's system directories only
// (awkSystemPath), and the recognizer also refuses the include while the
// working directory holds such a file.

// awkSystemPath is the AWKPATH awk stages get: gawk's pkgdatadir for the
// usual prefixes (Debian, Fedora, Alpine, Arch: /usr/share/awk; source
// builds and FreeBSD: /usr/local/share/awk; Homebrew; MacPorts), never a
// relative directory.
const awkSystemPath = "/usr/share/awk:/usr/local/share/awk:/opt/homebrew/share/awk:/opt/local/share/awk"

// awkPrograms are the awk family's executable names.
var awkPrograms = []string{"awk", "gawk", "mawk", "nawk", "original-awk", "onetrue-awk", "bwk-awk", "goawk"}

// awkEnv is the awk family's Env (see awkSystemPath).
func awkEnv(Workspace) []string { return []string{"AWKPATH=" + awkSystemPath} }

// isInplaceInclude reports whether an -i/--include value names gawk's
// inplace library (gawk tries the name, then the name with ".awk").
func isInplaceInclude(v string) bool { return v == "inplace" || v == "inplace.awk" }

// awkAssignName matches a gawk command-line assignment's name, namespace
// included (gawk 5 main.c arg_assign accepts "ns::name").
var awkAssignName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)?$`)

// inplaceSuffixVar reports whether an assigned name is the in-place backup
// suffix; other names of the inplace namespace steer the extension.
func inplaceVar(name string) (suffix, steers bool) {
	name = strings.TrimPrefix(name, "awk::")
	switch {
	case name == "INPLACE_SUFFIX", name == "inplace::suffix":
		return true, false
	case name == "inplace::enable":
		return false, false
	}
	return false, strings.HasPrefix(name, "inplace::")
}

// awkInplace collects what in-place editing will write in a gawk reading.
type awkInplace struct {
	include  *event
	files    []event
	suffixes []string // every suffix value an assignment sets, decoded
}

// assignment records a -v value or an operand "name=value"; it refuses
// names that steer the extension.
func (ip *awkInplace) assignment(idx int, word, assign string) *Rejection {
	name, value, ok := strings.Cut(assign, "=")
	if !ok || !awkAssignName.MatchString(name) {
		return nil
	}
	suffix, steers := inplaceVar(name)
	if steers {
		return ruleAwkInplace.Reject(idx, word,
			"argument %d %q sets %s, the state of gawk's in-place extension (it names the file the next rename writes), which only inplace::suffix and inplace::enable may be set of", idx, word, name)
	}
	if suffix {
		ip.suffixes = append(ip.suffixes, awkUnescape(value, 2), awkUnescape(value, -1))
	}
	return nil
}

// inplaceSteer matches program text that reads or sets the in-place
// state: the suffix variables, the inplace namespace and @namespace
// (inside which plain names are the extension's). It is searched in the
// raw text, strings and regexes included, so no lexer mistake hides it.
var inplaceSteer = lazyre.New(`INPLACE_SUFFIX|inplace\s*::|@\s*namespace`)

// check refuses what in-place editing would write outside the working
// directory: program text that steers the extension, an include that a
// file in the working directory would replace, and file operands or
// their backups that leave it (ProbeWrite: relative, no "..", no symlink
// leading out, not a configuration file by role).
func (ip *awkInplace) check(argv []string, programs []int, ctx Context) *Rejection {
	inc := ip.include
	if !slices.Contains(awkPrograms, baseName(argv)) {
		return ruleAwkInplace.Reject(inc.Index, inc.Word,
			"%s, gawk's in-place editing, which is admitted only when argv[0] is named as an awk program (awk, gawk): the family's AWKPATH, which keeps the working directory out of the include search, is given by that name", describeEvent(inc))
	}
	for _, name := range []string{"inplace", "inplace.awk"} {
		if ctx.Dir == nil {
			break
		}
		if _, err := ctx.Dir.Root().Lstat(name); err == nil {
			return ruleAwkInplace.Reject(inc.Index, inc.Word,
				"%s, but the working directory holds %q, which gawk's default AWKPATH (\".:/usr/share/awk\") would load instead of gawk's inplace.awk", describeEvent(inc), name)
		}
	}
	for _, idx := range programs {
		if m := inplaceSteer.FindStringIndex(argv[idx]); m != nil {
			return ruleAwkInplace.Reject(idx, argv[idx],
				"argument %d (awk program), at byte %d (%q): with in-place editing, the program may not use the in-place state (INPLACE_SUFFIX, inplace::..., @namespace), which decides the files the extension renames", idx, m[0], argv[idx][m[0]:m[1]])
		}
	}
	for i := range ip.files {
		f := &ip.files[i]
		if f.Word == "" || f.Word == "-" {
			continue // inplace.c invalid_filename: not edited
		}
		if err := redirect.ProbeWrite(ctx.Dir, f.Word, redirect.File); err != nil {
			return ip.reject(f, f.Word, err)
		}
		for _, s := range ip.suffixes {
			if s == "" {
				continue
			}
			if err := redirect.ProbeWrite(ctx.Dir, f.Word+s, redirect.File); err != nil {
				return ip.reject(f, f.Word+s, err)
			}
		}
	}
	return nil
}

func (ip *awkInplace) reject(f *event, path string, err error) *Rejection {
	what := fmt.Sprintf("gawk's in-place editing (argument %d %q) rewrites it", ip.include.Index, ip.include.Word)
	if path != f.Word {
		what = fmt.Sprintf("gawk's in-place editing (argument %d %q) links it to the backup %q", ip.include.Index, ip.include.Word, path)
	}
	return familyRule("awk", kindOutputPath, "output path outside the working directory").Reject(f.Index, f.Word,
		"argument %d %q is an input file, and %s, which must stay inside the working directory (%s)", f.Index, f.Word, what, err.Error())
}
