package argvrules

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// maxScriptFile is the largest file a recognizer reads to judge it (a sed
// -f script, an openssl -config file): far above any hand-written script,
// small enough that judging a call never holds much memory.
const maxScriptFile = 1 << 20

// errNoDir is readInside's error when no working directory is pinned.
var errNoDir = errors.New("no working directory is pinned, so the file cannot be read")

// readInside reads the file a program will read as code or configuration
// (sed -f, openssl -config), through the call's pinned working directory:
// a relative name (or an absolute one inside the directory) that
// resolves inside it without a symlink leading out, a regular file (a
// FIFO is refused without blocking), at most maxScriptFile bytes. What
// the program reads later is the file as it is then: a file changed
// between this read and the run is contained by the kernel sandbox, not
// by this check.
func readInside(ctx Context, name string) (string, error) {
	if ctx.Dir == nil {
		return "", errNoDir
	}
	rel := name
	if filepath.IsAbs(name) {
		r, err := filepath.Rel(ctx.Dir.Real(), name)
		if err != nil || !workdir.Within(name, ctx.Dir.Real()) {
			return "", fmt.Errorf("%q is outside the working directory", name)
		}
		rel = filepath.ToSlash(r)
	}
	if ctx.base != "" {
		rel = ctx.base + "/" + rel
	}
	f, err := redirect.OpenInput(ctx.Dir, rel)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxScriptFile+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxScriptFile {
		return "", fmt.Errorf("%q is larger than %d bytes", name, maxScriptFile)
	}
	return string(b), nil
}

// statInside is what the policy may learn about a file a stage names:
// when name (relative, or absolute inside the directory) stays inside
// the call's pinned working directory, its metadata or the error that it
// does not exist there (inside is true); for any other name, nothing. A
// verdict that depended on a stat outside would tell the client whether
// a file the sandbox hides from the stage exists.
func statInside(ctx Context, name string) (fi fs.FileInfo, inside bool, err error) {
	if ctx.Dir == nil {
		return nil, false, nil
	}
	rel := name
	if filepath.IsAbs(name) {
		r, err := filepath.Rel(ctx.Dir.Real(), name)
		if err != nil || !workdir.Within(name, ctx.Dir.Real()) {
			return nil, false, nil
		}
		rel = r
	}
	fi, err = ctx.Dir.Root().Stat(rel)
	switch {
	case err == nil:
		return fi, true, nil
	case errors.Is(err, fs.ErrNotExist):
		// os.Root reports a name that leads out (by .. or a symlink) as
		// escaping, never as missing: this one is missing inside.
		return nil, true, err
	}
	return nil, false, nil
}

// isStdinName reports whether a program reads name as its standard input
// (the "-" convention and the device names for it).
func isStdinName(name string) bool {
	switch name {
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	}
	return strings.HasPrefix(name, "/proc/") && strings.HasSuffix(name, "/fd/0")
}
