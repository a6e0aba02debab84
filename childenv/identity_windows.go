//go:build windows

// File identity on Windows: volume and file index, size and last write.

package childenv

import (
	"io/fs"
	"os"
)

// sameFile reports whether a and b describe the same file in the same
// state (os.SameFile compares the volume serial number and file index).
func sameFile(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}
