package audit

import (
	"errors"

	"golang.org/x/sys/unix"
)

// reserve reserves the room from size up to end: fallocate with
// FALLOC_FL_KEEP_SIZE allocates the blocks without changing the file's
// size, so the appends that follow cannot fail for lack of space (ext4,
// xfs, btrfs, tmpfs). A file system without fallocate gets the free-space
// check instead.
func (r *room) reserve(size, end int64) error {
	if r.allocate {
		err := unix.Fallocate(int(r.f.Fd()), unix.FALLOC_FL_KEEP_SIZE, size, end-size)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.EDQUOT) || errors.Is(err, unix.EFBIG):
			return ErrNoRoom
		default:
			// EOPNOTSUPP (no fallocate), EPERM (an append-only file),
			// EINVAL: the free space is what can be checked.
			r.allocate = false
		}
	}
	return r.freeRoom(size, end)
}
