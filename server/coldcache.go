package server

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// coldCache names the first build cache of pl's stages that no build has
// completed into yet (argvrules.Cache.Warm), as NAME=DIR, or "": the
// sandbox's own caches start empty, and the first go vet or go test into
// one compiles the standard library, which takes longer than the default
// timeout on a busy machine. Only the caches of a stage's own family and
// of the families it starts (make's go) count; a cache the stage's
// environment does not name (the sandbox off: the user's own) never does.
// A cache seen warm once stays warm for the server's life: a stage that
// deletes the marker cannot make later calls' default timeout the
// maximum.
func coldCache(pl *plan.Call) string {
	if pl == nil {
		return ""
	}
	for _, st := range pl.Stages {
		for _, fam := range stageFamilies(st.Family) {
			for _, c := range fam.Caches {
				if c.Warm == "" {
					continue
				}
				dir, ok := childenv.Lookup(st.Env, c.Env)
				if !ok || !filepath.IsAbs(dir) {
					continue
				}
				if _, seen := warmCaches.Load(dir); seen {
					continue
				}
				if _, err := os.Stat(filepath.Join(dir, c.Warm)); errors.Is(err, fs.ErrNotExist) {
					return c.Env + "=" + dir
				}
				rememberWarm(dir)
			}
		}
	}
	return ""
}

// warmCaches holds the cache directories coldCache has seen warm, at
// most maxWarmCaches of them: a GOCACHE a call's envs may name (the
// operator's MCP_SHELL_CHILD_ENV_ALLOWLIST) is the request's string, and
// one new warm directory per call would grow the map for the server's
// life. Past the bound a warm cache is stat'ed on each call instead; a
// stage that deletes its marker then gets later calls into it the
// maximum timeout, which any call may ask for itself.
var (
	warmCaches  sync.Map
	warmMu      sync.Mutex
	warmCachesN int
)

// maxWarmCaches bounds warmCaches: the sandbox's own caches and a few
// the operator names are far fewer.
const maxWarmCaches = 256

func rememberWarm(dir string) {
	warmMu.Lock()
	defer warmMu.Unlock()
	if warmCachesN >= maxWarmCaches {
		return
	}
	if _, loaded := warmCaches.LoadOrStore(dir, true); !loaded {
		warmCachesN++
	}
}

// stageFamilies are the family named and the families it starts.
func stageFamilies(name string) []*argvrules.Family {
	if name == "" {
		return nil
	}
	var own *argvrules.Family
	byName := map[string]*argvrules.Family{}
	for _, f := range argvrules.All() {
		byName[f.Name] = f
		if f.Name == name {
			own = f
		}
	}
	if own == nil {
		return nil
	}
	out := []*argvrules.Family{own}
	for _, c := range own.Children {
		if f := byName[c]; f != nil {
			out = append(out, f)
		}
	}
	return out
}
