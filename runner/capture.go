package runner

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// firstBuf is the size of a stream's first buffer, taken from a pool:
// most outputs fit in it, so a call that prints little allocates only its
// exact result.
const firstBuf = 64 << 10

// growBy is how much each buffer after the first outgrows the one before
// (never past OutputLimit): buffers are sized by what arrived, not by the
// cap, so a 1 MiB output under a 64 MiB cap allocates, zeroes and later
// frees a few MiB rather than 64 (the tail latency and the resident
// memory that stayed behind), while a cap-sized output is moved into
// larger buffers about a third of its size in all.
const growBy = 4

// drainBuf is the size of a read past the cap when the bytes are read
// rather than spliced away (a tee sees them, or splice is refused),
// pooled so that a drain allocates nothing. A pipe read returns at most
// what the pipe holds (64 KiB by default): 64 KiB, 256 KiB and 1 MiB
// measured alike in BenchmarkDrain/256MiB/tee.
const drainBuf = 256 << 10

// trimBelow: a stream that ends using less than 1/trimBelow of its
// buffer is copied into one of its own size, so a result kept after the
// call (a job's, until it expires) does not pin up to growBy times its
// size; the copy is then smaller than half of the buffer.
const trimBelow = 2

// The pools hold *[]byte, so that Put does not allocate.
var (
	firstPool = sync.Pool{New: func() any { b := make([]byte, firstBuf); return &b }}
	drainPool = sync.Pool{New: func() any { b := make([]byte, drainBuf); return &b }}
)

// spliceDrain selects the splice path of a drain nobody watches (the
// benchmark compares it with reading).
var spliceDrain = true

// capture reads one stream: it keeps the first limit bytes (in buf, or
// written to sink for a ">" redirect), counts every byte, and reports the
// first overflow on overflow unless drain is set. Only the reading goroutine
// touches it until that goroutine ends.
type capture struct {
	name     string // "stdout" or "stderr"
	limit    int64
	drain    bool
	sink     *os.File
	overflow chan<- string
	live     *atomic.Int64 // Spec.Progress's counter for this stream, or nil
	tee      io.Writer     // Spec.StdoutTee or StderrTee, or nil (also after its first error)

	// buf holds the kept bytes: first in a pooled buffer (pooled), then,
	// if they outgrow it, in buffers growBy times larger each; reads go
	// straight into its free capacity. A full buffer is grown only when
	// a read into probe (pooled) brought more bytes: an output that ends
	// exactly at a buffer's size is not moved for its end of file.
	buf       []byte
	pooled    *[]byte
	probe     *[]byte
	probing   bool
	kept      int64
	total     int64
	truncated bool
	noSplice  bool // splice was tried: it ended the stream or was refused
	sinkErr   error
}

// run reads r until EOF, an error, a read deadline set by the supervisor,
// or (without drain) the first byte past the limit: from then on the
// writers block on the full pipe until the group is terminated, so they
// neither run on nor finish unnoticed.
func (c *capture) run(r *os.File) {
	defer c.settle()
	for c.kept < c.limit {
		p := c.room()
		n, err := r.Read(p)
		c.keep(p[:n])
		if err != nil {
			return
		}
	}
	c.pastLimit(r)
}

// room returns where the next kept bytes are read to: the free capacity
// of buf, or for a ">" file the pooled buffer, never past the limit.
func (c *capture) room() []byte {
	if c.pooled == nil && len(c.buf) == 0 {
		c.pooled = firstPool.Get().(*[]byte)
		c.buf = (*c.pooled)[:0:min(firstBuf, c.limit)]
	}
	if c.sink != nil {
		return c.buf[:min(int64(cap(c.buf)), c.limit-c.kept)]
	}
	if len(c.buf) == cap(c.buf) { // full: see whether more comes first
		if c.probe == nil {
			c.probe = firstPool.Get().(*[]byte)
		}
		c.probing = true
		return (*c.probe)[:min(int64(len(*c.probe)), c.limit-c.kept)]
	}
	return c.buf[len(c.buf):cap(c.buf)]
}

// grow moves buf into one growBy times larger (at most limit) with room
// for n more bytes.
func (c *capture) grow(n int) {
	size := min(c.limit, max(int64(cap(c.buf))*growBy, int64(len(c.buf)+n)))
	nb := make([]byte, len(c.buf), size)
	copy(nb, c.buf)
	c.release()
	c.buf = nb
}

// keep takes p, just read into room's slice.
func (c *capture) keep(p []byte) {
	probed := c.probing
	c.probing = false
	if len(p) == 0 {
		return
	}
	c.see(p)
	c.kept += int64(len(p))
	if c.sink == nil {
		if probed {
			c.grow(len(p))
			c.buf = append(c.buf, p...)
			return
		}
		c.buf = c.buf[:len(c.buf)+len(p)]
		return
	}
	if c.sinkErr == nil {
		_, c.sinkErr = c.sink.Write(p)
	}
}

// see counts p and hands it to the tee (which a ">" file's bytes skip).
func (c *capture) see(p []byte) {
	if c.tee != nil && c.sink == nil {
		if _, err := c.tee.Write(p); err != nil {
			c.tee = nil
		}
	}
	c.count(int64(len(p)))
}

func (c *capture) count(n int64) {
	c.total += n
	if c.live != nil {
		c.live.Store(c.total)
	}
}

// pastLimit reads past the cap: without drain, until one byte shows the
// overflow; with drain, to the end, spliced to /dev/null once nobody needs
// to see the bytes (no tee, or a tee that failed: a tee may stop itself
// that way when it has all it keeps), else read into a pooled buffer and
// dropped.
func (c *capture) pastLimit(r *os.File) {
	var bp *[]byte
	defer func() {
		if bp != nil {
			drainPool.Put(bp)
		}
	}()
	for {
		if c.drain && c.unwatched() && c.splice(r) {
			return
		}
		if bp == nil {
			bp = drainPool.Get().(*[]byte)
		}
		n, err := r.Read(*bp)
		if n > 0 {
			c.see((*bp)[:n])
			c.overflowed()
		}
		if err != nil || !c.drain && c.truncated {
			return
		}
	}
}

// unwatched reports whether the bytes past the cap may be spliced away:
// no tee sees them, and splicing is on and has not been refused.
func (c *capture) unwatched() bool {
	return spliceDrain && !c.noSplice && (c.tee == nil || c.sink != nil)
}

// overflowed marks the stream truncated; the first time, without drain,
// it tells the supervisor.
func (c *capture) overflowed() {
	if c.truncated {
		return
	}
	c.truncated = true
	if !c.drain {
		c.overflow <- c.name // buffered for both streams; never blocks
	}
}

// settle leaves buf holding exactly the kept bytes in memory of the
// result's own, and gives the pooled buffer back.
func (c *capture) settle() {
	switch {
	case c.sink != nil || len(c.buf) == 0:
		c.buf = nil
	case c.pooled != nil, len(c.buf) < cap(c.buf)/trimBelow:
		c.buf = append([]byte(nil), c.buf...)
	}
	c.release()
	if c.probe != nil {
		firstPool.Put(c.probe)
		c.probe = nil
	}
}

func (c *capture) release() {
	if c.pooled != nil {
		firstPool.Put(c.pooled)
		c.pooled = nil
	}
}
