package argvrules

import (
	"path"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

const pygmentizePolicy = "pygmentize external code or output"

// pygmentize (Pygments 2.x, pygments/cmdline.py main) parses with
// argparse: short options cluster ("-gx"), a value-taking letter takes
// the rest of its word or the next word, long options are --json and
// --help (argparse accepts their unique prefixes). These letters take a
// value (-H takes two, -L any number of words, which it only lists):
var pygmentizeValue = map[byte]int{'l': 1, 'F': 1, 'f': 1, 'O': 1, 'P': 1, 'o': 1, 'S': 1, 'N': 1, 'a': 1, 'H': 2, 'L': 0}

// pygmentizeFlags take no value.
const pygmentizeFlags = "gvsCVhx"

// checkPygmentize is the recognizer of pygmentize. -x makes it import the
// lexer or formatter that -l/-f name as a Python file ("-l ./lexer.py -x",
// "-f fmt.py:MyFormatter -x": cmdline.py load_lexer_from_file,
// load_formatter_from_file), running that file's code in-process; it is
// refused in every spelling (in a cluster of flags too). -o OUTPUTFILE,
// and the HTML formatter's cssfile option (-O cssfile=F, -P cssfile=F),
// which writes the style sheet there (relative to the output file's
// directory), are output paths, contained. Words after "--" are files.
func checkPygmentize(argv []string, ctx Context) *Rejection {
	var out string
	var css []int // argv indices of cssfile option values
	var cssVals []string
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		if w == "--" {
			break
		}
		if len(w) < 2 || w[0] != '-' || strings.HasPrefix(w, "--") {
			continue
		}
		for j := 1; j < len(w); j++ {
			c := w[j]
			if c == 'x' {
				return rulePygmentizeLoadCode.Reject(i, w,
					"argument %d %q has -x, which makes pygmentize import the lexer or formatter file that -l or -f names and run its code", i, w)
			}
			n, takes := pygmentizeValue[c]
			if !takes {
				if strings.IndexByte(pygmentizeFlags, c) < 0 {
					break // argparse stops with an error
				}
				continue
			}
			v, consumed := w[j+1:], 0
			if v == "" && n > 0 && i+1 < len(argv) {
				v, consumed = argv[i+1], 1
			}
			if c == 'H' {
				consumed = min(2-min(len(w[j+1:]), 1), len(argv)-1-i)
			}
			switch c {
			case 'o':
				out = v
				if rej := outputPath(ctx, "pygmentize", i, pygWord(argv, i, i+consumed), v, redirect.File); rej != nil {
					return rej
				}
			case 'O', 'P':
				for _, kv := range pygmentizeOptions(c, v) {
					if k, val, _ := strings.Cut(kv, "="); strings.TrimSpace(k) == "cssfile" {
						css, cssVals = append(css, i), append(cssVals, strings.TrimSpace(val))
					}
				}
			}
			i += consumed
			break
		}
	}
	for k, v := range cssVals {
		for _, p := range []string{v, path.Join(path.Dir(out), v)} {
			if out == "" && p != v || v == "" {
				continue
			}
			if rej := outputPath(ctx, "pygmentize", css[k], argv[css[k]], p, redirect.File); rej != nil {
				return rej
			}
		}
	}
	return nil
}

// pygmentizeOptions splits an -O value at commas (cmdline.py
// _parse_options) or keeps a -P value whole.
func pygmentizeOptions(letter byte, v string) []string {
	if letter == 'P' {
		return []string{v}
	}
	return strings.Split(v, ",")
}

func pygWord(argv []string, i, vi int) string {
	if vi != i {
		return argv[i] + " " + argv[vi]
	}
	return argv[i]
}
