//go:build darwin || linux

// Owner and identity checks of directories and programs from stat(2):
// the same on Linux and macOS (Windows: files_windows.go).

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// platformReadDirs are DefaultReadDirs: the usual system directories.
var platformReadDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}

// ownDir creates dir (mode 0700) and checks that it is a directory of
// this user that only it can write: beneath a shared temporary directory
// another user could have created it first, to plant build caches.
func ownDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	var st unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR || int(st.Uid) != os.Getuid() || st.Mode&0o022 != 0 {
		return fmt.Errorf("%s is not a directory that only this user can write", dir)
	}
	return nil
}

// reusable reports whether dir is still an empty directory of this user
// with mode 0700 (a call may have changed its mode or filled it).
func reusable(dir string) bool {
	var st unix.Stat_t
	if unix.Lstat(dir, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || st.Mode&0o7777 != 0o700 || int(st.Uid) != os.Getuid() {
		return false
	}
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	return err == io.EOF && len(names) == 0
}

func statID(p string) fileID {
	var st unix.Stat_t
	if unix.Stat(p, &st) != nil {
		return fileID{}
	}
	return fileID{dev: uint64(st.Dev), ino: st.Ino, mtime: st.Mtim.Nano()}
}

// creatable reports whether dir exists or could be created: its nearest
// existing ancestor is a directory this user may write and search.
func creatable(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		var st unix.Stat_t
		if err := unix.Stat(d, &st); err == nil {
			return st.Mode&unix.S_IFMT == unix.S_IFDIR && (d == dir || unix.Access(d, unix.W_OK|unix.X_OK) == nil)
		}
		if d == filepath.Dir(d) {
			return false
		}
	}
}

// onlyMine reports why dir is not a directory of this user that only it
// can write ("" when it is), after resolving symbolic links: a cache the
// sandbox shares with the user's own builds must be the user's alone.
func onlyMine(dir string) string {
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		return "absent"
	}
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFDIR:
		return "not a directory"
	case int(st.Uid) != os.Getuid():
		return fmt.Sprintf("owned by uid %d", st.Uid)
	case st.Mode&0o022 != 0:
		return "writable by group or others"
	}
	return ""
}
