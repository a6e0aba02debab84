package argvrules

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// nodeOutputTable lists a node package manager's options whose value is
// a directory (or file) it writes into or runs in, for containment to the
// working directory.
type nodeOutputTable struct {
	family string
	// keys maps each long option (without "--") to the kind of path it
	// names.
	keys map[string]redirect.Kind
	// abbrev is true for nopt-based parsers (npm, pnpm): a prefix of at
	// least three bytes of a key is read as the key (nopt expands unique
	// abbreviations; ambiguous ones are included conservatively), and
	// "-name" and "--config.name" spell "--name".
	abbrev bool
	// exact are options that are prefixes of a key but name another
	// option exactly (pnpm --global, a prefix of --global-dir).
	exact map[string]bool
	// shortC is true when -C is a shorthand of a key (npm --prefix, pnpm
	// --dir), also inside a shorthand cluster (-gC DIR).
	shortC bool
}

// npmOutputs are npm 10/11's path-typed keys (@npmcli/config
// definitions): --prefix (-C) is where npm install puts node_modules and
// where run and pack operate, --cache the package cache, --logs-dir the
// debug logs, --pack-destination the tarballs of npm pack.
var npmOutputs = &nodeOutputTable{family: "npm", abbrev: true, shortC: true, keys: map[string]redirect.Kind{
	"cache": redirect.Dir, "logs-dir": redirect.Dir, "pack-destination": redirect.Dir, "prefix": redirect.Dir,
}}

// pnpmOutputs are pnpm 9's directory options ("pnpm help", settings):
// -C/--dir runs pnpm as if started there, and the store, virtual store,
// modules, global, cache, state and lockfile directories and pnpm pack's
// destination are written.
var pnpmOutputs = &nodeOutputTable{family: "pnpm", abbrev: true, shortC: true,
	exact: map[string]bool{"global": true},
	keys: map[string]redirect.Kind{
		"dir": redirect.Dir, "store-dir": redirect.Dir, "virtual-store-dir": redirect.Dir, "modules-dir": redirect.Dir,
		"global-dir": redirect.Dir, "global-bin-dir": redirect.Dir, "cache-dir": redirect.Dir, "state-dir": redirect.Dir,
		"lockfile-dir": redirect.Dir, "pack-destination": redirect.Dir,
	}}

// yarnOutputs are yarn 1.22 (commander) and yarn 4 (clipanion) path
// options; neither parser abbreviates. --cwd runs yarn as if started
// there; yarn pack writes --filename (1.22) or --out (4).
var yarnOutputs = &nodeOutputTable{family: "yarn", keys: map[string]redirect.Kind{
	"cwd": redirect.Dir, "cache-folder": redirect.Dir, "modules-folder": redirect.Dir, "global-folder": redirect.Dir,
	"link-folder": redirect.Dir, "filename": redirect.File, "out": redirect.File,
}}

// key returns the key an option word selects, if any.
func (t *nodeOutputTable) key(w string) (string, bool) {
	if !strings.HasPrefix(w, "--") && (!t.abbrev || len(w) < 4 || w[0] != '-') {
		return "", false
	}
	name, _, _, ok := longName(w)
	if !ok {
		return "", false
	}
	if _, ok := t.keys[name]; ok {
		return name, true
	}
	if !t.abbrev {
		return "", false
	}
	name = strings.ReplaceAll(strings.TrimPrefix(strings.ToLower(name), "config."), "_", "-")
	if _, ok := t.keys[name]; ok {
		return name, true
	}
	if len(name) < 3 || t.exact[name] {
		return "", false
	}
	for _, k := range sortedKeys(t.keys) {
		if strings.HasPrefix(k, name) {
			return k, true
		}
	}
	return "", false
}

// nodeOutputValue is one reading of an option's value: attached to the
// word or the next argv element.
type nodeOutputValue struct {
	value    string
	attached bool
	kind     redirect.Kind
}

// values returns every reading of the value argv[j] gives a key.
func (t *nodeOutputTable) values(argv []string, j int) []nodeOutputValue {
	w := argv[j]
	next := func(kind redirect.Kind) []nodeOutputValue {
		if j+1 < len(argv) {
			return []nodeOutputValue{{argv[j+1], false, kind}}
		}
		return nil
	}
	if k, ok := t.key(w); ok {
		if _, v, hasValue, _ := longName(w); hasValue {
			return []nodeOutputValue{{v, true, t.keys[k]}}
		}
		return next(t.keys[k])
	}
	c := strings.IndexByte(w, 'C')
	if !t.shortC || c < 1 || w[0] != '-' || strings.HasPrefix(w, "--") {
		return nil
	}
	// -C DIR, -gC DIR (nopt splits shorthand clusters) and -CDIR: every
	// reading is checked.
	out := next(redirect.Dir)
	if rest := w[c+1:]; rest != "" {
		out = append(out, nodeOutputValue{rest, true, redirect.Dir})
	}
	return out
}

// scan contains every output option's value to the working directory,
// in any position before "--" (after it, words belong to a script).
func (t *nodeOutputTable) scan(argv []string, ctx Context) *Rejection {
	for j := 1; j < len(argv); j++ {
		w := argv[j]
		if w == "--" {
			return nil
		}
		for _, v := range t.values(argv, j) {
			word := w
			if !v.attached {
				word += " " + v.value
			}
			if redirect.Harmless(v.value) && v.kind == redirect.File {
				continue
			}
			if r := outputPath(ctx, t.family, j, word, v.value, v.kind); r != nil {
				return r
			}
		}
	}
	return nil
}
