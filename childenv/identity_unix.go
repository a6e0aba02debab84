//go:build darwin || linux

// File identity on POSIX systems: device, inode and change time.

package childenv

import (
	"io/fs"
	"os"
	"syscall"
)

// sameFile reports whether a and b describe the same file in the same
// state: os.SameFile (device and inode) and an equal change time, which
// no user can set, so a file deleted and re-created under a reused inode
// number differs.
func sameFile(a, b fs.FileInfo) bool {
	if !os.SameFile(a, b) {
		return false
	}
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && ctime(sa) == ctime(sb)
}
