package audit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// DefaultQueue is how many lines a Sink holds for a destination that is
// not keeping up: enough for every running call to finish at once four
// times over (MCP_SHELL_MAX_CONCURRENT defaults to 64), small enough that
// a blocked destination stops new calls (Reserve fails) after seconds, not
// after memory is gone.
const DefaultQueue = 256

// stallAfter is how long a write may take before the destination counts
// as stalled: a local file or a drained pipe takes microseconds, so a
// write this slow means the reader stopped. Callers then stop waiting for
// their lines (Ticket.Log returns at once) instead of each losing this
// much time.
const stallAfter = 100 * time.Millisecond

// Errors a Sink reports.
var (
	// ErrFull: the queue is full; the destination is not keeping up.
	ErrFull = errors.New("the audit queue is full (the destination is not being read or written)")
	// ErrClosed: the sink was closed.
	ErrClosed = errors.New("the audit log is closed")
)

// A Sink writes lines to one destination, in order, one Write per line,
// from one goroutine, so that a caller never blocks on the destination: a
// slow or blocked stderr delays the lines, not the calls. Its queue is
// bounded: Reserve fails when it is full or when the last write failed
// (the caller then refuses to run the call), and best-effort lines
// (Write) are dropped once three quarters of it are in use, keeping the
// rest for reservations. A Sink is itself an io.Writer of best-effort
// lines, for diagnostics sharing the destination; counting what was
// dropped is the caller's job.
//
// On a regular file a failed or short write is undone (the file is
// truncated to its size before the write), so the file only ever holds
// whole lines, and room is reserved on the file system ahead of the
// writes (room.go): a Reserve holds MaxRecord bytes until its line is
// queued, a queued line its own length until written, and Reserve fails
// when the file system cannot give that much (ErrNoRoom). So on a
// file system that fills up, a call is refused while there is room left
// for a small record but not for its own, instead of being admitted by
// the small record's success and failing with its own. Best-effort lines
// never take room reserved for others: they are dropped instead.
type Sink struct {
	w   io.Writer
	cap int
	// room reserves space on a regular file (nil otherwise); size is the
	// file's size as the writer left it, queuedBytes the length of the
	// lines queued.
	room        *room
	size        int64
	queuedBytes int64

	mu       sync.Mutex
	queue    []line
	reserved int
	closed   bool
	// failed is the last write's error; nil once a write succeeds again,
	// or, after the file system ran out of space, once room can be
	// reserved again.
	failed error
	// busy is true from the moment the writer takes a line until its
	// write returns.
	busy bool
	// idle is signalled whenever the queue empties and nothing is being
	// written.
	idle *sync.Cond
	wake chan struct{}

	// writeStart is the start of the write in progress (unix
	// nanoseconds), 0 when none.
	writeStart atomic.Int64
}

type line struct {
	data []byte
	// done, when not nil, learns the write's result.
	done func(error)
}

// NewSink starts a Sink writing to w that holds at most capacity lines
// (DefaultQueue when capacity <= 0).
func NewSink(w io.Writer, capacity int) *Sink {
	if capacity <= 0 {
		capacity = DefaultQueue
	}
	s := &Sink{w: w, cap: capacity, wake: make(chan struct{}, 1), room: newRoom(w)}
	if s.room != nil {
		s.size = s.room.end
	}
	s.idle = sync.NewCond(&s.mu)
	go s.run()
	return s
}

// Slot is room reserved in a Sink's queue for one line.
type Slot struct {
	s    *Sink
	used bool
}

// Reserve reserves room for one line of at most MaxRecord bytes: in the
// queue and, on a regular file, on the file system. It fails, without
// waiting, when the sink is closed, when the last write failed (the error
// says why; a file system that ran out of space counts as recovered once
// room can be reserved again), when the queue is full or when the file
// system has no room (ErrNoRoom).
func (s *Sink) Reserve() (*Slot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, ErrClosed
	case s.failed != nil && !(s.room != nil && noSpace(s.failed)):
		return nil, fmt.Errorf("the audit log cannot be written: %w", s.failed)
	case len(s.queue)+s.reserved >= s.cap:
		return nil, ErrFull
	}
	if err := s.room.ensure(s.size, s.size+s.queuedBytes+int64(s.reserved+1)*MaxRecord); err != nil {
		return nil, fmt.Errorf("the audit log cannot take a call's record: %w", err)
	}
	s.failed = nil // room was reserved: a file system that was full has room again
	s.reserved++
	return &Slot{s: s}, nil
}

// noSpace reports a write that failed for lack of space.
func noSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, ErrNoRoom)
}

// Put queues data (one line, newline included) in the reserved room; done,
// when not nil, is called with the write's result. A slot is used once.
func (sl *Slot) Put(data []byte, done func(error)) {
	s := sl.s
	s.mu.Lock()
	if sl.used {
		s.mu.Unlock()
		panic("audit: slot used twice")
	}
	sl.used = true
	s.reserved--
	s.queue = append(s.queue, line{data, done})
	s.queuedBytes += int64(len(data))
	s.mu.Unlock()
	s.notify()
}

// Release gives unused room back.
func (sl *Slot) Release() {
	s := sl.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if !sl.used {
		sl.used = true
		s.reserved--
		s.idle.Broadcast()
		defer s.notify()
	}
}

// TryPut queues a best-effort line; it reports false, queueing nothing,
// when the sink is closed, three quarters of the queue are in use or the
// file system has no room for the line beyond what is reserved.
func (s *Sink) TryPut(data []byte, done func(error)) bool {
	s.mu.Lock()
	if s.closed || (len(s.queue)+s.reserved)*4 >= s.cap*3 ||
		s.room.ensure(s.size, s.size+s.queuedBytes+int64(s.reserved)*MaxRecord+int64(len(data))) != nil {
		s.mu.Unlock()
		return false
	}
	s.queue = append(s.queue, line{data, done})
	s.queuedBytes += int64(len(data))
	s.mu.Unlock()
	s.notify()
	return true
}

// Write queues a copy of p as a best-effort line and never blocks; a line
// that does not fit is dropped. It always reports success: a diagnostic
// that cannot be written has nowhere else to go.
func (s *Sink) Write(p []byte) (int, error) {
	s.TryPut(append([]byte(nil), p...), nil)
	return len(p), nil
}

// Stalled reports whether a write has been in progress for longer than
// stallAfter.
func (s *Sink) Stalled() bool {
	t := s.writeStart.Load()
	return t != 0 && time.Since(time.Unix(0, t)) > stallAfter
}

// Flush waits until every queued line has been written (or failed), or ctx
// is done.
func (s *Sink) Flush(ctx context.Context) error {
	return s.waitFor(ctx, func() bool { return len(s.queue) == 0 && !s.busy })
}

// Close stops accepting lines other than those of slots already reserved,
// and waits until those are in and everything queued is written, or ctx is
// done.
func (s *Sink) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.notify()
	err := s.waitFor(ctx, func() bool { return len(s.queue) == 0 && !s.busy && s.reserved == 0 })
	if err == nil {
		s.mu.Lock()
		s.room.release()
		s.mu.Unlock()
	}
	return err
}

// waitFor waits, holding s.mu between checks, until done reports true or
// ctx is done.
func (s *Sink) waitFor(ctx context.Context, done func() bool) error {
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.idle.Broadcast()
		s.mu.Unlock()
	})
	defer stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for !done() {
		if ctx.Err() != nil {
			return fmt.Errorf("audit: %d lines not written, %d records still expected: %w", len(s.queue), s.reserved, ctx.Err())
		}
		s.idle.Wait()
	}
	return nil
}

func (s *Sink) notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// run is the writer: one line at a time, in order.
func (s *Sink) run() {
	for {
		s.mu.Lock()
		for len(s.queue) == 0 {
			s.busy = false
			s.idle.Broadcast()
			if s.closed && s.reserved == 0 {
				s.mu.Unlock()
				return
			}
			s.mu.Unlock()
			<-s.wake
			s.mu.Lock()
		}
		l := s.queue[0]
		s.queue[0] = line{}
		s.queue = s.queue[1:]
		s.busy = true
		s.mu.Unlock()

		s.writeStart.Store(time.Now().UnixNano())
		size, err := writeLine(s.w, l.data)
		s.writeStart.Store(0)

		s.mu.Lock()
		s.failed = err
		s.queuedBytes -= int64(len(l.data))
		if size >= 0 {
			if size < s.size+int64(len(l.data)) && err == nil {
				s.room.shrunk(size) // truncated from outside
			}
			if err != nil {
				s.room.shrunk(size) // the failed line was truncated away
			}
			s.size = size
		}
		s.mu.Unlock()
		if l.done != nil {
			l.done(err)
		}
	}
}

// writeLine writes p with one Write and returns the size of a regular
// file afterwards (-1 for other destinations). On a regular file a failed
// or short write is rolled back, so no partial line stays.
func writeLine(w io.Writer, p []byte) (int64, error) {
	f, ok := w.(truncater)
	var size int64 = -1
	if ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	}
	n, err := w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	switch {
	case size < 0:
	case err == nil:
		size += int64(n)
	case n > 0:
		if terr := f.Truncate(size); terr != nil {
			err = fmt.Errorf("%w (and the partial line could not be removed: %v)", err, terr)
			size += int64(n)
		}
	}
	return size, err
}

// truncater is a destination whose partial writes can be undone: an
// *os.File (O_APPEND: each write lands at the end, so the size before it
// is where the line began).
type truncater interface {
	Stat() (os.FileInfo, error)
	Truncate(size int64) error
}
