package redirect

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// A ">" or ">>" into a .git directory would let any allowed writer plant
// configuration or hooks that make a later git command run a program. The
// policy refuses ".git" in the target text; these checks catch the same
// place reached through a symlink (a cloned repository can carry one).

// checkGit refuses real, an absolute symlink-resolved path, when it lies
// in a .git directory below d.
func checkGit(d *workdir.Dir, real, target string) error {
	if !workdir.Within(real, d.Real()) {
		return nil // outside d: the escape checks decide
	}
	rel, err := filepath.Rel(d.Real(), real)
	if err != nil {
		return nil
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if strings.EqualFold(part, ".git") {
			return reject(CodeGit, target, nil, "Redirection target %q leads into a .git directory (%s): repository configuration and hooks there make git run programs", target, rel)
		}
	}
	return nil
}

// resolveAncestor resolves the symlinks of p's longest existing prefix and
// appends the rest unchanged (a file about to be created).
func resolveAncestor(p string) string {
	rest := ""
	for cur := p; ; cur = filepath.Dir(cur) {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		}
		if filepath.Dir(cur) == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
	}
}

// openedPath is where the kernel says f is, read from /proc/self/fd: the
// authoritative location after an os.Root open, immune to symlink swaps.
func openedPath(f *os.File) (string, error) {
	return os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
}
