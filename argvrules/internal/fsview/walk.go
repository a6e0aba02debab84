package fsview

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// maxHops bounds the symlinks Walk follows; Linux gives up with ELOOP
// after 40.
const maxHops = 40

// pseudoRoots are the kernel's pseudo-file systems: a path under them
// names a device, a process's file descriptor (/proc/self/fd/0 is the
// reader's own standard input) or kernel state, never a project file.
var pseudoRoots = []string{"/dev", "/proc", "/sys"}

// UnderPseudo reports whether the absolute, clean path p is one of
// /dev, /proc and /sys or below one.
func UnderPseudo(p string) bool {
	for _, r := range pseudoRoots {
		if p == r || strings.HasPrefix(p, r+"/") {
			return true
		}
	}
	return false
}

// Resolved is where Walk led.
type Resolved struct {
	// Path is the physical path reached (with the rest of the name
	// joined lexically when a component is missing or pseudo).
	Path string
	// Exists is false when a component is missing.
	Exists bool
	// Pseudo is set as soon as the walk reaches /dev, /proc or /sys.
	Pseudo bool
}

// Walk resolves p (relative ones against base, absolute) the way the
// kernel's path walk would for a process whose working directory is
// base: component by component, "." and ".." applied to the resolved
// prefix, every symlink followed (at most maxHops). It stops early with
// Pseudo set as soon as the prefix lies under /dev, /proc or /sys (which
// it never looks at), so a symlink such as /dev/stdin -> /proc/self/fd/0
// is judged by where it leads. It returns ErrHidden, before looking at
// it, at the first component outside v; a missing component ends the
// walk with Exists false and the rest joined lexically. Other errors
// report what could not be decided (an Lstat or Readlink failure, a
// symlink loop).
func (v View) Walk(base, p string) (Resolved, error) {
	if !filepath.IsAbs(p) {
		p = base + "/" + p
	}
	rest := strings.Split(p, "/")
	cur, hops := "/", 0
	for len(rest) > 0 {
		comp := rest[0]
		rest = rest[1:]
		switch comp {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, comp)
		if UnderPseudo(next) {
			return Resolved{Path: filepath.Join(append([]string{next}, rest...)...), Exists: true, Pseudo: true}, nil
		}
		if v.ancestor(next) {
			cur = next // a directory on the way to a tree (trees are symlink-resolved)
			continue
		}
		if !v.Visible(next) {
			return Resolved{Path: next}, fmt.Errorf("%s: %w", next, ErrHidden)
		}
		fi, err := v.Lstat(next)
		switch {
		case Missing(err):
			return Resolved{Path: filepath.Join(append([]string{next}, rest...)...)}, nil
		case err != nil:
			return Resolved{Path: next}, err
		case fi.Mode()&fs.ModeSymlink == 0:
			cur = next
			continue
		}
		if hops++; hops > maxHops {
			return Resolved{Path: next}, fmt.Errorf("%s: %w", p, ErrLoop)
		}
		target, err := v.readlink(next)
		if err != nil {
			return Resolved{Path: next}, err
		}
		if filepath.IsAbs(target) {
			cur = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return Resolved{Path: cur, Exists: true, Pseudo: UnderPseudo(cur)}, nil
}

// ancestor reports whether p is above Dir or one of Trees.
func (v View) ancestor(p string) bool {
	if v.Dir != nil && p != v.Dir.Real() && workdir.Within(v.Dir.Real(), p) {
		return true
	}
	for _, t := range v.Trees {
		if p != t && workdir.Within(t, p) {
			return true
		}
	}
	return false
}

func (v View) readlink(p string) (string, error) {
	r, rel, release, err := v.root(p)
	if err != nil {
		return "", err
	}
	defer release()
	return r.Readlink(rel)
}
