//go:build darwin

// macOS pins the directory with open(O_DIRECTORY) but has no
// /proc/self/fd, and x/sys/unix exposes no fcntl(F_GETPATH) wrapper: the
// path checked is the one Resolve resolved, and a rename between Resolve
// and the child's chdir is not seen (pin_other.go closes it for the
// os.Root).

package workdir

import (
	"os"

	"golang.org/x/sys/unix"
)

// pin opens dir as a directory and keeps its resolved path.
func pin(dir string) (*Dir, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return &Dir{f: os.NewFile(uintptr(fd), dir), path: dir, real: dir}, nil
}
