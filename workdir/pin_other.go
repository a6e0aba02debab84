//go:build !linux

// Without /proc/self/fd the os.Root is opened by path; it is checked to
// be the directory pinned, so a rename in between is refused rather than
// followed.

package workdir

import (
	"errors"
	"os"
)

// errMoved: the path no longer names the pinned directory.
var errMoved = errors.New("the directory was replaced while it was opened")

// openRoot opens the root by path and checks it is the pinned directory.
func openRoot(d *Dir) (*os.Root, error) {
	r, err := os.OpenRoot(d.path)
	if err != nil {
		return nil, err
	}
	a, err1 := r.Stat(".")
	b, err2 := d.f.Stat()
	if err := errors.Join(err1, err2); err != nil {
		r.Close()
		return nil, err
	}
	if !os.SameFile(a, b) {
		r.Close()
		return nil, errMoved
	}
	return r, nil
}
