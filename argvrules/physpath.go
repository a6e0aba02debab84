package argvrules

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxPathHops bounds the symlinks physicalPath follows; Linux gives up
// with ELOOP after 40.
const maxPathHops = 40

// errPathLoop is returned by physicalPath after maxPathHops symlinks.
var errPathLoop = errors.New("too many levels of symbolic links")

// pseudoRoots are the kernel's pseudo-file systems: a path under them
// names a device, a process's file descriptor (/proc/self/fd/0 is the
// reader's own standard input) or kernel state, never a project file.
var pseudoRoots = []string{"/dev", "/proc", "/sys"}

// underPseudo reports whether the absolute, clean path p is one of
// pseudoRoots or below one.
func underPseudo(p string) bool {
	for _, r := range pseudoRoots {
		if p == r || strings.HasPrefix(p, r+"/") {
			return true
		}
	}
	return false
}

// physicalPath resolves p the way the kernel's path walk would for a
// process whose working directory is base (absolute): component by
// component, "." and ".." applied to the resolved prefix, every symlink
// followed (Readlink, at most maxPathHops). It stops early, returning the
// prefix reached with pseudo true, as soon as that prefix lies under
// /dev, /proc or /sys, so a symlink such as /dev/stdin ->
// /proc/self/fd/0 is judged by where it leads, not by what it means in
// this process. When a component does not exist, the rest of p is joined
// lexically and exists is false (the program will not find the file
// either). err reports what could not be decided: an Lstat or Readlink
// error other than not-exist, or a symlink loop.
func physicalPath(base, p string) (resolved string, exists, pseudo bool, err error) {
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
		if underPseudo(next) {
			return filepath.Join(append([]string{next}, rest...)...), true, true, nil
		}
		fi, lerr := os.Lstat(next)
		switch {
		case errors.Is(lerr, fs.ErrNotExist):
			return filepath.Join(append([]string{next}, rest...)...), false, false, nil
		case lerr != nil:
			return next, false, false, lerr
		case fi.Mode()&fs.ModeSymlink == 0:
			cur = next
			continue
		}
		if hops++; hops > maxPathHops {
			return next, false, false, fmt.Errorf("%s: %w", p, errPathLoop)
		}
		target, rerr := os.Readlink(next)
		if rerr != nil {
			return next, false, false, rerr
		}
		if filepath.IsAbs(target) {
			cur = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return cur, true, underPseudo(cur), nil
}
