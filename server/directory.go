package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
