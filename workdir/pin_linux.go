//go:build linux

// Linux pins the directory by descriptor and names it through
// /proc/self/fd, so the child's chdir and the os.Root reach the very
// inode that was checked, whatever is renamed meanwhile.

package workdir

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// pin opens dir and reads back, from the descriptor, where it is.
func pin(dir string) (*Dir, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	d := &Dir{f: os.NewFile(uintptr(fd), dir), path: "/proc/self/fd/" + strconv.Itoa(fd)}
	if d.real, err = os.Readlink(d.path); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// openRoot opens the root through the pinned link, so it is the very
// same inode.
func openRoot(d *Dir) (*os.Root, error) { return os.OpenRoot(d.path) }
