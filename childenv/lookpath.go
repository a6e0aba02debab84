package childenv

import (
	"errors"
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
		return "executable file not found in child PATH (MCP_SHELL_SAFE_PATH, or the operator's own PATH when PATH is in MCP_SHELL_CHILD_ENV_ALLOWLIST): " + e.Name
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
	Found string `json:"path"`
	// Links are the files the chain passes through after Found, in order,
	// each absolute and clean (/usr/bin/awk → /etc/alternatives/awk →
	// /usr/bin/gawk gives the last two). Empty when Found is no symlink.
	Links []string `json:"links,omitempty"`
	// Real is Found with every symlink resolved, directories included
	// (filepath.EvalSymlinks): the executed file's own location.
	Real string `json:"real"`
	// Script reports a file that starts with "#!": the kernel runs its
	// interpreter with the path it was executed by as an argument.
	Script bool `json:"script,omitempty"`
	// Interpreters are the files the kernel executes to run Real (its ELF
	// loader, its #! interpreter and #!/usr/bin/env's program), each with
	// its own (see Interpreters).
	Interpreters []string `json:"interpreters,omitempty"`
	// info is Real's identity when it was resolved (Verify).
	info fs.FileInfo
}

// ErrChanged reports that the file a Resolution names is no longer the
// file that was resolved: it was replaced, or a symlink on its way was
// swapped.
var ErrChanged = errors.New("program changed since it was checked")

// ExecPath is the path the program is executed by: Real, so that no
// symlink is followed again between the check and the start; for a
// script, Found, since the kernel hands a script's path to its
// interpreter, and scripts read their own name ($0) from it (bzcmp is
// bzdiff under another name). Verify checks the path right before the
// start.
func (r Resolution) ExecPath() string {
	if r.Script {
		return r.Found
	}
	return r.Real
}

// Verify reports ErrChanged (in a *LookupError) unless ExecPath still
// leads to the file that was resolved (same device, inode and change
// time: a file deleted and re-created gets a new change time even where
// its inode number is reused).
func (r Resolution) Verify() error {
	if r.info == nil {
		return &LookupError{Name: r.Found, Err: ErrChanged}
	}
	fi, err := os.Stat(r.ExecPath())
	if err != nil {
		return &LookupError{Name: r.Found, Err: err}
	}
	if !sameFile(r.info, fi) {
		return &LookupError{Name: r.Found, Err: ErrChanged}
	}
	return nil
}

// Target is the last file of the chain: the one whose code runs (for a
// multi-call binary such as busybox, argv[0] still picks the applet).
func (r Resolution) Target() string {
	if len(r.Links) > 0 {
		return r.Links[len(r.Links)-1]
	}
	return r.Found
}

// Resolve finds name with LookPath in pathList (relative names are
// refused by the policy before this) and follows the symlink chain of the
// final component, so a caller can judge the program that actually runs:
// "x86_64" is setarch, "awk" may be gawk, mawk or busybox. It records the
// identity of the file that runs, whether it is a script, and its
// interpreters. It is the one resolution of a call's programs: the
// runner executes ExecPath after Verify, never the name again. Errors are LookPath's *LookupError, or a *LookupError wrapping
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
	if r.info, err = os.Stat(r.Real); err != nil {
		return r, &LookupError{Name: name, Err: err}
	}
	r.Script = headOf(r.Real, r.info).script
	r.Interpreters = Interpreters(r.Real, pathList)
	return r, nil
}
