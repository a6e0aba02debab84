package childenv

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
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
			return r, &LookupError{Name: name, Err: syscall.ELOOP}
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
