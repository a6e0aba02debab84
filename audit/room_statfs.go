//go:build unix

package audit

import "golang.org/x/sys/unix"

// freeRoom checks that r's file system has room from size up to end
// (statfs, the blocks available to unprivileged users): a check, not a
// reservation. Without statfs there is nothing to check with, and the
// write will tell.
func (r *room) freeRoom(size, end int64) error {
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(r.f.Fd()), &st); err != nil {
		return nil
	}
	if int64(st.Bavail)*int64(st.Bsize) < end-size {
		return ErrNoRoom
	}
	return nil
}
