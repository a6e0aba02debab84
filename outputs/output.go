package outputs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
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

	// Guarded by s.mu: set once the output has finished; its places in
	// the store's queues.
	finished   bool
	finishedAt time.Time
	links      [2]link

	// mu guards what follows and orders the writes to the files. Lock
	// order: mu before s.mu.
	mu      sync.Mutex
	streams [2]stream
	done    bool
	// toFiles: every later byte goes to the files (Persist).
	toFiles bool
	// changed, once a waiter made it, is closed and cleared whenever a
	// stream grows or the output finishes: waiters select on the current
	// one. Writes nobody waits for allocate nothing.
	changed chan struct{}
}

// stream is one stream's bytes and counts: in memory (mem) until it
// outgrows Config.InMemory or the memory bound, then in its file.
type stream struct {
	// mem holds the kept bytes while the stream is in memory. It is only
	// ever appended to, so a slice of it handed to a reader never changes.
	mem       []byte
	inFile    bool     // the kept bytes are in the file (mem is nil)
	hasFile   bool     // the file exists (created on its first byte)
	f         *os.File // the file open for writing until Finish
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
	if !st.failed {
		keep = min(int64(len(p)), s.cfg.PerStream-st.size)
	}
	var g grant
	if keep > 0 {
		g = s.reserve(o, keep, !st.inFile && !o.toFiles && st.size+keep <= s.cfg.InMemory)
		keep = g.n
	}
	if keep < int64(len(p)) {
		st.truncated = true
	}
	if keep > 0 {
		o.keep(w.i, p[:keep], g.memory)
	}
	full := st.failed || st.size >= s.cfg.PerStream
	o.broadcast()
	o.mu.Unlock()
	s.notifyGone(g.deleted)
	s.notifyChanged(o.ID)
	if full {
		return len(p), ErrStreamFull
	}
	return len(p), nil
}

// keep stores p, granted by reserve, in memory or in stream i's file.
// Called with o.mu held.
func (o *Output) keep(i int, p []byte, memory bool) {
	st := &o.streams[i]
	n := int64(len(p))
	if memory {
		st.mem = append(st.mem, p...)
		st.size += n
		return
	}
	if !o.moveToFile(i) {
		o.s.release(n, false)
		return
	}
	written, err := o.write(i, p)
	st.size += written
	if written < n {
		o.s.release(n-written, false)
	}
	if err != nil {
		st.failed, st.truncated = true, true
	}
}

// moveToFile puts stream i's bytes held in memory into its file, where
// every later byte goes. When the file cannot be written it removes it
// and returns false: the stream keeps its bytes in memory and nothing
// more. Called with o.mu held.
func (o *Output) moveToFile(i int) bool {
	st := &o.streams[i]
	if st.inFile {
		return true
	}
	if st.failed {
		return false
	}
	if st.size > 0 {
		if written, err := o.write(i, st.mem); err != nil || written < st.size {
			o.removeFile(i)
			st.failed, st.truncated = true, true
			return false
		}
	}
	o.s.moved(st.size)
	st.inFile, st.mem = true, nil
	return true
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
		st.f, st.hasFile = f, true
		o.s.fileCreated(1)
	}
	n, err := st.f.Write(p)
	return int64(n), err
}

// removeFile deletes a file that failed while the stream's bytes moved
// into it. Called with o.mu held.
func (o *Output) removeFile(i int) {
	st := &o.streams[i]
	if st.f != nil {
		st.f.Close()
		st.f = nil
	}
	if st.hasFile {
		_ = o.s.root.Remove(o.fileName(i))
		st.hasFile = false
		o.s.fileCreated(-1)
	}
}

func (o *Output) fileName(i int) string { return o.ID + "." + Streams[i] }

// broadcast wakes every waiter. Called with o.mu held.
func (o *Output) broadcast() {
	if o.changed != nil {
		close(o.changed)
		o.changed = nil
	}
}

func (o *Output) closeFiles() {
	for i := range o.streams {
		if f := o.streams[i].f; f != nil {
			f.Close()
			o.streams[i].f = nil
		}
	}
}

// Persist moves the bytes the output holds in memory to its files, where
// every later byte goes: for a call that becomes a job, whose output is
// read while it runs and usually outgrows the memory an answer's would
// take. A stream whose file cannot be written keeps what it holds and
// nothing more (Truncated). It does nothing once the output is done.
func (o *Output) Persist() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done {
		return
	}
	o.toFiles = true
	for i := range o.streams {
		o.moveToFile(i)
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
	for i := range o.streams {
		// A stream held in memory grew by appending: give back the
		// spare capacity of its last growth, as it is kept for the TTL.
		if st := &o.streams[i]; !st.inFile && cap(st.mem) > len(st.mem)+len(st.mem)/4 {
			st.mem = slices.Clip(slices.Clone(st.mem))
		}
	}
	o.broadcast()
	o.mu.Unlock()
	o.s.finished(o)
	o.s.notifyChanged(o.ID)
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
// (for a call whose output nobody can address): nothing of it stays in
// the store. Config.Changed hears of it as of any deletion, so that what
// the caller keeps by id (a resource subscription made while the call
// ran) goes too.
func (o *Output) Drop() {
	o.Finish()
	if o.s.drop(o) {
		o.s.notifyGone([]string{o.ID})
	}
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
	// Data is the bytes read; the caller must not modify them (a stream
	// held in memory is handed out without a copy).
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
	mem, inFile := o.streams[i].mem, o.streams[i].inFile
	o.mu.Unlock()
	c := Chunk{Offset: off, Info: in}
	size := in.Streams[i].Size
	if off >= size || n <= 0 {
		return c, o.alive()
	}
	n = min(n, size-off)
	if !inFile {
		c.Data = mem[off : off+n : off+n]
		return c, o.alive()
	}
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
		if o.changed == nil {
			o.changed = make(chan struct{})
		}
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

// OpenStdout returns the kept stdout for a chained call's standard input;
// the output must be done. A stdout held in memory comes as data (shared:
// the caller must not modify it), one in its file as that file open for
// reading (the caller closes it); an empty stdout is neither.
func (o *Output) OpenStdout() (data []byte, f *os.File, err error) {
	o.mu.Lock()
	done, st := o.done, o.streams[0]
	o.mu.Unlock()
	switch {
	case !done:
		return nil, nil, ErrRunning
	case st.size == 0:
		return nil, nil, nil
	case !st.inFile:
		return st.mem[:st.size:st.size], nil, o.alive()
	}
	f, err = o.s.root.Open(o.fileName(0))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, o.gone()
	}
	if err != nil {
		return nil, nil, err
	}
	return nil, f, nil
}

// ErrRunning is returned by OpenStdout for an output still being written.
var ErrRunning = errors.New("outputs: the output is still being written")
