//go:build unix

// Makefiles read from standard input through unnormalised paths and
// working-directory symlinks: the rows need symlinks to /dev and /proc and
// a FIFO, so Unix only.

package argvrules

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// makeDeviceRows are the makefile paths that reach standard input or a
// device (through "//", "..", /proc/self/fd, symlinks in the working
// directory, a FIFO) and the everyday paths next to them; they run in
// deviceDir.
var makeDeviceRows = familyRows([]row{
	{a("make", "-f", "Makefile.ci", "test"), ""},
	{a("make", "-f", "Makefile", "-f", "rules.mk"), ""},
	{a("make", "-C", "sub"), ""},
	{a("make", "-C", "sub", "-f", "../Makefile"), ""},
	{a("make", "-f", "sub/../Makefile"), ""},
	{a("make", "-I", "include", "all"), ""},
	{a("make", "-f", "file.txt"), ""},
	{a("make", "-f", "//dev/stdin"), "make.stdin-makefile"},
	{a("make", "-f", "../../../proc/self/fd/0"), "make.stdin-makefile"},
	{a("make", "-f", "../../../../../../../../../../../../../proc/self/fd/0"), "make.stdin-makefile"},
	{a("make", "-f", "/./dev/stdin"), "make.stdin-makefile"},
	{a("make", "--file=//proc/self/fd/0"), "make.stdin-makefile"},
	{a("make", "--makefile", "/dev//fd/0"), "make.stdin-makefile"},
	{a("make", "--fi=/dev/stdin"), "make.stdin-makefile"},
	{a("make", "-sf/dev/stdin"), "make.stdin-makefile"},
	{a("make", "-f", "/sys/kernel/notes"), "make.stdin-makefile"},
	{a("make", "all", "-f", "-"), "make.stdin-makefile"},
	{a("make", "-f", "in"), "make.stdin-makefile"},               // in -> /dev/stdin
	{a("make", "-f", "fd0"), "make.stdin-makefile"},              // fd0 -> /proc/self/fd/0
	{a("make", "-f", "devdir/stdin"), "make.stdin-makefile"},     // devdir -> /dev
	{a("make", "-f", "loop"), "make.stdin-makefile"},             // loop -> loop
	{a("make", "-f", "fifo"), "make.stdin-makefile"},             // a named pipe
	{a("make", "-f", "usr/../dev/stdin"), "make.stdin-makefile"}, // usr -> /usr
	{a("make", "-f", "link/../Makefile"), ""},                    // link -> sub
	{a("make", "-C", "/dev", "-f", "stdin"), "make.device-directory"},
	{a("make", "-f", "stdin", "-C", "devdir"), "make.device-directory"},
	{a("make", "-C", "/", "-f", "dev/stdin"), "make.stdin-makefile"},
	{a("make", "-C", "/proc/self/fd"), "make.device-directory"},
	{a("make", "-C", "sub", "-C", "../../../../../../../../../../proc/self", "-f", "fd/0"), "make.device-directory"},
	{a("make", "-I", "/dev/fd"), "make.device-directory"},
	{a("make", "--include-dir=/proc/self/fd", "all"), "make.device-directory"},
	{a("make", "-f", "bad\x00name"), "make.stdin-makefile"},
})

// deviceDir is rowDir plus symlinks and special files: in -> /dev/stdin,
// fd0 -> /proc/self/fd/0, devdir -> /dev, loop -> loop, link -> sub,
// usr -> /usr, and the FIFO fifo.
func deviceDir(t testing.TB) string {
	t.Helper()
	dir := rowDir(t)
	for name, target := range map[string]string{
		"in": "/dev/stdin", "fd0": "/proc/self/fd/0", "devdir": "/dev", "loop": "loop", "link": "sub", "usr": "/usr",
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestMakeDeviceRows(t *testing.T) { checkRowsIn(t, deviceDir(t), makeDeviceRows) }
