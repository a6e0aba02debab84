package audit

import (
	"errors"
	"fmt"
	"os"
)

// MaxRecord is the longest line a record encodes to: every string field
// is capped and the argv, env and child_env lists are bounded, and a
// record that still encodes longer is written in its compact form
// (compact), which cannot (TestRecordBound). A call's reservation is this
// much room on the destination.
const MaxRecord = 64 << 10

// roomAhead is how far beyond what is needed the room on a file is
// reserved at once, so that a call's admission seldom costs a system
// call: sixteen records of the largest size.
const roomAhead = 16 * MaxRecord

// ErrNoRoom is the error of a reservation the destination's file system
// has no room for.
var ErrNoRoom = errors.New("the audit log's file system has no room for another call's record")

// room reserves bytes on a regular file destination ahead of the writes:
// allocated blocks past the end of the file where the file system can
// allocate them without changing the file's size (Linux fallocate
// FALLOC_FL_KEEP_SIZE), else a check of the file system's free space
// (statfs). A nil room reserves nothing (a pipe, a terminal, /dev/full,
// an unsupported platform): there a failed write is what stops calls.
type room struct {
	f *os.File
	// end is the offset up to which room is known to be reserved.
	end int64
	// allocate is false once the file system refused fallocate as
	// unsupported; free space is then checked instead.
	allocate bool
	// space, when set, replaces the file system (tests).
	space func(size, end int64) error
}

// newRoom returns the room of w when it is a regular file, else nil.
func newRoom(w any) *room {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	return &room{f: f, end: fi.Size(), allocate: true}
}

// ensure makes sure that room up to offset need is reserved, where size
// is the file's size now. It reserves roomAhead more when it can.
func (r *room) ensure(size, need int64) error {
	if r == nil || need <= r.end {
		return nil
	}
	reserve := r.reserve
	if r.space != nil {
		reserve = r.space
	}
	for _, target := range []int64{need + roomAhead, need} {
		err := reserve(size, target)
		if err == nil {
			r.end = target
			return nil
		}
		if !errors.Is(err, ErrNoRoom) {
			return err
		}
	}
	return fmt.Errorf("%w (%d bytes needed)", ErrNoRoom, need-size)
}

// shrunk tells r that the file is size bytes long, fewer than it thought
// (a failed write was truncated away, or the file was truncated from
// outside): the blocks reserved past the end went with it.
func (r *room) shrunk(size int64) {
	if r != nil && size < r.end {
		r.end = size
	}
}

// release gives the reserved blocks past the end back (at close).
func (r *room) release() {
	if r == nil || !r.allocate {
		return
	}
	if fi, err := r.f.Stat(); err == nil && r.end > fi.Size() {
		r.f.Truncate(fi.Size())
	}
}
