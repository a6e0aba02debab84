package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ResolveDir turns the call's directory argument into an absolute,
// symlink-resolved directory inside one of the allowed directories.
// Omitted means the first allowed directory; relative values resolve
// against it.
func ResolveDir(arg *string, allowed []string) (string, error) {
	if arg == nil {
		return allowed[0], nil
	}
	d := *arg
	if strings.TrimSpace(d) == "" {
		return "", fmt.Errorf("Directory cannot be empty")
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(allowed[0], d)
	}
	resolved, err := filepath.EvalSymlinks(d)
	if err != nil {
		return "", fmt.Errorf("Directory does not exist: %s", *arg)
	}
	fi, err := os.Stat(resolved)
	if err != nil || !fi.IsDir() {
		return "", fmt.Errorf("Not a directory: %s", *arg)
	}
	for _, a := range allowed {
		if within(resolved, a) {
			return resolved, nil
		}
	}
	return "", fmt.Errorf("Directory is outside the allowed directories: %s (allowed: %s)", *arg, strings.Join(allowed, ", "))
}

// within reports whether path is dir or below it; both are clean and
// absolute.
func within(path, dir string) bool {
	if path == dir || dir == "/" {
		return true
	}
	return strings.HasPrefix(path, dir+string(filepath.Separator))
}

// pinnedDir is a call's working directory held open for the whole call,
// so that a symlink swapped into the path after the check cannot move the
// call elsewhere: the child's chdir and the redirection opens go through
// Path, a /proc/self/fd link to this very directory, and Real is where
// the kernel says it is.
type pinnedDir struct {
	f    *os.File
	Path string // "/proc/self/fd/N"
	Real string // the directory's absolute path at the time it was opened
}

// pinDir opens dir (a path from ResolveDir) and checks, on the opened
// directory itself, that it lies inside an allowed directory. The caller
// closes it after the call.
func pinDir(dir string, allowed []string) (*pinnedDir, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("Directory is not accessible: %s: %v", dir, err)
	}
	f := os.NewFile(uintptr(fd), dir)
	link := "/proc/self/fd/" + strconv.Itoa(fd)
	real, err := os.Readlink(link)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("Directory is not accessible: %s: %v", dir, err)
	}
	for _, a := range allowed {
		if within(real, a) {
			return &pinnedDir{f: f, Path: link, Real: real}, nil
		}
	}
	f.Close()
	return nil, fmt.Errorf("Directory is outside the allowed directories: %s (it is %s)", dir, real)
}

// Close releases the directory.
func (p *pinnedDir) Close() error {
	if p == nil {
		return nil
	}
	return p.f.Close()
}
