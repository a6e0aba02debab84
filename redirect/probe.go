package redirect

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// maxLinkHops bounds how many dangling symlinks Probe follows for an output
// target, like the kernel's limit of 40 symlinks per lookup.
const maxLinkHops = 40

// Probe checks target as Check does and then against the file system under
// d, without creating, truncating, opening or blocking on anything (it
// only stats, lstats and reads links through d's os.Root).
//
// For input (output == false) the target must resolve inside dir and be a
// regular file. For output it must, if it exists, resolve inside dir and be
// a regular file with a single hard link; if it does not exist, its parent
// directory must exist inside dir. A symlink leading outside dir, dangling or
// not, yields CodeEscape; a missing input yields CodeInput; a directory as
// output yields CodeOutput; a FIFO, device or socket yields CodeNotRegular.
// Errors are *refusal.Rejection values.
//
// Probe is advisory (the file system may change before the real open);
// OpenInput and OpenOutput re-check everything atomically.
func Probe(d *workdir.Dir, target string, output bool) error {
	if err := Check(target); err != nil {
		return err
	}
	root := d.Root()
	if output {
		if err := probeOutput(root, target, target, 0); err != nil {
			return err
		}
		return checkGit(d, resolveAncestor(filepath.Join(d.Real(), target)), target)
	}
	fi, err := root.Stat(target)
	if err != nil {
		return openFailure(target, false, err)
	}
	return checkKind(target, fi, false)
}

// probeOutput checks name (target, or where a dangling symlink named by
// target points) for an output redirection; errors name target.
func probeOutput(root *os.Root, target, name string, hops int) error {
	fi, err := root.Stat(name)
	if err == nil {
		return checkKind(target, fi, true)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return openFailure(target, true, err)
	}
	// Missing: either name itself is a dangling symlink (O_CREAT would
	// follow it) or a plain new file whose parent must exist.
	if li, lerr := root.Lstat(name); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
		return probeDangling(root, target, name, hops)
	}
	if strings.HasSuffix(name, "/") {
		return openFailure(target, true, syscall.EISDIR)
	}
	pi, err := root.Stat(path.Dir(name))
	if err != nil {
		return openFailure(target, true, err)
	}
	if !pi.IsDir() {
		return openFailure(target, true, syscall.ENOTDIR)
	}
	return nil
}

// probeDangling follows the dangling symlink name lexically: the file an
// O_CREAT open would create is where the link points.
func probeDangling(root *os.Root, target, name string, hops int) error {
	if hops >= maxLinkHops {
		return openFailure(target, true, syscall.ELOOP)
	}
	link, err := root.Readlink(name)
	if err != nil {
		return openFailure(target, true, err)
	}
	next := path.Join(path.Dir(name), link)
	if path.IsAbs(link) || !filepath.IsLocal(next) {
		return escape(target)
	}
	return probeOutput(root, target, next, hops+1)
}

// checkKind refuses anything but a regular file, and for output a file
// with several hard links.
func checkKind(target string, fi fs.FileInfo, output bool) error {
	mode := fi.Mode()
	switch {
	case output && mode.IsDir():
		return openFailure(target, true, syscall.EISDIR)
	case !mode.IsRegular():
		return reject(CodeNotRegular, target, nil, "Redirection target %q is a %s, not a regular file", target, kindName(mode))
	case output && linkCount(fi) > 1:
		return reject(CodeOutput, target, nil, "Failed to open output file: %q has %d hard links; a hard-linked file may lie outside the working directory", target, linkCount(fi))
	}
	return nil
}

func kindName(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "directory"
	case mode&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "socket"
	case mode&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// errPathEscapesText is the text of os.Root's unexported escape error
// (os/file.go errPathEscapes, go1.24–1.26). TestEscapeDetection pins it.
const errPathEscapesText = "path escapes from parent"

func isEscape(err error) bool {
	for ; err != nil; err = errors.Unwrap(err) {
		if err.Error() == errPathEscapesText {
			return true
		}
	}
	return false
}

func escape(target string) *refusal.Rejection {
	return reject(CodeEscape, target, nil, "Redirection target escapes the working directory: %q", target)
}

// openFailure turns a file-system error into a *refusal.Rejection: CodeEscape for an
// os.Root escape, CodeNotRegular for ENXIO (a FIFO without a reader opened
// for writing), else CodeInput or CodeOutput with the OS reason.
func openFailure(target string, output bool, err error) *refusal.Rejection {
	if isEscape(err) {
		e := escape(target)
		e.Err = err
		return e
	}
	reason := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		reason = pe.Err
	}
	if errors.Is(err, syscall.ENXIO) {
		return reject(CodeNotRegular, target, err, "Redirection target %q is not a regular file: %v", target, reason)
	}
	if output {
		return reject(CodeOutput, target, err, "Failed to open output file: %q: %v", target, reason)
	}
	return reject(CodeInput, target, err, "Failed to open input file: %q: %v", target, reason)
}
