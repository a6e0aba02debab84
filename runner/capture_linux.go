//go:build linux

// A drain nobody watches is discarded with splice(2) into /dev/null, which
// drops the pipe's pages without copying them to user space: Linux only
// (splice(2) is a Linux system call); elsewhere capture_other.go reads.

package runner

import (
	"errors"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// spliceMax bounds one splice(2) from the pipe to /dev/null; the kernel
// moves at most what the pipe holds anyway.
const spliceMax = 1 << 30

// drainPipe is the pipe size a drain asks for (F_SETPIPE_SZ) before it
// splices: each splice(2) moves what the pipe holds, and each time the
// pipe runs dry the reader parks in the poller until the writer refills
// it, so sixteen times the default 64 KiB takes a sixteenth of the
// wake-ups per byte (splice of 1 GiB: about 180 ms of CPU at 64 KiB, 140
// at 1 MiB, measured), and a reader the scheduler runs late stalls the
// writer less. 1 MiB is /proc/sys/fs/pipe-max-size's default, the most an
// unprivileged process may set; the kernel allocates the pages only as
// the writer fills them, and a refusal (past that size, or past the
// user's pipe-user-pages-soft) leaves the pipe as it was.
const drainPipe = 1 << 20

// devNull is the process's one /dev/null for splice(2), opened on first
// use and never closed (close-on-exec, like every descriptor Go opens).
var devNull = sync.OnceValues(func() (*os.File, error) {
	return os.OpenFile(os.DevNull, os.O_WRONLY, 0)
})

// splice discards the rest of r with splice(2) into /dev/null, which
// drops the pipe's pages without copying them; false when the kernel
// refuses, so that the caller reads the rest instead.
func (c *capture) splice(r *os.File) bool {
	c.noSplice = true // whatever happens, it is not tried again
	null, err := devNull()
	if err != nil {
		return false
	}
	rc, err := r.SyscallConn()
	if err != nil {
		return false
	}
	out := int(null.Fd())
	rc.Control(func(fd uintptr) { unix.FcntlInt(fd, unix.F_SETPIPE_SZ, drainPipe) })
	for {
		var n int64
		var serr error
		err := rc.Read(func(fd uintptr) bool {
			n, serr = unix.Splice(int(fd), nil, out, nil, spliceMax, unix.SPLICE_F_NONBLOCK)
			return serr != unix.EAGAIN // false: wait until the pipe is readable
		})
		switch {
		case n > 0:
			c.count(n)
			c.overflowed()
		case errors.Is(serr, unix.EINTR):
		case err != nil || serr == nil: // a read deadline, or EOF
			return true
		default:
			return false
		}
	}
}
