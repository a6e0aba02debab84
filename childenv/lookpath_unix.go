//go:build darwin || linux

// Unix PATH search: names are used as given, and the file must be
// executable by the server's effective user (Windows: lookpath_windows.go).

package childenv

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

var errNotRegular = errors.New("not a regular file")

// LookPath resolves a program name for a child.
//
// A name without "/" is searched in pathList (the child's PATH, entries
// separated by ":"), skipping empty and relative entries, so "", "." and
// "bin" never make the working directory searchable (unlike a shell). A
// name with "/" is returned as is when absolute, or joined with dir (the
// call's working directory) when relative; the policy only admits exact
// allowlisted paths. The result must be a regular file executable by the
// server's effective user (faccessat X_OK with AT_EACCESS). Errors are
// *LookupError.
func LookPath(name, pathList, dir string) (string, error) {
	if name == "" || strings.IndexByte(name, 0) >= 0 {
		return "", &LookupError{Name: name}
	}
	if strings.Contains(name, "/") {
		file := name
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, name)
		}
		if err := executable(file); err != nil {
			return "", &LookupError{Name: name, Err: err}
		}
		return file, nil
	}
	for entry := range strings.SplitSeq(pathList, ":") {
		if !filepath.IsAbs(entry) {
			continue
		}
		file := filepath.Join(entry, name)
		if executable(file) == nil {
			return file, nil
		}
	}
	return "", &LookupError{Name: name}
}

func executable(file string) error {
	fi, err := os.Stat(file)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return errNotRegular
	}
	if err := unix.Faccessat(unix.AT_FDCWD, file, unix.X_OK, unix.AT_EACCESS); err != nil {
		return &fs.PathError{Op: "faccessat", Path: file, Err: err}
	}
	return nil
}
