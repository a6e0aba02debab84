//go:build unix && !linux

package audit

import "golang.org/x/sys/unix"

// reserve checks that the file system has room from size up to end
// (statfs): a check, not a reservation, as these systems have no
// fallocate that keeps the file's size.
func (r *room) reserve(size, end int64) error {
	r.allocate = false
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(r.f.Fd()), &st); err != nil {
		return nil // nothing to check with: the write will tell
	}
	if int64(st.Bavail)*int64(st.Bsize) < end-size {
		return ErrNoRoom
	}
	return nil
}
