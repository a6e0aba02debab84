package redirect

import (
	"fmt"
	"os"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// outputPerm is the mode of files created by ">" and ">>" (before umask):
// never executable.
const outputPerm = 0o644

// OpenInput opens the "<" target read-only through d's os.Root.
// The open uses O_NONBLOCK (a FIFO cannot block it) and O_CLOEXEC; the
// file must be a regular file, and O_NONBLOCK is cleared before the file is
// returned so the child sees ordinary blocking reads. The caller closes the
// file. Errors are *refusal.Rejection values (CodeEscape, CodeInput,
// CodeNotRegular, or a Check code).
func OpenInput(d *workdir.Dir, target string) (*os.File, error) {
	return open(d, target, os.O_RDONLY, false)
}

// OpenOutput opens the ">" (append false) or ">>" (append true) target
// through d's os.Root: O_WRONLY|O_CREATE plus O_APPEND for ">>",
// mode 0644 for new files, O_NONBLOCK and O_CLOEXEC. After fstat confirms a
// regular file with one hard link, execute and set-id bits are removed and,
// for ">", the file is truncated (truncation happens only after the checks,
// so a refused target is never modified). The caller closes the file.
// Errors are *refusal.Rejection values (CodeEscape, CodeOutput,
// CodeNotRegular, or a Check code).
func OpenOutput(d *workdir.Dir, target string, append bool) (*os.File, error) {
	flag := os.O_WRONLY | os.O_CREATE
	if append {
		flag |= os.O_APPEND
	}
	return open(d, target, flag, true)
}

func open(d *workdir.Dir, target string, flag int, output bool) (*os.File, error) {
	if err := Check(target); err != nil {
		return nil, err
	}
	root := d.Root()
	// Refuse an existing non-regular file before opening it: opening some
	// devices has side effects. fstat below is the authoritative check.
	if fi, err := root.Stat(target); err == nil {
		if err := checkKind(target, fi, output); err != nil {
			return nil, err
		}
	}
	_, statErr := root.Lstat(target)
	f, err := root.OpenFile(target, flag|openFlags, outputPerm)
	if err != nil {
		return nil, openFailure(target, output, err)
	}
	if output {
		if err := checkOpenedGit(d, f, target); err != nil {
			f.Close()
			if os.IsNotExist(statErr) {
				root.Remove(target) // the open created it: leave nothing behind
			}
			return nil, err
		}
	}
	if err := settle(f, target, flag, output); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkOpenedGit refuses an opened output file that lies in a .git
// directory below d, wherever symlinks led the open.
func checkOpenedGit(d *workdir.Dir, f *os.File, target string) error {
	real, err := openedPath(d, f, target)
	if err != nil {
		return openFailure(target, true, fmt.Errorf("locating the opened file: %w", err))
	}
	return checkGit(d, real, target)
}

// settle verifies the opened file and puts it in the state the child gets.
func settle(f *os.File, target string, flag int, output bool) error {
	fi, err := f.Stat()
	if err != nil {
		return openFailure(target, output, err)
	}
	if err := checkKind(target, fi, output); err != nil {
		return err
	}
	if output && openedLinks(f) > 1 {
		return reject(CodeOutput, target, nil, "Failed to open output file: %q has several hard links; a hard-linked file may lie outside the working directory", target)
	}
	if output {
		if perm := fi.Mode(); perm&(0o111|os.ModeSetuid|os.ModeSetgid) != 0 {
			if err := f.Chmod(perm.Perm() &^ 0o111); err != nil {
				return openFailure(target, true, fmt.Errorf("removing execute permission: %w", err))
			}
		}
		if flag&os.O_APPEND == 0 {
			if err := f.Truncate(0); err != nil {
				return openFailure(target, true, err)
			}
		}
	}
	return clearNonblock(f, target, output)
}
