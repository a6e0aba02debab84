//go:build !linux

// Without /proc/self/fd (and x/sys/unix exposes no fcntl(F_GETPATH)
// wrapper on macOS) the opened file's location is the target resolved by
// path beneath the working directory, accepted only when it is the very
// file that was opened: an output file has one link (checkKind), so the
// path naming its inode is its location. A swap that makes the path name
// another file is refused.

package redirect

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

var errMoved = errors.New("the file was replaced while it was opened")

// openedPath is where f, opened as target beneath d, is.
func openedPath(d *workdir.Dir, f *os.File, target string) (string, error) {
	real, err := filepath.EvalSymlinks(filepath.Join(d.Real(), target))
	if err != nil {
		return "", err
	}
	a, err1 := os.Stat(real)
	b, err2 := f.Stat()
	if err := errors.Join(err1, err2); err != nil {
		return "", err
	}
	if !os.SameFile(a, b) {
		return "", errMoved
	}
	return real, nil
}
