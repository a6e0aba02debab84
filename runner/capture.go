package runner

import (
	"io"
	"os"
	"sync/atomic"
)

// readChunk is the size of one read from a captured pipe: the default
// Linux pipe capacity, so a full pipe drains in one read.
const readChunk = 64 << 10

// initialBuf is the first allocation of a capture buffer; it grows by
// doubling up to the limit, never beyond it.
const initialBuf = 512

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

	buf       []byte
	kept      int64
	total     int64
	truncated bool
	sinkErr   error
}

// run reads r until EOF, an error, a read deadline set by the supervisor,
// or (without drain) the first byte past the limit: from then on the
// writers block on the full pipe until the group is terminated, so they
// neither run on nor finish unnoticed.
func (c *capture) run(r *os.File) {
	chunk := make([]byte, readChunk)
	for {
		n, err := r.Read(chunk)
		if n > 0 {
			c.add(chunk[:n])
		}
		if err != nil || c.truncated && !c.drain {
			return
		}
	}
}

func (c *capture) add(p []byte) {
	if c.tee != nil && c.sink == nil {
		if _, err := c.tee.Write(p); err != nil {
			c.tee = nil
		}
	}
	c.total += int64(len(p))
	if c.live != nil {
		c.live.Store(c.total)
	}
	keep := min(int64(len(p)), c.limit-c.kept)
	if keep > 0 {
		c.keep(p[:keep])
	}
	if keep < int64(len(p)) && !c.truncated {
		c.truncated = true
		if !c.drain {
			c.overflow <- c.name // buffered for both streams; never blocks
		}
	}
}

func (c *capture) keep(p []byte) {
	c.kept += int64(len(p))
	if c.sink == nil {
		c.buf = append(grow(c.buf, int64(len(p)), c.limit), p...)
		return
	}
	if c.sinkErr == nil {
		_, c.sinkErr = c.sink.Write(p)
	}
}

// grow returns b with room for n more bytes and a capacity never above
// limit (callers guarantee len(b)+n <= limit).
func grow(b []byte, n, limit int64) []byte {
	need := int64(len(b)) + n
	if need <= int64(cap(b)) {
		return b
	}
	size := min(max(2*int64(cap(b)), need, initialBuf), limit)
	nb := make([]byte, len(b), size)
	copy(nb, b)
	return nb
}
