package argvrules

import (
	"path"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/internal/fsview"
	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// Files a program writes under names it makes up itself (no option names
// them): gawk's awkvars.out, curl -O and wget's names from the URL, git
// format-patch's 0001-subject.patch, split's xaa, npm pack's
// NAME-VERSION.tgz, file -C's magic.mgc, npm's node_modules and cargo's
// target. Most programs open such a name with O_CREAT and follow a
// symlink planted there (git apply, tar -x and cp can plant one), so each
// is contained like an output option: an exact name through outputPath,
// a family of names by probing every existing entry of the directory that
// matches.

// defaultOutputs contains every existing entry of dir (relative to the
// working directory, "." for it) whose name match accepts: a symlink
// there leading outside is refused, as is a configuration file by role.
func defaultOutputs(ctx Context, family string, index int, arg, dir string, match func(name string) bool) *Rejection {
	if ctx.Dir == nil {
		return nil
	}
	full := dir
	if ctx.base != "" && !path.IsAbs(dir) {
		full = path.Join(ctx.base, dir)
	}
	if redirect.Check(full) != nil && full != "." {
		return nil // the directory itself is judged by its own option
	}
	f, err := fsview.OpenDir(ctx.Dir.Root(), full)
	if err != nil {
		return nil // missing: nothing planted yet
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1) // every name: a bound would let a request hide a symlink past it
	for _, n := range names {
		if !match(n) {
			continue
		}
		if r := outputPath(ctx, family, index, arg, path.Join(dir, n), redirect.File); r != nil {
			return r
		}
	}
	return nil
}

// couldBecomeConfig reports whether prefix (a relative path) followed by
// a suffix the program appends, made of suffixChars and then extra, can
// spell a configuration file by role.
func couldBecomeConfig(prefix, suffixChars, extra string) bool {
	dir, base := path.Split(prefix)
	for _, pat := range redirect.ConfigPatterns() {
		if strings.HasSuffix(pat, "/") {
			continue
		}
		pdir, pbase := path.Split(pat)
		if pdir != "" && !strings.HasSuffix(strings.ToLower(dir), strings.ToLower(pdir)) {
			continue
		}
		rest, ok := strings.CutPrefix(strings.ToLower(pbase), strings.ToLower(base))
		if !ok {
			continue
		}
		rest = strings.TrimSuffix(rest, strings.ToLower(extra))
		if strings.Trim(rest, suffixChars) == "" {
			return true
		}
	}
	return false
}
