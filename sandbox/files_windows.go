//go:build windows

// Windows has no uid or POSIX mode to check: the directories are the
// user's own beneath %TEMP% or %LOCALAPPDATA%, and never reused. Stages
// start directly on Windows (mode off, see rlimit_windows.go), so none of
// these is reached by a call today; they fail closed should that change.

package sandbox

import (
	"fmt"
	"io/fs"
	"os"
)

// platformReadDirs are DefaultReadDirs: none, since there is no ruleset to
// give them to, and a POSIX path is not absolute on Windows (validate
// would refuse it).
var platformReadDirs = []string{}

// ownDir creates dir and checks that it is a plain directory (not a
// junction or symbolic link another user planted); ownership cannot be
// checked without the ACL.
func ownDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeType != fs.ModeDir {
		return fmt.Errorf("%s is not a plain directory", dir)
	}
	return nil
}

// reusable is false: without a uid and mode to compare, a call's
// directory is never handed to a later call.
func reusable(string) bool { return false }

// statID identifies p by size and modification time (no inode number in
// os.FileInfo on Windows).
func statID(p string) fileID {
	fi, err := os.Stat(p)
	if err != nil {
		return fileID{}
	}
	return fileID{ino: uint64(fi.Size()), mtime: fi.ModTime().UnixNano()}
}

// creatable is true: Windows has no kernel sandbox, so no stage gets a
// cache directory to create.
func creatable(string) bool { return true }

// onlyMine: ownership cannot be checked, so no cache of the user is
// shared.
func onlyMine(string) string { return "ownership cannot be checked on Windows" }
