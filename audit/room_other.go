//go:build unix && !linux

package audit

// reserve checks that the file system has room from size up to end: a
// check, not a reservation, as these systems have no fallocate that keeps
// the file's size.
func (r *room) reserve(size, end int64) error {
	r.allocate = false
	return r.freeRoom(size, end)
}
