//go:build darwin || linux

// These run POSIX programs (head, sh) as the children they capture.

package runner

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// captureRow is one stream fed to a capture: size bytes of a pattern,
// written in uneven pieces, at a cap of limit.
type captureRow struct {
	size, limit int64
	drain, tee  bool
	sink        bool // a ">" file
}

func cr(size, limit int64, drain, tee bool) captureRow {
	return captureRow{size: size, limit: limit, drain: drain, tee: tee}
}

// TestCapture feeds captures through a pipe at the sizes where the buffer
// changes (the pooled first buffer, the buffer of the cap, the trim) and
// checks the contract on every row: the kept bytes exact, the counts, the
// overflow report, what the tee and the ">" file saw, and a result that
// does not keep far more memory than its bytes. Drained rows run with
// splice and with reads.
func TestCapture(t *testing.T) {
	const mib = 1 << 20
	rows := []captureRow{
		cr(0, mib, false, false),
		cr(1, mib, false, true),
		cr(firstBuf-1, mib, false, false),
		cr(firstBuf, mib, false, true),
		cr(firstBuf+1, mib, false, true),
		cr(mib/trimBelow-1, mib, false, false),
		cr(mib/2, mib, false, false),
		cr(mib, mib, false, true),
		cr(mib+1, mib, false, true),
		cr(3*mib, mib, false, false),
		cr(3*mib, mib, true, false),
		cr(3*mib, mib, true, true),
		cr(100, 10, true, true),
		cr(100, 10, false, false),
		cr(firstBuf+5, firstBuf, true, false),
		// Under a large cap the buffers grow by what arrived.
		cr(growBy*firstBuf, 64*mib, false, false),
		cr(growBy*firstBuf+1, 64*mib, false, true),
		cr(growBy*growBy*firstBuf, 64*mib, false, false),
		cr(mib+firstBuf/2, 64*mib, false, false),
		cr(3*mib, 64*mib, false, true),
		cr(3*mib, 2*mib+1, false, false),
		{size: 3 * mib, limit: mib, drain: true, sink: true},
		{size: 2 * firstBuf, limit: 3 * firstBuf / 2, sink: true},
	}
	for _, r := range rows {
		for _, splice := range []bool{true, false} {
			if !splice && !r.drain {
				continue
			}
			name := fmt.Sprintf("size=%d,limit=%d,drain=%v,tee=%v,sink=%v,splice=%v", r.size, r.limit, r.drain, r.tee, r.sink, splice)
			t.Run(name, func(t *testing.T) {
				spliceDrain = splice
				defer func() { spliceDrain = true }()
				checkCapture(t, r)
			})
		}
	}
}

func checkCapture(t *testing.T, r captureRow) {
	data := pattern(r.size)
	overflow := make(chan string, 2)
	c := &capture{name: "stdout", limit: r.limit, drain: r.drain, overflow: overflow}
	var tee bytes.Buffer
	if r.tee {
		c.tee = &tee
	}
	var sinkPath string
	if r.sink {
		sinkPath = filepath.Join(t.TempDir(), "out")
		f, err := os.Create(sinkPath)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		c.sink = f
	}
	feedPipe(t, c, data)

	want := min(r.size, r.limit)
	over := r.size > r.limit
	switch {
	case r.sink:
		got, err := os.ReadFile(sinkPath)
		if err != nil || !bytes.Equal(got, data[:want]) || c.buf != nil {
			t.Errorf("file has %d bytes (equal %v, %v), buf %d bytes; want the first %d and no buf", len(got), bytes.Equal(got, data[:want]), err, len(c.buf), want)
		}
	case !bytes.Equal(c.buf, data[:want]):
		t.Errorf("kept %d bytes, want the first %d exactly", len(c.buf), want)
	case cap(c.buf) > max(len(c.buf)*trimBelow, 64): // 64: slack for allocation size classes
		t.Errorf("result of %d bytes holds a buffer of %d", len(c.buf), cap(c.buf))
	}
	if c.truncated != over || c.kept != want {
		t.Errorf("truncated %v, kept %d; want %v, %d", c.truncated, c.kept, over, want)
	}
	if r.drain && c.total != r.size || !r.drain && (over && c.total <= r.limit || !over && c.total != r.size) {
		t.Errorf("counted %d bytes of %d", c.total, r.size)
	}
	if got := len(overflow); got != btoi(over && !r.drain) {
		t.Errorf("%d overflow reports", got)
	}
	if r.tee && !bytes.Equal(tee.Bytes(), data[:c.total]) {
		t.Errorf("tee saw %d bytes, want the %d read, in order", tee.Len(), c.total)
	}
}

// feedPipe writes data into a pipe in uneven pieces while c reads it, and
// closes the read end once c is done (a capture that stops at the cap
// leaves the writer blocked until then).
func feedPipe(t *testing.T, c *capture, data []byte) {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		defer pw.Close()
		rng := rand.New(rand.NewPCG(1, 2))
		for rest := data; len(rest) > 0; {
			n := min(len(rest), 1+rng.IntN(100<<10))
			if _, err := pw.Write(rest[:n]); err != nil {
				return // the reader stopped at the cap
			}
			rest = rest[n:]
		}
	}()
	c.run(pr)
	pr.Close()
	<-wrote
}

// TestCaptureTeeStops: a tee that fails while the stream drains is
// dropped and the rest is still counted to the end (spliced from then on).
func TestCaptureTeeStops(t *testing.T) {
	const size, limit = 3 << 20, 1 << 20
	data := pattern(size)
	tee := &failAfter{}
	c := &capture{name: "stdout", limit: limit, drain: true, overflow: make(chan string, 2), tee: tee}
	feedPipe(t, c, data)
	if c.total != size || !c.truncated || !bytes.Equal(c.buf, data[:limit]) || c.tee != nil {
		t.Errorf("counted %d of %d, kept %d, truncated %v, tee dropped %v", c.total, size, len(c.buf), c.truncated, c.tee == nil)
	}
	if tee.writes != 2 {
		t.Errorf("tee written %d times, want 2 (dropped at its failure)", tee.writes)
	}
}

// TestSpliceDeadline: a drain that splices stops at the read deadline the
// supervisor sets when a descendant keeps the pipe open, as a read does.
func TestSpliceDeadline(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	if _, err := pw.Write(pattern(200)); err != nil {
		t.Fatal(err)
	}
	c := &capture{name: "stdout", limit: 100, drain: true, overflow: make(chan string, 2)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.run(pr)
	}()
	pr.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the drain did not stop at the read deadline")
	}
	if c.total != 200 || !c.truncated || len(c.buf) != 100 {
		t.Errorf("counted %d, kept %d, truncated %v", c.total, len(c.buf), c.truncated)
	}
}

// pattern is n bytes that differ from their neighbours, so that a byte
// lost, doubled or moved shows.
func pattern(n int64) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
