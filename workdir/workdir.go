package workdir

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// Within reports whether path is dir or below it. Both are clean,
// absolute paths (already symlink-resolved where that matters).
func Within(path, dir string) bool {
	if path == dir || dir == "/" {
		return true
	}
	sep := string(filepath.Separator)
	if strings.HasSuffix(dir, sep) { // a Windows drive root, C:\ (clean with its separator)
		return strings.HasPrefix(path, dir)
	}
	return strings.HasPrefix(path, dir+sep)
}

// Inside returns the first of dirs that contains path (see Within), or "".
func Inside(path string, dirs []string) string {
	for _, d := range dirs {
		if Within(path, d) {
			return d
		}
	}
	return ""
}

func refuse(arg, format string, args ...any) *refusal.Rejection {
	return refusal.New(CodeDirectory, -1, arg, format, args...)
}

// Resolve turns the call's directory argument into an absolute,
// symlink-resolved directory inside one of allowed (absolute and resolved;
// at least one). Omitted (nil) means allowed[0]; a relative value resolves
// against it. Errors are *refusal.Rejection with CodeDirectory.
func Resolve(arg *string, allowed []string) (string, error) {
	if arg == nil {
		return allowed[0], nil
	}
	d := *arg
	if strings.TrimSpace(d) == "" {
		return "", refuse(d, "Directory cannot be empty")
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(allowed[0], d)
	}
	resolved, err := filepath.EvalSymlinks(d)
	if err != nil {
		return "", refuse(*arg, "Directory does not exist: %s", *arg)
	}
	if fi, err := os.Stat(resolved); err != nil || !fi.IsDir() {
		return "", refuse(*arg, "Not a directory: %s", *arg)
	}
	if Inside(resolved, allowed) == "" {
		return "", refuse(*arg, "Directory is outside the allowed directories: %s (allowed: %s)", *arg, strings.Join(allowed, ", "))
	}
	return resolved, nil
}

// Dir is a pinned working directory. It is safe for concurrent use; Close
// it after the call.
type Dir struct {
	f    *os.File
	root *os.Root
	path string
	real string
}

// Open pins dir (a path from Resolve) and checks, on the opened directory,
// that it lies inside one of allowed. Errors are *refusal.Rejection with
// CodeDirectory.
func Open(dir string, allowed []string) (*Dir, error) {
	d, err := pin(dir)
	if err != nil {
		return nil, refuse(dir, "Directory is not accessible: %s: %v", dir, err)
	}
	root := Inside(d.real, allowed)
	if root == "" {
		d.Close()
		return nil, refuse(dir, "Directory is outside the allowed directories: %s (it is %s)", dir, d.real)
	}
	if inGitDir(d.real, root) {
		d.Close()
		return nil, refuse(dir, "Directory %s is inside a .git directory: a call running there could rewrite the repository's configuration and hooks, which make git run programs", dir)
	}
	if d.root, err = openRoot(d); err != nil {
		d.Close()
		return nil, refuse(dir, "Directory is not accessible: %s: %v", dir, err)
	}
	return d, nil
}

// OpenAllowed is Resolve then Open: the handle for a request's directory
// argument.
func OpenAllowed(arg *string, allowed []string) (*Dir, error) {
	dir, err := Resolve(arg, allowed)
	if err != nil {
		return nil, err
	}
	return Open(dir, allowed)
}

// Path is the pinned directory for the child's chdir, valid until Close:
// on Linux a /proc/self/fd link to it, elsewhere its path when opened
// (see pin_other.go).
func (d *Dir) Path() string { return d.path }

// Real is the directory's absolute path when it was opened.
func (d *Dir) Real() string { return d.real }

// Root is an os.Root on the pinned directory: every relative path the call
// probes or opens goes through it.
func (d *Dir) Root() *os.Root { return d.root }

// Close releases the directory. A nil Dir is a no-op.
func (d *Dir) Close() error {
	if d == nil {
		return nil
	}
	if d.root != nil {
		d.root.Close()
	}
	return d.f.Close()
}

// inGitDir reports whether path, below the allowed directory root, passes
// through a directory named .git (any case: case-insensitive file systems
// open .GIT as .git). A ">" inside the call's directory is checked by
// package redirect; this closes the call's directory itself.
func inGitDir(path, root string) bool {
	sep := string(filepath.Separator)
	rel := strings.TrimPrefix(strings.TrimPrefix(path, root), sep)
	for _, part := range strings.Split(rel, sep) {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}
