//go:build unix

package fsview

import "golang.org/x/sys/unix"

// openFlags are added to every open: O_NONBLOCK, so that opening a FIFO
// returns at once instead of waiting for a writer, and O_CLOEXEC.
const openFlags = unix.O_NONBLOCK | unix.O_CLOEXEC
