//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
)

// TestChildrenProfiles: a make recipe's git reads ~/.gitconfig (git's
// facts) and its go gets go's caches, while the recipe still cannot read
// the rest of HOME, and make's stage gets no network although git's
// fetching subcommands would: the children's reads and caches, never
// their network.
func TestChildrenProfiles(t *testing.T) {
	requireLandlock(t)
	requirePrograms(t, "make", "git")
	work, home, root := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".gitconfig"), "[user]\n\tname = From Home\n", 0o644)
	writeFile(t, filepath.Join(home, "secret"), "SECRET\n", 0o644)
	writeFile(t, filepath.Join(home, ".npmrc"), "//registry.example/:_authToken=NPM_SECRET\n", 0o600)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(home, ".config", "git"), 0o700))
	writeFile(t, filepath.Join(home, ".config", "git", "credentials"), "https://u:GIT_SECRET@example.invalid\n", 0o600)
	writeFile(t, filepath.Join(work, "Makefile"), "git:\n\t@git config --global user.name\nsecret:\n\t@cat "+filepath.Join(home, "secret")+
		"\nnpmrc:\n\t@cat "+filepath.Join(home, ".npmrc")+"\ngitcred:\n\t@cat "+filepath.Join(home, ".config", "git", "credentials")+
		"\ngoenv:\n\t@go env GOCACHE\n", 0o644)
	l := newLauncher(t, Config{Mode: ModeAuto, WriteDirs: []string{work}, Limits: DefaultLimits(), CacheDir: root})
	env := []string{"PATH=/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin", "HOME=" + home}
	c := call{l: l, dir: work, env: env}
	if o := c.run(t, "make", "-s", "git"); o.exit != 0 || o.stdout != "From Home\n" {
		t.Errorf("make running git config --global: %v", o)
	}
	if o := c.run(t, "make", "-s", "secret"); o.exit == 0 || strings.Contains(o.stdout, "SECRET") {
		t.Errorf("a make recipe read HOME beyond its children's configuration: %v", o)
	}
	// npm's registry token is npm's; git's credential store is no
	// configuration git reads as such: neither reaches a recipe.
	for _, target := range []string{"npmrc", "gitcred"} {
		if o := c.run(t, "make", "-s", target); o.exit == 0 || strings.Contains(o.stdout, "SECRET") {
			t.Errorf("a make recipe read a credential file (%s): %v", target, o)
		}
	}
	if _, err := os.Stat("/usr/local/go/bin/go"); err == nil {
		if o := c.run(t, "make", "-s", "goenv"); o.exit != 0 || o.stdout != filepath.Join(root, "go-build")+"\n" {
			t.Errorf("make running go env GOCACHE: %v, want the sandbox's go cache", o)
		}
	}
	conf := stageOf(t, l.Rules, work, env, nil, "make", "fetch").Confinement
	if conf.Network || len(conf.Sockets) > 0 {
		t.Errorf("make got its children's network or agents: %+v", conf)
	}
	writeFile(t, filepath.Join(home, ".gitconfig"), "[user]\n\tsigningKey = ~/.ssh/id_ed25519.pub\n", 0o644)
	signer := filepath.Join(home, ".ssh", "id_ed25519")
	if err := os.MkdirAll(filepath.Dir(signer), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, signer, "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n", 0o600)
	writeFile(t, signer+".pub", "ssh-ed25519 AAAA day@example.invalid\n", 0o644)
	git := stageOf(t, l.Rules, work, env, nil, "git", "commit", "-S").Confinement
	if !slices.Contains(git.Read, signer+".pub") {
		t.Errorf("git commit -S cannot read the configured public signing key %s.pub: %q", signer, git.Read)
	}
	// Any git subcommand prints what it may read (diff --no-index), so the
	// private key stays with the agent.
	if slices.Contains(git.Read, signer) {
		t.Errorf("a git stage may read the private key %s: %q", signer, git.Read)
	}
	writeFile(t, filepath.Join(home, ".gitconfig"), "[user]\n\tsigningKey = ~/.ssh/id_ed25519\n", 0o644)
	if git := stageOf(t, l.Rules, work, env, nil, "git", "commit", "-S").Confinement; slices.Contains(git.Read, signer) {
		t.Errorf("a signing key configured as the private key file is readable by git: %q", git.Read)
	}
	if mk := stageOf(t, l.Rules, work, env, nil, "make").Confinement; slices.Contains(mk.Read, signer) || slices.Contains(mk.Read, signer+".pub") {
		t.Errorf("a make stage may read git's signing key: %q", mk.Read)
	}
	leaf := stageOf(t, l.Rules, work, env, nil, "cat", "x").Confinement
	if slices.Contains(leaf.Read, filepath.Join(home, ".gitconfig")) {
		t.Errorf("a leaf got git's configuration: %q", leaf.Read)
	}
}

// TestUserCaches: with no cache root configured, go's build cache is the
// user's own when it exists and only the user can write it, so builds
// start warm; a directory others can write stays out, and Caches says
// why.
func TestUserCaches(t *testing.T) {
	requireLandlock(t)
	home := t.TempDir()
	own := filepath.Join(home, ".cache", "go-build")
	if err := os.MkdirAll(own, 0o700); err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(home, ".npm")
	if err := os.MkdirAll(shared, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	off, err := NewRules(Config{Mode: ModeAuto, WriteDirs: []string{t.TempDir()}, Limits: DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range off.Caches(home) {
		if c.User {
			t.Errorf("without MCP_SHELL_SANDBOX_USER_CACHES, %s is the user's own", c.Env)
		}
	}
	r, err := NewRules(Config{Mode: ModeAuto, WriteDirs: []string{t.TempDir()}, Limits: DefaultLimits(), UserCaches: true})
	if err != nil {
		t.Fatal(err)
	}
	choices := map[string]CacheChoice{}
	for _, c := range r.Caches(home) {
		choices[c.Env] = c
	}
	if c := choices["GOCACHE"]; !c.User || c.Dir != own {
		t.Errorf("GOCACHE: %+v, want the user's own %s", c, own)
	}
	if c := choices["npm_config_cache"]; c.User || !strings.Contains(c.WhyNot, "writable by group or others") {
		t.Errorf("npm_config_cache: %+v, want the sandbox's, because others can write %s", c, shared)
	}
	if c := choices["GOPATH"]; c.User || c.WhyNot == "" {
		t.Errorf("GOPATH: %+v, want the sandbox's (its bin/ holds the user's programs)", c)
	}
	if c := choices["GOMODCACHE"]; c.User || !strings.Contains(c.WhyNot, "absent") {
		t.Errorf("GOMODCACHE: %+v, want the sandbox's (absent)", c)
	}
	_, add := r.Stage(StageRequest{Argv: []string{"go", "build"}, Family: familyOf(t, "go"), Env: []string{"HOME=" + home}, Subcommands: []string{"build"}})
	if !slices.Contains(add, "GOCACHE="+own) {
		t.Errorf("a go stage's entries %q lack GOCACHE=%s", add, own)
	}
	pinned, err := NewRules(Config{Mode: ModeAuto, WriteDirs: []string{t.TempDir()}, Limits: DefaultLimits(), CacheDir: t.TempDir(), UserCaches: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range pinned.Caches(home) {
		if c.User {
			t.Errorf("with MCP_SHELL_SANDBOX_CACHE_DIR set, %s is the user's own", c.Env)
		}
	}
}

func familyOf(t *testing.T, name string) *argvrules.Family {
	t.Helper()
	for _, f := range argvrules.All() {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no family %s", name)
	return nil
}

// TestReparent: a stage moves and links files between directories of its
// writable trees, as git-lfs and rustc do (the stage's own nested domain
// must grant LANDLOCK_ACCESS_FS_REFER, which every domain otherwise
// denies; ln, unlike mv, has no copying fallback), and still cannot move one out of them: the file outside stays
// where it is.
func TestReparent(t *testing.T) {
	requireLandlock(t)
	for _, reexec := range []bool{false, true} {
		work, outside := t.TempDir(), t.TempDir()
		writeFile(t, filepath.Join(outside, "canary"), "canary\n", 0o644)
		l := newLauncherMethod(t, Config{Mode: ModeAuto, WriteDirs: []string{work}, Limits: DefaultLimits(), Exec: shAny}, reexec)
		c := call{l: l, dir: work}
		if o := c.run(t, "sh", "-c", "mkdir -p a/t b/c && echo x > a/t/x && ln a/t/x b/c/l && ln b/c/l y && cat y b/c/l"); o.exit != 0 || o.stdout != "x\nx\n" || o.stderr != "" {
			t.Errorf("reexec=%v: moving within the writable tree: %v", reexec, o)
		}
		if o := c.run(t, "sh", "-c", "ln "+filepath.Join(outside, "canary")+" stolen || mv "+filepath.Join(outside, "canary")+" stolen"); o.exit == 0 {
			t.Errorf("reexec=%v: a stage moved a file from outside its writable trees: %v", reexec, o)
		}
		if _, err := os.Stat(filepath.Join(outside, "canary")); err != nil {
			t.Errorf("reexec=%v: the canary outside is gone: %v", reexec, err)
		}
	}
}
