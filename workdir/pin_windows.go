//go:build windows

// Windows pins the directory with a handle and reads its final path back
// from it (GetFinalPathNameByHandle), as Linux does from /proc/self/fd;
// the child's chdir still goes by that path (pin_other.go).

package workdir

import (
	"errors"
	"os"
	"strings"

	"golang.org/x/sys/windows"
)

// pin opens dir (os.Open opens a directory handle with
// FILE_FLAG_BACKUP_SEMANTICS) and asks the handle where it is.
func pin(dir string) (*Dir, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	d := &Dir{f: f}
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		d.Close()
		return nil, errors.Join(errors.New("not a directory"), err)
	}
	if d.real, err = finalPath(windows.Handle(f.Fd())); err != nil {
		d.Close()
		return nil, err
	}
	d.path = d.real
	return d, nil
}

// volumeNameDOS is VOLUME_NAME_DOS|FILE_NAME_NORMALIZED, both 0 in
// fileapi.h (x/sys/windows does not name them): a drive-letter path.
const volumeNameDOS = 0

// finalPath is the handle's path with drive letter, without the \\?\
// prefix GetFinalPathNameByHandle adds.
func finalPath(h windows.Handle) (string, error) {
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), volumeNameDOS)
	if err != nil {
		return "", err
	}
	if int(n) > len(buf) {
		return "", errors.New("directory path too long")
	}
	p := windows.UTF16ToString(buf[:n])
	if rest, ok := strings.CutPrefix(p, `\\?\UNC\`); ok {
		return `\\` + rest, nil
	}
	return strings.TrimPrefix(p, `\\?\`), nil
}
