package fsview

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

var (
	// ErrHidden: the path lies outside what the View may look at.
	ErrHidden = errors.New("outside the working directory and the directories the stage may read")
	// ErrNotRegular: ReadFile or OpenRegular met a FIFO, socket, device
	// or directory.
	ErrNotRegular = errors.New("not a regular file")
	// ErrNotDir: OpenDir met something other than a directory.
	ErrNotDir = errors.New("not a directory")
	// ErrTooLarge: the file is larger than the caller's bound.
	ErrTooLarge = errors.New("larger than this check reads")
	// ErrLoop: Walk followed more than maxHops symbolic links.
	ErrLoop = errors.New("too many levels of symbolic links")
)

// View is what a recognizer may look at: Dir, the call's pinned working
// directory (nil: none); Trees, absolute symlink-resolved directories
// outside it whose files the stage may read (the allowed directories the
// stage's sandbox lets it read; nil: none); and Readable, whether the
// stage may read any other absolute path (nil: none).
type View struct {
	Dir      *workdir.Dir
	Trees    []string
	Readable func(path string) bool
}

// Visible reports whether the absolute, clean, physical path p lies in
// Dir or in one of Trees.
func (v View) Visible(p string) bool {
	_, ok := v.tree(p)
	return ok
}

// tree is the directory of the View that holds p: Dir's path first.
func (v View) tree(p string) (string, bool) {
	if v.Dir != nil && workdir.Within(p, v.Dir.Real()) {
		return v.Dir.Real(), true
	}
	if t := workdir.Inside(p, v.Trees); t != "" {
		return t, true
	}
	if v.Readable != nil && filepath.IsAbs(p) && v.Readable(p) {
		return string(filepath.Separator), true
	}
	return "", false
}

// root opens the os.Root of the tree holding p and returns p relative to
// it; release closes what root opened (Dir's own Root stays open).
func (v View) root(p string) (*os.Root, string, func(), error) {
	t, ok := v.tree(filepath.Clean(p))
	if !ok {
		return nil, "", nil, fmt.Errorf("%s: %w", p, ErrHidden)
	}
	rel, err := filepath.Rel(t, filepath.Clean(p))
	if err != nil {
		return nil, "", nil, fmt.Errorf("%s: %w", p, ErrHidden)
	}
	if v.Dir != nil && t == v.Dir.Real() && workdir.Within(filepath.Clean(p), t) {
		return v.Dir.Root(), rel, func() {}, nil
	}
	r, err := os.OpenRoot(t)
	if err != nil {
		return nil, "", nil, err
	}
	return r, rel, func() { r.Close() }, nil
}

// escaped turns an os.Root refusal of a name that leads out of its tree
// (by ".." or a symlink) into ErrHidden; other errors pass.
func escaped(p string, err error) error {
	if err == nil || errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
		return fmt.Errorf("%s: %w", p, ErrHidden)
	}
	return err
}

// Missing reports whether err says a file is not there (also when a
// component on the way is not a directory), the way a program trying to
// open it would conclude.
func Missing(err error) bool { return errors.Is(err, fs.ErrNotExist) || isNotDir(err) }

// Stat is os.Stat of p within the View (symlinks followed inside the tree
// that holds p).
func (v View) Stat(p string) (fs.FileInfo, error) {
	r, rel, release, err := v.root(p)
	if err != nil {
		return nil, err
	}
	defer release()
	fi, err := r.Stat(rel)
	return fi, escaped(p, err)
}

// Lstat is os.Lstat of p within the View.
func (v View) Lstat(p string) (fs.FileInfo, error) {
	r, rel, release, err := v.root(p)
	if err != nil {
		return nil, err
	}
	defer release()
	fi, err := r.Lstat(rel)
	return fi, escaped(p, err)
}

// ReadFile reads the regular file p within the View, at most max bytes
// (ErrTooLarge beyond), without blocking on a FIFO (ErrNotRegular).
func (v View) ReadFile(p string, max int64) ([]byte, error) {
	r, rel, release, err := v.root(p)
	if err != nil {
		return nil, err
	}
	defer release()
	f, err := OpenRegular(r, rel)
	if err != nil {
		return nil, escaped(p, err)
	}
	defer f.Close()
	return readCapped(f, p, max)
}

func readCapped(f *os.File, name string, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s: %w (%d bytes)", name, ErrTooLarge, max)
	}
	return b, nil
}

// OpenRegular opens name below r for reading when it is a regular file:
// O_NONBLOCK, so a FIFO neither blocks the open nor is read.
func OpenRegular(r *os.Root, name string) (*os.File, error) {
	return openKind(r, name, func(m fs.FileMode) bool { return m.IsRegular() }, ErrNotRegular)
}

// OpenDir opens the directory name below r (for Readdirnames) without
// blocking on a FIFO in its place.
func OpenDir(r *os.Root, name string) (*os.File, error) {
	return openKind(r, name, fs.FileMode.IsDir, ErrNotDir)
}

func openKind(r *os.Root, name string, ok func(fs.FileMode) bool, kindErr error) (*os.File, error) {
	// A device is refused before it is opened: opening some has side
	// effects. The fstat after the open is the check that counts.
	if fi, err := r.Stat(name); err == nil && !ok(fi.Mode()) {
		return nil, fmt.Errorf("%s: %w", name, kindErr)
	}
	f, err := r.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !ok(fi.Mode()) {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, kindErr)
	}
	return f, nil
}

// OpenPath opens the regular file at the absolute path p, without a View:
// for the operator's own files (~/.gitconfig), never one a request names.
// Like OpenRegular it never blocks on a FIFO.
func OpenPath(p string) (*os.File, error) {
	if fi, err := os.Stat(p); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", p, ErrNotRegular)
	}
	f, err := os.OpenFile(p, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w", p, ErrNotRegular)
	}
	return f, nil
}
