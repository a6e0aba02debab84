package redirect

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A ">" or ">>" into a .git directory would let any allowed writer plant
// configuration or hooks that make a later git command run a program. The
// policy refuses ".git" in the target text; these checks catch the same
// place reached through a symlink (a cloned repository can carry one).

// checkGit refuses real, an absolute symlink-resolved path, when it lies
// in a .git directory below dir.
func checkGit(dir, real, target string) error {
	base, err := filepath.EvalSymlinks(dir)
	if err != nil {
		base = dir
	}
	rel, err := filepath.Rel(base, real)
	if err != nil {
		return nil // outside dir: the escape checks decide
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if strings.EqualFold(part, ".git") {
			return &Error{Code: CodeGit, Target: target,
				Message: fmt.Sprintf("Redirection target %q leads into a .git directory (%s): repository configuration and hooks there make git run programs", target, rel)}
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
