//go:build windows

// Windows has no FIFOs under a directory, no O_NONBLOCK and no nlink in
// os.FileInfo: the hard-link count of an output file is read from the
// opened handle instead (GetFileInformationByHandle), and a file whose
// count cannot be read is refused.

package redirect

import (
	"io/fs"
	"math"
	"os"

	"golang.org/x/sys/windows"
)

// openFlags adds nothing: handles are not inherited unless passed, and
// no open of a regular path blocks.
const openFlags = 0

// linkCount is 1: a stat by path carries no link count on Windows;
// openedLinks checks the opened file.
func linkCount(fs.FileInfo) uint64 { return 1 }

// openedLinks is the opened file's number of links, or MaxUint64 when it
// cannot be read (refused, as a file that may have several).
func openedLinks(f *os.File) uint64 {
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &info); err != nil {
		return math.MaxUint64
	}
	return uint64(info.NumberOfLinks)
}

// clearNonblock has nothing to clear.
func clearNonblock(*os.File, string, bool) error { return nil }
