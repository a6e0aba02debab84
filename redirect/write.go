package redirect

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// Kind says what a path that a program will write names.
type Kind uint8

// The kinds of output paths.
const (
	// File is a file the program creates or truncates (git log --output,
	// curl -o, wget -O).
	File Kind = iota + 1
	// Dir is a directory the program writes files into; it may not exist
	// yet (wget -P, npm pack --pack-destination).
	Dir
	// FileOrDir is a file, or a directory when it exists or ends in "/"
	// (go build -o).
	FileOrDir
)

// Harmless reports whether an output value needs no containment: "-"
// (standard output in every program the recognizers know), /dev/null and
// the process's own /dev/stdout and /dev/stderr.
func Harmless(p string) bool {
	switch p {
	case "-", "/dev/null", "/dev/stdout", "/dev/stderr":
		return true
	}
	return false
}

// ProbeWrite is the one containment check for a path that a program, not
// the server, will open for writing: an output-file option of any family
// (the program opens it later, so this is a check, not a confinement). p
// must pass Check and, under d, what Probe requires of a ">" target: for
// a file, an existing target or its parent resolves inside d through
// symlinks and is not a directory, FIFO, device or hard-linked file; for a
// directory (or a file whose parent does not exist yet, curl --create-dirs,
// go build -o bin/app), the deepest existing ancestor is a directory
// inside d. A nil d applies the lexical rules only. It creates nothing.
// Errors are *refusal.Rejection values with this package's codes.
func ProbeWrite(d *workdir.Dir, p string, k Kind) error {
	if err := Check(p); err != nil {
		return err
	}
	if d == nil {
		return nil
	}
	if k == FileOrDir && (strings.HasSuffix(p, "/") || isDir(d, p)) {
		k = Dir
	}
	if k != Dir && isDir(d, path.Dir(p)) {
		return Probe(d, p, true)
	}
	return probeAncestor(d, p)
}

// isDir reports whether p names an existing directory under d.
func isDir(d *workdir.Dir, p string) bool {
	fi, err := d.Root().Stat(strings.TrimSuffix(p, "/"))
	return err == nil && fi.IsDir()
}

// probeAncestor checks a directory target: the deepest existing ancestor of
// p must resolve through d's os.Root (no symlink leading outside) to a
// directory; nothing below it can be a symlink yet.
func probeAncestor(d *workdir.Dir, p string) error {
	for q := path.Clean(p); ; q = path.Dir(q) {
		fi, err := d.Root().Stat(q)
		switch {
		case err == nil && fi.IsDir():
			// the whole path: the part below q does not exist yet, but its
			// names decide configuration roles (.cargo/config.toml)
			return checkGit(d, resolveAncestor(d.Real()+"/"+path.Clean(p)), p)
		case err == nil:
			return openFailure(p, true, &fs.PathError{Op: "stat", Path: q, Err: syscall.ENOTDIR})
		case !errors.Is(err, fs.ErrNotExist):
			return openFailure(p, true, err)
		}
		if q == "." || q == "/" {
			return nil
		}
	}
}
