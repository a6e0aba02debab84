package argvrules

import (
	"path"
	"slices"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/git"
)

// Family is one program family: the executables it covers and the
// recognizer that judges their argv. Rows are data; everything else
// (FamilyOf, the policy's lookup, the fuzz seeds, the table tests, the
// "README names every family" test) is derived from the registry.
type Family struct {
	// Name is the family's name and the prefix of its reason codes
	// ("tar" → "tar.exec-option").
	Name string
	// Programs are the executable basenames the family covers: the
	// program's own name and the names distributions install it under.
	Programs []string
	// Also, when set, covers further basenames by shape (pip3.12,
	// go1.22.3, git-upload-pack).
	Also func(base string) bool
	// Recognize judges one stage.
	Recognize Recognizer
	// Source names what the grammar follows (program versions, man page
	// sections, source files).
	Source string

	// The facts below are for the kernel sandbox, which confines each stage
	// by what its family legitimately needs; each carries its source.

	// Exec lists programs the family legitimately executes besides its own
	// binary (tar's compressors, git's git-core programs).
	Exec []string
	// Network reports whether the family's everyday job is the network.
	Network bool
	// Caches are directories outside the working directory the family
	// writes as part of its everyday job (GOCACHE, ~/.npm).
	Caches []string
	// Env, when set, returns environment entries a stage of this family
	// needs beyond the minimal child environment (git's hardening
	// configuration); they override delegated values of the same name.
	Env func() []string
}

// registry is every family, in the order the README lists them. Adding a
// recognizer is one file with its function and one row here.
var registry = []Family{
	{Name: "find", Programs: []string{"find", "gfind", "bfind"}, Recognize: checkFind, Source: "GNU findutils 4.9 find(1)"},
	{Name: "awk", Programs: []string{"awk", "gawk", "mawk", "nawk", "original-awk", "onetrue-awk", "bwk-awk", "goawk"}, Recognize: checkAwk, Source: "gawk 5.2, mawk 1.3.4 and BusyBox 1.35 awk grammars"},
	{Name: "sort", Programs: []string{"sort", "gsort"}, Recognize: checkSort, Source: "GNU coreutils 9.1 sort long_options"},
	{Name: "tar", Programs: []string{"tar", "gtar", "bsdtar"}, Recognize: checkTar, Source: "GNU tar 1.34 and bsdtar 3.7 grammars"},
	{Name: "git", Programs: []string{"git"}, Also: isGitDashed, Recognize: checkGit, Env: git.ChildConfig, Source: "git 2.53 ∪ 2.39 parse-options (package git)"},
	{Name: "rg", Programs: []string{"rg"}, Recognize: checkRg, Source: "ripgrep 13/14 flag definitions"},
	{Name: "split", Programs: []string{"split", "gsplit"}, Recognize: checkSplit, Source: "GNU coreutils 9.1 split --help"},
	{Name: "sdiff", Programs: []string{"sdiff", "gsdiff"}, Recognize: checkSdiff, Source: "GNU diffutils 3.8 sdiff"},
	{Name: "diff3", Programs: []string{"diff3", "gdiff3"}, Recognize: checkDiff3, Source: "GNU diffutils 3.8 diff3"},
	{Name: "wget", Programs: []string{"wget"}, Recognize: checkWget, Source: "GNU Wget 1.21 wget --help"},
	{Name: "curl", Programs: []string{"curl"}, Recognize: checkCurl, Source: "curl 7.88 curl --help all"},
	{Name: "make", Programs: []string{"make", "gmake"}, Recognize: checkMake, Source: "GNU make 4.3/4.4 make(1)"},
	{Name: "go", Programs: []string{"go"}, Also: isGoRelease, Recognize: checkGo, Source: "go 1.22–1.26 cmd/go flag sets"},
	{Name: "npm", Programs: []string{"npm"}, Recognize: checkNpm, Source: "npm 9–11 nopt definitions"},
	{Name: "npx", Programs: []string{"npx", "pnpx"}, Recognize: checkNpx, Source: "npm 9–11 npx"},
	{Name: "pnpm", Programs: []string{"pnpm"}, Recognize: checkPnpm, Source: "pnpm 8–9 CLI"},
	{Name: "yarn", Programs: []string{"yarn", "yarnpkg"}, Recognize: checkYarn, Source: "yarn 1.x and berry CLIs"},
	{Name: "pip", Programs: []string{"pip", "pip3"}, Also: isPipVersion, Recognize: checkPip, Source: "pip 23–24 optparse command table"},
	{Name: "cargo", Programs: []string{"cargo"}, Recognize: checkCargo, Source: "cargo 1.7x–1.9x clap definitions"},
	{Name: "zip", Programs: []string{"zip"}, Recognize: checkZip, Source: "Info-ZIP zip 3.0"},
	{Name: "docker", Programs: []string{"docker"}, Recognize: checkDocker, Source: "docker CLI 24–28 (cobra)"},
	{Name: "podman", Programs: []string{"podman"}, Recognize: checkPodman, Source: "podman 4–5 (cobra)"},
	{Name: "kubectl", Programs: []string{"kubectl"}, Recognize: checkKubectl, Source: "kubectl 1.2x–1.3x (cobra)"},
	{Name: "file", Programs: []string{"file"}, Recognize: checkFile, Source: "file 5.4x file(1)"},
}

// byProgram maps every listed basename to its family.
var byProgram = func() map[string]*Family {
	m := map[string]*Family{}
	for i := range registry {
		f := &registry[i]
		for _, p := range f.Programs {
			if m[p] != nil {
				panic("argvrules: program " + p + " is in two families")
			}
			m[p] = f
		}
	}
	return m
}()

// FamilyOf returns the family of an executable basename (as produced by
// path.Base of argv[0]), or nil when no family covers it. The Family is
// the registry's own row: read it, never modify it. The comparison
// is exact (case-sensitive), plus each family's Also shapes.
func FamilyOf(base string) *Family {
	if f := byProgram[base]; f != nil {
		return f
	}
	for i := range registry {
		if f := &registry[i]; f.Also != nil && f.Also(base) {
			return f
		}
	}
	return nil
}

// Check judges one stage with the recognizer of its family (Families), or
// returns nil when no family covers the program (the policy then allows
// it by name alone).
func Check(argv []string, ctx Context) *Rejection {
	if len(argv) == 0 {
		return nil
	}
	for _, f := range Families(argv[0], ctx.Program) {
		if r := f.Recognize(argv, ctx); r != nil {
			return r
		}
	}
	return nil
}

// multiCall are executables that pick what to run by argv[0]'s basename
// (BusyBox and toybox applets, rustup's proxies cargo, rustc ...): behind
// them the name decides the family, not the file.
var multiCall = map[string]bool{"busybox": true, "toybox": true, "rustup": true}

// Families returns the families that judge argv0: the family of its
// basename and, when the symlink chain of the resolved program (Program)
// ends in a file of another family, that one too, so "awk2 -> gawk"
// is judged as awk and "find -> gawk" by both. A chain through a
// multi-call binary is judged by the name alone.
func Families(argv0 string, p Program) []*Family {
	var out []*Family
	if f := FamilyOf(path.Base(argv0)); f != nil {
		out = append(out, f)
	}
	names := p.names()
	for i := len(names) - 1; i >= 0; i-- {
		if multiCall[names[i]] {
			return out
		}
		if f := FamilyOf(names[i]); f != nil {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
			return out
		}
	}
	return out
}

// Names returns every family name, in registry order.
func Names() []string {
	out := make([]string, len(registry))
	for i, f := range registry {
		out[i] = f.Name
	}
	return out
}

// isGitDashed: git's "git-NAME" programs (git-upload-pack, ...) are the
// dashed form of a subcommand (git.c cmd_main).
func isGitDashed(base string) bool { return strings.HasPrefix(base, "git-") }

// isPipVersion: pip followed by a Python version (pip3.12, pip2).
func isPipVersion(base string) bool {
	v, ok := strings.CutPrefix(base, "pip")
	return ok && v != "" && strings.Trim(v, "0123456789.") == ""
}

// isGoRelease: golang.org/dl wrappers (go1.22.3, go1.23rc1) run that go
// release.
func isGoRelease(base string) bool {
	v, ok := strings.CutPrefix(base, "go1")
	return ok && strings.Trim(v, "0123456789.rcbeta") == ""
}

// familyNamed returns the registry row named name (tests, seeds).
func familyNamed(name string) *Family {
	i := slices.IndexFunc(registry, func(f Family) bool { return f.Name == name })
	if i < 0 {
		return nil
	}
	return &registry[i]
}

// GitFamily is git's registry row, whose Env (the hardening configuration)
// the policy gives every call.
func GitFamily() *Family { return familyNamed("git") }
