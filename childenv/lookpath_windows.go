//go:build windows

// Windows PATH search: entries are separated by ";", a name without an
// extension is tried with each PATHEXT extension (pathext.go), and a name
// that resolves to a .bat/.cmd (or another script) is refused; there is
// no execute bit to check.

package childenv

import (
	"os"
	"path/filepath"
	"strings"
)

// LookPath resolves a program name for a child.
//
// A name without a directory part ("\", "/" or a drive "C:") is searched
// in pathList (";"-separated), skipping empty and relative entries, so
// the working directory is never searched (unlike cmd.exe). A name with
// one is taken as is when absolute, or joined with dir when relative. In
// both cases the DefaultPathext extensions are tried (findExt), and the
// first existing regular file decides: a .com or .exe is returned, any
// other gives a *LookupError wrapping a *ScriptFileError. Errors are
// *LookupError.
func LookPath(name, pathList, dir string) (string, error) {
	if name == "" || strings.IndexByte(name, 0) >= 0 {
		return "", &LookupError{Name: name}
	}
	var dirs []string
	file := name
	if strings.ContainsAny(name, `\/:`) {
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, name)
		}
		dirs = []string{""}
	} else {
		for entry := range strings.SplitSeq(pathList, string(filepath.ListSeparator)) {
			if filepath.IsAbs(entry) {
				dirs = append(dirs, entry)
			}
		}
	}
	found, ok, err := findExt(file, dirs, DefaultPathext, regular)
	switch {
	case err != nil:
		return "", &LookupError{Name: name, Err: err}
	case !ok:
		return "", &LookupError{Name: name}
	}
	return found, nil
}

// regular reports whether file exists and is a regular file.
func regular(file string) bool {
	fi, err := os.Stat(file)
	return err == nil && fi.Mode().IsRegular()
}
