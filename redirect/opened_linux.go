//go:build linux

// Linux reads an opened file's location from /proc/self/fd
// (opened_other.go elsewhere).

package redirect

import (
	"os"
	"strconv"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// openedPath is where the kernel says f is, read from /proc/self/fd: the
// authoritative location after an os.Root open, immune to symlink swaps.
func openedPath(_ *workdir.Dir, f *os.File, _ string) (string, error) {
	return os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
}
