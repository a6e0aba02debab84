package sandbox

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
)

// Stage is one pipeline stage as the runner starts it.
type Stage struct {
	// Path is the resolved program.
	Path string
	// Argv is the stage's argv, argv[0] as the client sent it; it selects
	// the program's family (argvrules.FamilyOf of its base name) and the
	// Config.Exec entry (exact match).
	Argv []string
	// Writable are extra writable trees for this call only (its private
	// temporary directory).
	Writable []string
}

// profile is what a stage of one program may execute: computed from the
// program's family and Config.Exec, once per program, PATH and file.
type profile struct {
	exec []string // files and trees: the program, helpers, interpreters
	run  bool     // executes beneath the read and writable trees
	fam  *argvrules.Family
}

// profiles caches profiles; a program replaced on disk (new inode or
// modification time) gets a new one.
type profiles struct {
	m sync.Map // profileKey → profileEntry
}

type profileKey struct{ argv0, path, pathList string }

type profileEntry struct {
	id fileID
	p  profile
}

// fileID identifies a file's current content well enough to notice a
// package upgrade.
type fileID struct {
	dev, ino uint64
	mtime    int64
}

// get returns the profile of the stage's program.
func (ps *profiles) get(argv0, prog, pathList string, extra map[string][]string) profile {
	key := profileKey{argv0, prog, pathList}
	id := statID(prog)
	if e, ok := ps.m.Load(key); ok && e.(profileEntry).id == id {
		return e.(profileEntry).p
	}
	p := newProfile(argv0, prog, pathList, extra)
	ps.m.Store(key, profileEntry{id: id, p: p})
	return p
}

// newProfile resolves the family's Exec entries and the operator's
// Config.Exec entries in pathList and adds every executable's
// interpreters.
func newProfile(argv0, prog, pathList string, extra map[string][]string) profile {
	p := profile{fam: argvrules.FamilyOf(path.Base(argv0))}
	entries := extra[argv0]
	if p.fam != nil {
		p.run = p.fam.RunsPrograms
		if !p.run {
			entries = append(slices.Clone(p.fam.Exec), entries...)
		}
	}
	if slices.Contains(entries, ExecAny) {
		p.run = true
	}
	files := []string{prog}
	for _, e := range entries {
		if e == ExecAny {
			continue
		}
		if filepath.IsAbs(e) {
			if _, err := os.Stat(e); err == nil {
				files = append(files, e)
			}
			continue
		}
		if f, err := childenv.LookPath(e, pathList, "/"); err == nil {
			files = append(files, f)
		}
	}
	for _, f := range slices.Clone(files) {
		files = append(files, interpreters(f, pathList)...)
	}
	slices.Sort(files)
	p.exec = slices.Compact(files)
	return p
}

// network reports whether a stage of fam with argv may use TCP under
// the policy mode (Config.Network).
func network(mode string, fam *argvrules.Family, argv []string) bool {
	switch {
	case mode == NetworkAllow:
		return true
	case mode == NetworkDeny || fam == nil:
		return false
	case fam.Network.Always:
		return true
	}
	for _, w := range argv[1:] {
		if w == "--" {
			break
		}
		if slices.Contains(fam.Network.Fetch, w) {
			return true
		}
	}
	return false
}

// cacheUse is one cache directory a stage writes, and the environment
// entry that points the program at it ("" when the stage's environment
// names it already).
type cacheUse struct {
	dir, env string
}

// caches returns fam's cache directories beneath root: the directory a
// variable of env names when it is absolute (the operator passed it),
// otherwise root/Cache.Dir with an entry setting the variable.
func caches(fam *argvrules.Family, env []string, root string) []cacheUse {
	if fam == nil {
		return nil
	}
	var out []cacheUse
	for _, c := range fam.Caches {
		if v, ok := lookupEnv(env, c.Env); ok && filepath.IsAbs(v) {
			out = append(out, cacheUse{dir: filepath.Clean(v)})
			continue
		}
		dir := filepath.Join(root, c.Dir)
		out = append(out, cacheUse{dir: dir, env: c.Env + "=" + dir})
	}
	return out
}

// homeConfig returns fam's configuration files beneath the stage's HOME,
// when its environment has an absolute HOME.
func homeConfig(fam *argvrules.Family, env []string) []string {
	home, ok := lookupEnv(env, "HOME")
	if fam == nil || !ok || !filepath.IsAbs(home) {
		return nil
	}
	out := make([]string, len(fam.HomeConfig))
	for i, rel := range fam.HomeConfig {
		out[i] = filepath.Join(home, rel)
	}
	return out
}

// lookupEnv returns the first value of name in env, the one the child's
// getenv sees.
func lookupEnv(env []string, name string) (string, bool) {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v, true
		}
	}
	return "", false
}
