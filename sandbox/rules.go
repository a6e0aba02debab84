package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// Rules decide what each stage may do under the effective mode: the
// policy asks them (Stage) while it builds a call's plan, and the
// Launcher enforces the answer. They are built once at start-up, never
// start anything, and are safe for concurrent use.
type Rules struct {
	cfg  Config
	mode string // effective mode: ModeOff, ModeLimits or ModeLandlock
	abi  int
	// fallback says why ModeAuto runs without Landlock ("" otherwise).
	fallback  string
	leafRead  []string
	cacheRoot string
	profiles  profiles
	// userCaches are the decisions of userCachesOf, by HOME.
	userCaches sync.Map // string → map[string]CacheChoice
}

// NewRules validates and probes cfg (see Probe; its errors are returned
// unchanged, except that ModeAuto falls back to ModeLimits when the
// kernel cannot enforce the Landlock part, and to ModeOff where there are
// no rlimits either) and prepares what every stage shares: the read trees
// of leaf stages and the cache root.
func NewRules(cfg Config) (*Rules, error) {
	r := &Rules{cfg: cfg, mode: cfg.Mode}
	if r.mode == "" {
		r.mode = ModeOff
	}
	abi, err := Probe(cfg)
	switch {
	case cfg.Mode == ModeAuto && errors.Is(err, ErrUnavailable):
		r.mode, r.fallback = ModeLimits, strings.TrimPrefix(err.Error(), ErrUnavailable.Error()+": ")
	case err != nil:
		return nil, err
	case cfg.Mode == ModeAuto:
		r.mode = ModeLandlock
	}
	r.abi = abi
	if err := limitsAvailable(); r.mode == ModeLimits && err != nil {
		if cfg.Mode != ModeAuto {
			return nil, fmt.Errorf("%w: MCP_SHELL_SANDBOX=%s but %w", ErrUnavailable, cfg.Mode, err)
		}
		r.mode, r.fallback = ModeOff, r.fallback+"; "+err.Error()
	}
	if r.mode == ModeOff {
		return r, nil
	}
	r.cacheRoot = chooseCacheRoot(cfg.CacheDir)
	r.leafRead = leafReads(cfg.readDirs())
	return r, nil
}

// chooseCacheRoot is Config.CacheDir, or DefaultCacheDir where it exists
// or could be created (its nearest existing ancestor is writable), or the
// one beneath the temporary directory (a read-only home). Nothing is
// created here: the launcher creates the directories a stage needs.
func chooseCacheRoot(configured string) string {
	if configured != "" {
		return configured
	}
	if d := DefaultCacheDir(); d != tempCacheDir() && creatable(d) {
		return d
	}
	return tempCacheDir()
}

func tempCacheDir() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("mcp-shell-server-cache-%d", os.Getuid()))
}

// DefaultCacheDir is the cache root when Config.CacheDir is empty:
// mcp-shell-server beneath os.UserCacheDir ($XDG_CACHE_HOME or
// ~/.cache), or mcp-shell-server-cache-UID beneath the temporary
// directory when the server has no home (or the former cannot be
// created).
func DefaultCacheDir() string {
	if d, err := os.UserCacheDir(); err == nil && filepath.IsAbs(d) {
		return filepath.Join(d, "mcp-shell-server")
	}
	return tempCacheDir()
}

// Mode returns the effective mode, ModeOff, ModeLimits or ModeLandlock
// (for the start-up line and the audit record): ModeAuto resolves to one
// of the last two, or to ModeOff where neither is available.
func (r *Rules) Mode() string { return r.mode }

// ABI returns the Landlock ABI every stage gets; 0 without Landlock.
func (r *Rules) ABI() int {
	if r.mode != ModeLandlock {
		return 0
	}
	return r.abi
}

// Confined reports whether stages run under a Landlock ruleset, and so
// whether a call needs a private temporary directory.
func (r *Rules) Confined() bool { return r.mode == ModeLandlock }

// Fallback says why ModeAuto runs without Landlock, or "".
func (r *Rules) Fallback() string { return r.fallback }

// CacheDir returns the root of the server-managed cache directories, ""
// in mode off.
func (r *Rules) CacheDir() string { return r.cacheRoot }

// WritableRoots are the trees outside the allowed directories that stages
// may write under these rules, for a call whose environment is env: the
// cache root, and every family's cache variable that env names absolutely
// (an operator's GOPATH or CARGO_HOME, whose bin directory go install or
// cargo install fills). A program found beneath one is as writable as one
// inside an allowed directory, and the policy judges it so. Nil in mode
// off.
func (r *Rules) WritableRoots(env []string) []string {
	if r == nil || r.mode == ModeOff {
		return nil
	}
	out := []string{r.cacheRoot}
	home, _ := childenv.Lookup(env, "HOME")
	users := r.userCachesOf(home)
	for _, f := range argvrules.All() {
		for _, c := range f.Caches {
			if v, ok := childenv.Lookup(env, c.Env); ok && filepath.IsAbs(v) {
				out = append(out, filepath.Clean(v))
			} else if u := users[c.Env]; u.User {
				out = append(out, u.Dir)
			}
		}
	}
	for i, d := range out {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			out[i] = real // programs are judged by where they really lie
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// StageRequest is what the rules need to know of one stage.
type StageRequest struct {
	// Argv is the stage's argv; Argv[0] selects the Config.Exec entry
	// (exact match).
	Argv []string
	// Family is the family whose facts apply (nil: a leaf).
	Family *argvrules.Family
	// Program is where Argv[0] resolved (zero when it was not found).
	Program childenv.Resolution
	// Env is the stage's environment without the sandbox's entries: its
	// PATH finds the family's helpers, its HOME the family's
	// configuration, and a cache variable it names absolutely is used as
	// it is.
	Env []string
	// TempDir is the call's private temporary directory ("" when none).
	TempDir string
	// Subcommands are the subcommands argv runs, as the family's grammar
	// reads them (Family.Network.Subcommands): the network of a family
	// that fetches only for some follows them.
	Subcommands []string
}

// Stage returns what a stage may do, and the environment entries the
// sandbox adds for it, which replace entries of the same name: the
// family's cache variables that Env does not name absolutely, and TMPDIR
// for the call's private temporary directory unless Env names one (the
// operator's own).
//
// In ModeLandlock the stage executes its program, the program's
// interpreters, its family's Exec helpers and Config.Exec's entries for
// Argv[0]; a family that RunsPrograms, and a program Config.Exec gives
// ExecAny, execute beneath Config.ReadDirs and the writable trees
// instead. Other stages (leaves: also every program no family covers)
// read Config.ReadDirs without programDirs. Every stage writes beneath
// Config.WriteDirs, TempDir and its family's caches, and reads its
// family's HomeConfig beneath HOME. The network per Config.Network.
func (r *Rules) Stage(req StageRequest) (plan.Confinement, []string) {
	c := plan.Confinement{Mode: r.mode}
	if r.mode == ModeOff {
		return c, nil
	}
	var add []string
	c.Write = append(slices.Clone(r.cfg.WriteDirs), nonEmpty(req.TempDir)...)
	if _, named := childenv.Lookup(req.Env, "TMPDIR"); req.TempDir != "" && !named {
		add = append(add, "TMPDIR="+req.TempDir)
	}
	fams := req.Family.WithChildren()
	home, _ := childenv.Lookup(req.Env, "HOME")
	for _, cu := range r.caches(fams, req.Env, home) {
		c.Write = append(c.Write, cu.dir)
		if cu.env != "" {
			if !cu.user {
				c.Create = append(c.Create, cu.dir)
			}
			add = append(add, cu.env)
		}
	}
	if r.mode != ModeLandlock {
		return c, add
	}
	prof := r.profiles.get(req, r.cfg.Exec)
	c.Exec, c.RunAny = prof.exec, prof.run
	c.Read = r.leafRead
	if prof.run {
		c.Read = r.cfg.readDirs()
	}
	own := r.credentialsGranted(req.Family)
	if reads := homeReads(fams, home, own); reads != nil {
		c.Read = append(slices.Clip(c.Read), reads...)
	}
	if !own && req.Family != nil && filepath.IsAbs(home) {
		// The family's scripts and the code it fetched run in its
		// stage: its settings without the tokens.
		reads, env := withheldConfig(req.Family, home, req.TempDir, req.Env)
		c.Read = append(slices.Clip(c.Read), reads...)
		add = append(add, env...)
	}
	c.Network, c.NetworkReason = network(r.cfg.Network, req.Family, req.Subcommands)
	c.Sockets, c.AgentsReason = agents(req.Family, req.Env, home, req.Subcommands)
	return c, add
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// profile is what a stage of one program may execute: computed from the
// program's family and Config.Exec, once per program, PATH and file.
type profile struct {
	exec []string // files and trees: the program, helpers, interpreters
	run  bool     // executes beneath the read and writable trees
}

// profiles caches profiles; a program replaced on disk (new inode or
// modification time) gets a new one.
type profiles struct {
	m sync.Map // profileKey → profileEntry
}

type profileKey struct {
	argv0, family, prog, pathList string
}

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
func (ps *profiles) get(req StageRequest, extra map[string][]string) profile {
	pathList, _ := childenv.Lookup(req.Env, "PATH")
	key := profileKey{argv0: req.Argv[0], prog: req.Program.Real, pathList: pathList}
	if req.Family != nil {
		key.family = req.Family.Name
	}
	id := statID(req.Program.Real)
	if e, ok := ps.m.Load(key); ok && e.(profileEntry).id == id {
		return e.(profileEntry).p
	}
	p := newProfile(req, pathList, extra)
	ps.m.Store(key, profileEntry{id: id, p: p})
	return p
}

// newProfile resolves the family's Exec entries and the operator's
// Config.Exec entries in pathList and adds every executable's
// interpreters.
func newProfile(req StageRequest, pathList string, extra map[string][]string) profile {
	var p profile
	entries := extra[req.Argv[0]]
	if f := req.Family; f != nil {
		p.run = f.RunsPrograms
		switch {
		case !p.run:
			entries = append(append(slices.Clone(f.Exec), beside(f, req.Program.Real)...), entries...)
		default:
			// Helpers of the children that lie outside the read
			// directories (the RunsPrograms rights cover the rest).
			for _, c := range f.WithChildren()[1:] {
				entries = append(entries, c.Exec...)
			}
		}
	}
	if slices.Contains(entries, ExecAny) {
		p.run = true
	}
	var files []string
	if req.Program.Real != "" {
		files = append(append(files, req.Program.Real), req.Program.Interpreters...)
	}
	for _, e := range entries {
		if e == ExecAny {
			continue
		}
		f := e
		if !filepath.IsAbs(e) {
			var err error
			if f, err = childenv.LookPath(e, pathList, "/"); err != nil {
				continue
			}
		} else if _, err := os.Stat(e); err != nil {
			continue
		}
		files = append(append(files, f), childenv.Interpreters(f, pathList)...)
	}
	slices.Sort(files)
	p.exec = slices.Compact(files)
	return p
}

// network reports whether a stage of fam running subcommands may use the
// network under the policy mode (Config.Network), and why.
func network(mode string, fam *argvrules.Family, subcommands []string) (bool, string) {
	switch {
	case mode == NetworkAllow:
		return true, "MCP_SHELL_SANDBOX_NETWORK=allow"
	case mode == NetworkDeny || fam == nil:
		return false, ""
	case fam.Network.Always:
		return true, fam.Network.Reason
	}
	for _, sub := range subcommands {
		if slices.Contains(fam.Network.Fetch, sub) {
			return true, fam.Network.Reason
		}
	}
	return false, ""
}

// beside returns fam's ExecBeside entries beneath the installation prefix
// of prog (the parent of its directory), for a resolved prog.
func beside(fam *argvrules.Family, prog string) []string {
	if prog == "" || len(fam.ExecBeside) == 0 {
		return nil
	}
	prefix := filepath.Dir(filepath.Dir(prog))
	out := make([]string, len(fam.ExecBeside))
	for i, rel := range fam.ExecBeside {
		out[i] = filepath.Join(prefix, rel)
	}
	return out
}

// cacheUse is one cache directory a stage writes, and the environment
// entry that points the program at it ("" when the stage's environment
// names it already); user marks the user's own directory.
type cacheUse struct {
	dir, env string
	user     bool
}

// caches returns the cache directories of fams (each variable once): the
// directory a variable of env names when it is absolute (the operator
// passed it), else the user's own beneath home where it is shared
// (userCachesOf), else cacheRoot/Cache.Dir; the last two with an entry
// setting the variable.
func (r *Rules) caches(fams []*argvrules.Family, env []string, home string) []cacheUse {
	var out []cacheUse
	seen := map[string]bool{}
	users := r.userCachesOf(home)
	for _, fam := range fams {
		for _, c := range fam.Caches {
			if seen[c.Env] {
				continue
			}
			seen[c.Env] = true
			if v, ok := childenv.Lookup(env, c.Env); ok && filepath.IsAbs(v) {
				out = append(out, cacheUse{dir: filepath.Clean(v)})
				continue
			}
			dir, user := filepath.Join(r.cacheRoot, c.Dir), false
			if u := users[c.Env]; u.User {
				dir, user = u.Dir, true
			}
			out = append(out, cacheUse{dir: dir, env: c.Env + "=" + dir, user: user})
		}
	}
	return out
}

// CacheChoice is where the sandbox puts one family cache for stages whose
// HOME is a given directory.
type CacheChoice struct {
	Family, Env string
	// Dir is the directory used; User says it is the user's own.
	Dir  string
	User bool
	// WhyNot says why the user's own is not used ("" when it is).
	WhyNot string
}

// Caches returns the choice for every family cache under HOME home, in
// registry order, each variable once: what the start-up line states.
// Nil in mode off.
func (r *Rules) Caches(home string) []CacheChoice {
	if r == nil || r.mode == ModeOff {
		return nil
	}
	users := r.userCachesOf(home)
	var out []CacheChoice
	seen := map[string]bool{}
	for _, f := range argvrules.All() {
		for _, c := range f.Caches {
			if !seen[c.Env] {
				seen[c.Env] = true
				out = append(out, users[c.Env])
			}
		}
	}
	return out
}

// userCachesOf decides, once per HOME, which caches follow the user's own
// (Cache.User beneath home): only when the operator asked for them
// (Config.UserCaches) and chose no cache root
// (MCP_SHELL_SANDBOX_CACHE_DIR, a separate trust domain), and only a
// directory that exists and only this user can write, resolved (a
// symbolic link is followed to where the cache really is).
func (r *Rules) userCachesOf(home string) map[string]CacheChoice {
	if v, ok := r.userCaches.Load(home); ok {
		return v.(map[string]CacheChoice)
	}
	m := map[string]CacheChoice{}
	for _, f := range argvrules.All() {
		for _, c := range f.Caches {
			if _, ok := m[c.Env]; ok {
				continue
			}
			ch := CacheChoice{Family: f.Name, Env: c.Env, Dir: filepath.Join(r.cacheRoot, c.Dir)}
			switch {
			case c.User == "":
				ch.WhyNot = "the user's own also holds the programs they run (bin/)"
			case !r.cfg.UserCaches:
				ch.WhyNot = "MCP_SHELL_SANDBOX_USER_CACHES is off (a stage could plant entries the user's own builds trust)"
			case r.cfg.CacheDir != "":
				ch.WhyNot = "MCP_SHELL_SANDBOX_CACHE_DIR is set"
			case !filepath.IsAbs(home):
				ch.WhyNot = "children get no HOME"
			default:
				dir := filepath.Join(home, c.User)
				if real, err := filepath.EvalSymlinks(dir); err == nil {
					dir = real
				}
				if why := onlyMine(dir); why != "" {
					ch.WhyNot = filepath.Join(home, c.User) + " is " + why
				} else {
					ch.Dir, ch.User = dir, true
				}
			}
			m[c.Env] = ch
		}
	}
	r.userCaches.Store(home, m)
	return m
}

// homeReads returns the configuration files of fams beneath home
// (HomeConfig, and the stage's own family's ConfigReads), for an absolute
// home. The files ConfigReads names (git's signing keys) are never a
// child's: a make recipe could read them with any program.
// credentialConfig are the configuration files of the home that hold
// registry credentials besides settings (npm's and yarn's _authToken,
// pnpm's rc, pip's index-url with user:password). Every one of these
// families runs code it fetched or the project's scripts in its own
// stage, so a stage reads them only when Config.Credentials grants its
// family; otherwise it gets their settings without the credentials
// (withheldConfig). A stage that runs the family as a child never does,
// since every program of a make recipe could print them.
var credentialConfig = map[string]bool{".npmrc": true, ".yarnrc": true, ".yarnrc.yml": true, ".config/pnpm": true, ".config/pip": true, ".pip": true}

func homeReads(fams []*argvrules.Family, home string, own bool) []string {
	if !filepath.IsAbs(home) {
		return nil
	}
	var out []string
	for i, fam := range fams {
		for _, rel := range fam.HomeConfig {
			if (i > 0 || !own) && credentialConfig[rel] {
				continue
			}
			out = append(out, filepath.Join(home, rel))
		}
		if fam.ConfigReads != nil && i == 0 {
			out = append(out, fam.ConfigReads(home)...)
		}
	}
	return out
}

// agents returns the sockets of fam's agents a stage running subcommands
// may connect to, and why: "~/" beneath home, "{uid}" this user's id,
// "$NAME" from env; missing ones are left out.
func agents(fam *argvrules.Family, env []string, home string, subcommands []string) ([]string, string) {
	if fam == nil || len(fam.Agents.Sockets) == 0 {
		return nil, ""
	}
	if fam.Agents.Subcommands != nil && !slices.ContainsFunc(subcommands, func(s string) bool { return slices.Contains(fam.Agents.Subcommands, s) }) {
		return nil, ""
	}
	var out []string
	for _, s := range fam.Agents.Sockets {
		switch {
		case strings.HasPrefix(s, "~/"):
			if !filepath.IsAbs(home) {
				continue
			}
			s = filepath.Join(home, s[2:])
		case strings.HasPrefix(s, "$"):
			v, ok := childenv.Lookup(env, s[1:])
			if !ok || !filepath.IsAbs(v) {
				continue
			}
			s = filepath.Clean(v)
		}
		s = strings.ReplaceAll(s, "{uid}", strconv.Itoa(os.Getuid()))
		if _, err := os.Lstat(s); err == nil {
			out = append(out, s)
		}
	}
	if out == nil {
		return nil, ""
	}
	return out, fam.Agents.Reason
}
