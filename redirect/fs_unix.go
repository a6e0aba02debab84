//go:build darwin || linux

// File flags and link counts from POSIX: the same on Linux and macOS
// (Windows: fs_windows.go).

package redirect

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// openFlags are added to every open: O_NONBLOCK, so that a FIFO never
// blocks the server (cleared again by clearNonblock), and O_CLOEXEC.
const openFlags = unix.O_NONBLOCK | unix.O_CLOEXEC

func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// openedLinks is 1: checkKind has already counted the opened file's links
// from its fstat.
func openedLinks(*os.File) uint64 { return 1 }

func clearNonblock(f *os.File, target string, output bool) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return openFailure(target, output, err)
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.SetNonblock(int(fd), false) }); err != nil {
		return openFailure(target, output, err)
	}
	if serr != nil {
		return openFailure(target, output, serr)
	}
	return nil
}
