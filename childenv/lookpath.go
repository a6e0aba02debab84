package childenv

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// LookupError reports that a program could not be resolved. It matches
// exec.ErrNotFound with errors.Is, and also the cause (fs.ErrNotExist,
// fs.ErrPermission, ...) when there is one.
type LookupError struct {
	Name string
	// Err is the cause for a name containing "/"; nil after a PATH search
	// found nothing usable.
	Err error
}

func (e *LookupError) Error() string {
	if e.Err == nil {
		return "executable file not found in child PATH: " + e.Name
	}
	return fmt.Sprintf("not an executable file: %s: %v", e.Name, e.Err)
}

// Unwrap returns exec.ErrNotFound and the cause.
func (e *LookupError) Unwrap() []error {
	if e.Err == nil {
		return []error{exec.ErrNotFound}
	}
	return []error{exec.ErrNotFound, e.Err}
}

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

// maxLinks bounds the symlinks Resolve follows, like the kernel's 40.
const maxLinks = 40

// Resolution is where a program name leads: the file LookPath finds and
// the chain of symbolic links from it to the file the kernel executes.
type Resolution struct {
	// Found is LookPath's result: absolute (a PATH entry joined with the
	// name, or the name itself when absolute).
	Found string
	// Links are the files the chain passes through after Found, in order,
	// each absolute and clean (/usr/bin/awk → /etc/alternatives/awk →
	// /usr/bin/gawk gives the last two). Empty when Found is no symlink.
	Links []string
	// Real is Found with every symlink resolved, directories included
	// (filepath.EvalSymlinks): the executed file's own location.
	Real string
}

// Target is the last file of the chain: the one whose code runs (for a
// multi-call binary such as busybox, argv[0] still picks the applet).
func (r Resolution) Target() string {
	if len(r.Links) > 0 {
		return r.Links[len(r.Links)-1]
	}
	return r.Found
}

// Resolve finds name the way the runner will (LookPath with pathList;
// relative names are refused by the policy before this) and follows the
// symlink chain of the final component, so a caller can judge the program
// that actually runs: "x86_64" is setarch, "awk" may be gawk, mawk or
// busybox. Errors are LookPath's *LookupError, or a *LookupError wrapping
// the Readlink failure or a loop.
func Resolve(name, pathList, dir string) (Resolution, error) {
	found, err := LookPath(name, pathList, dir)
	if err != nil {
		return Resolution{}, err
	}
	r := Resolution{Found: found}
	for cur := found; ; {
		fi, err := os.Lstat(cur)
		if err != nil {
			return r, &LookupError{Name: name, Err: err}
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			break
		}
		if len(r.Links) == maxLinks {
			return r, &LookupError{Name: name, Err: unix.ELOOP}
		}
		link, err := os.Readlink(cur)
		if err != nil {
			return r, &LookupError{Name: name, Err: err}
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(cur), link)
		}
		cur = filepath.Clean(link)
		r.Links = append(r.Links, cur)
	}
	if r.Real, err = filepath.EvalSymlinks(found); err != nil {
		return r, &LookupError{Name: name, Err: err}
	}
	return r, nil
}
