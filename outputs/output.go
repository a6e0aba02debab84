package outputs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"
)

// Output is one call's retained stdout and stderr.
type Output struct {
	ID      string
	s       *Store
	created time.Time
	// deleted is closed when the store deletes the output.
	deleted chan struct{}

	// Guarded by s.mu: set once the output has finished.
	finished   bool
	finishedAt time.Time

	// mu guards what follows and orders the writes to the files. Lock
	// order: mu before s.mu.
	mu      sync.Mutex
	streams [2]stream
	done    bool
	// changed is closed and replaced whenever a stream grows or the
	// output finishes: waiters select on the current one.
	changed chan struct{}
}

// stream is one stream's file and counts.
type stream struct {
	f         *os.File // open for writing until Finish; nil before the first byte
	size      int64    // bytes kept
	total     int64    // bytes given
	truncated bool     // some were discarded
	failed    bool     // a write error: keep nothing more
}

// Stdout is the writer of the stdout stream (for runner.Spec.StdoutTee).
func (o *Output) Stdout() io.Writer { return streamWriter{o, 0} }

// Stderr is the writer of the stderr stream.
func (o *Output) Stderr() io.Writer { return streamWriter{o, 1} }

type streamWriter struct {
	o *Output
	i int
}

// ErrStreamFull is what a stream's writer returns once the stream keeps nothing
// more (its per-stream cap reached, or a write error): the runner then
// stops handing it bytes and discards the rest of the drain at the pipe's
// speed (splice(2) on Linux) instead of copying every byte here only to
// count it. The caller gives the run's own counts to FinishCounted.
var ErrStreamFull = errors.New("outputs: the stream keeps nothing more")

// Write keeps what the per-stream cap and the quota allow and counts the
// rest. It accepts every byte (n is always len(p)); ErrStreamFull says that
// later ones would only be counted.
func (w streamWriter) Write(p []byte) (int, error) {
	o, s := w.o, w.o.s
	o.mu.Lock()
	if o.done {
		o.mu.Unlock()
		return len(p), nil
	}
	st := &o.streams[w.i]
	st.total += int64(len(p))
	var keep int64
	var deleted []string
	if !st.failed {
		keep = min(int64(len(p)), s.cfg.PerStream-st.size)
	}
	if keep > 0 {
		keep, deleted = s.reserve(o, keep)
	}
	if keep < int64(len(p)) {
		st.truncated = true
	}
	if keep > 0 {
		n, err := o.write(w.i, p[:keep])
		st.size += n
		if n < keep {
			s.release(keep - n)
		}
		if err != nil {
			st.failed, st.truncated = true, true
		}
	}
	full := st.failed || st.size >= s.cfg.PerStream
	o.broadcast()
	o.mu.Unlock()
	s.notify(deleted, true)
	s.notify([]string{o.ID}, false)
	if full {
		return len(p), ErrStreamFull
	}
	return len(p), nil
}

// write appends p to stream i's file, creating it on the first byte.
// Called with o.mu held.
func (o *Output) write(i int, p []byte) (int64, error) {
	st := &o.streams[i]
	if st.f == nil {
		f, err := o.s.root.OpenFile(o.fileName(i), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
		if err != nil {
			return 0, err
		}
		st.f = f
	}
	n, err := st.f.Write(p)
	return int64(n), err
}

func (o *Output) fileName(i int) string { return o.ID + "." + Streams[i] }

// broadcast wakes every waiter. Called with o.mu held.
func (o *Output) broadcast() {
	close(o.changed)
	o.changed = make(chan struct{})
}

func (o *Output) closeFiles() {
	for i := range o.streams {
		if f := o.streams[i].f; f != nil {
			f.Close()
			o.streams[i].f = nil
		}
	}
}

// Finish ends the output: nothing more is kept, and its time to live
// starts. Calling it again does nothing.
func (o *Output) Finish() {
	o.mu.Lock()
	if o.done {
		o.mu.Unlock()
		return
	}
	o.done = true
	o.closeFiles()
	o.broadcast()
	o.mu.Unlock()
	o.s.finished(o)
	o.s.notify([]string{o.ID}, false)
}

// FinishCounted finishes the output with the bytes each stream really
// carried, as the run counted them: past ErrStreamFull its writer saw no more.
// A count below what the writer saw (-1: the stream went elsewhere, a ">"
// file) changes nothing.
func (o *Output) FinishCounted(totals [2]int64) {
	o.mu.Lock()
	for i, n := range totals {
		if st := &o.streams[i]; n > st.total {
			st.total = n
			st.truncated = st.truncated || n > st.size
		}
	}
	o.mu.Unlock()
	o.Finish()
}

// Drop finishes the output and deletes it at once, without a tombstone
// (for a call whose output nobody can address).
func (o *Output) Drop() {
	o.Finish()
	o.s.drop(o)
}

// StreamInfo is one stream's state.
type StreamInfo struct {
	// Size is the bytes kept, Total the bytes the stream carried.
	Size, Total int64
	// Truncated: bytes past Size were discarded (the per-stream cap, the
	// quota, or a write error).
	Truncated bool
}

// Info is an output's state.
type Info struct {
	ID      string
	Created time.Time
	// Done: the output will not change any more.
	Done    bool
	Streams [2]StreamInfo
}

// Empty reports whether neither stream carried a byte.
func (i Info) Empty() bool { return i.Streams[0].Total == 0 && i.Streams[1].Total == 0 }

// Info returns the output's current state.
func (o *Output) Info() Info {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.infoLocked()
}

func (o *Output) infoLocked() Info {
	in := Info{ID: o.ID, Created: o.created, Done: o.done}
	for i, st := range o.streams {
		in.Streams[i] = StreamInfo{Size: st.size, Total: st.total, Truncated: st.truncated}
	}
	return in
}

// Chunk is a read of one stream.
type Chunk struct {
	Data []byte
	// Offset is where Data starts.
	Offset int64
	// Info is the output's state when the read began; Data never extends
	// past Info.Streams[stream].Size.
	Info Info
}

// Read returns up to n bytes of stream i from offset off. Past the kept
// bytes it returns no data (and no error). An output deleted meanwhile
// gives a *NotFoundError.
func (o *Output) Read(i int, off, n int64) (Chunk, error) {
	o.mu.Lock()
	in := o.infoLocked()
	o.mu.Unlock()
	c := Chunk{Offset: off, Info: in}
	size := in.Streams[i].Size
	if off >= size || n <= 0 {
		return c, o.alive()
	}
	n = min(n, size-off)
	f, err := o.s.root.Open(o.fileName(i))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return c, o.gone()
		}
		return c, err
	}
	defer f.Close()
	buf := make([]byte, n)
	got, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return c, err
	}
	c.Data = buf[:got]
	return c, o.alive()
}

// alive is nil, or the *NotFoundError of an output whose deletion has
// completed.
func (o *Output) alive() error {
	select {
	case <-o.deleted:
		return o.gone()
	default:
		return nil
	}
}

// gone is the *NotFoundError of a file that was not there: the store's
// lock orders it after a deletion in progress (which removes the files
// before it closes deleted), so the tombstone is there by then.
func (o *Output) gone() error {
	s := o.s
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.gone[o.ID]
	if s.byID[o.ID] == o {
		return fmt.Errorf("outputs: a file of output %s is missing", o.ID)
	}
	return &NotFoundError{ID: o.ID, Reason: t.reason, At: t.at}
}

// Wait blocks until stream i has more than off bytes kept, the output is
// done or deleted, or ctx ends.
func (o *Output) Wait(ctx context.Context, i int, off int64) {
	for {
		o.mu.Lock()
		ready := o.streams[i].size > off || o.done
		ch := o.changed
		o.mu.Unlock()
		if ready {
			return
		}
		select {
		case <-ch:
		case <-o.deleted:
			return
		case <-ctx.Done():
			return
		}
	}
}

// OpenStdout opens the kept stdout for reading (for a chained call's
// stdin): the file, or /dev/null when stdout was empty. The output must be
// done. The caller closes the file.
func (o *Output) OpenStdout() (*os.File, error) {
	in := o.Info()
	if !in.Done {
		return nil, ErrRunning
	}
	if in.Streams[0].Size == 0 {
		return os.Open(os.DevNull)
	}
	f, err := o.s.root.Open(o.fileName(0))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, o.gone()
	}
	return f, err
}

// ErrRunning is returned by OpenStdout for an output still being written.
var ErrRunning = errors.New("outputs: the output is still being written")
