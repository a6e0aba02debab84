package outputs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// files lists the store directory's entries.
func files(t *testing.T, s *Store) []string {
	t.Helper()
	ents, err := os.ReadDir(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// checkIndexes asserts the store's own invariants: every index holds the
// outputs that exist and nothing else, and the byte counts are those of
// the outputs' streams (in memory, and in the files on disk).
func checkIndexes(t *testing.T, s *Store) {
	t.Helper()
	s.mu.Lock()
	var created, finished, inFiles int
	var mem, used int64
	for o := s.created.head; o != nil; o = s.created.next(o) {
		created++
		if s.byID[o.ID] != o {
			t.Errorf("%s is queued but not indexed", o.ID)
		}
		if o.finished {
			finished++
		}
		for _, st := range o.streams {
			used += st.size
			if !st.inFile {
				mem += st.size
			}
			if st.hasFile {
				inFiles++
			}
		}
	}
	got := Stats{Outputs: len(s.byID), Finished: s.expiring.n, Bytes: s.used, Memory: s.inMemory, Files: s.files, Tombstones: len(s.gone)}
	s.mu.Unlock()
	want := Stats{Outputs: created, Finished: finished, Bytes: used, Memory: mem, Files: inFiles, Tombstones: got.Tombstones}
	if got != want {
		t.Errorf("store figures %+v, the outputs' own %+v", got, want)
	}
	if n := len(files(t, s)); n != got.Files {
		t.Errorf("%d files in the directory, %d counted", n, got.Files)
	}
	if got.Bytes > s.cfg.Quota || got.Memory > s.cfg.Memory || got.Outputs > s.cfg.MaxOutputs || got.Tombstones > maxTombstones {
		t.Errorf("past a bound: %+v (config %+v)", got, s.cfg)
	}
}

// TestInMemoryUntilOutgrown: a stream stays in memory up to InMemory
// bytes, with no file; the write that outgrows it moves the stream to its
// file, whole and in order, and reads see the same bytes before and
// after. The other stream stays where it is.
func TestInMemoryUntilOutgrown(t *testing.T) {
	t.Parallel()
	s := open(t, Config{InMemory: 10})
	o := create(t, s)
	io.WriteString(o.Stdout(), "hello ")
	io.WriteString(o.Stderr(), "warn")
	before, _ := o.Read(0, 0, 100)
	if got := files(t, s); len(got) != 0 {
		t.Fatalf("files for an output that fits in memory: %v", got)
	}
	if st := s.Stats(); st.Memory != 10 || st.Bytes != 10 || st.Files != 0 {
		t.Errorf("in memory: %+v", st)
	}
	io.WriteString(o.Stdout(), "world\n") // 12 bytes: past InMemory
	if got := files(t, s); len(got) != 1 || got[0] != o.ID+".stdout" {
		t.Fatalf("files after stdout outgrew memory: %v", got)
	}
	b, err := os.ReadFile(filepath.Join(s.Dir(), o.ID+".stdout"))
	if err != nil || string(b) != "hello world\n" {
		t.Fatalf("the file holds %q (%v)", b, err)
	}
	if string(before.Data) != "hello " {
		t.Errorf("a read made in memory changed to %q", before.Data)
	}
	if got := read(t, o, 0, 3, 100); got != "lo world\n" {
		t.Errorf("read from the file: %q", got)
	}
	if got := read(t, o, 1, 0, 100); got != "warn" {
		t.Errorf("stderr: %q", got)
	}
	if st := s.Stats(); st.Memory != 4 || st.Bytes != 16 || st.Files != 1 {
		t.Errorf("after the move: %+v", st)
	}
	o.Finish()
	checkIndexes(t, s)
}

// TestReadOfMemoryIsStable: a chunk handed out of memory never changes
// and cannot reach the bytes written after it.
func TestReadOfMemoryIsStable(t *testing.T) {
	t.Parallel()
	s := open(t, Config{InMemory: 1 << 10})
	o := create(t, s)
	io.WriteString(o.Stdout(), "abc")
	c, _ := o.Read(0, 0, 10)
	if cap(c.Data) != len(c.Data) {
		t.Errorf("chunk of %d bytes has capacity %d: an append would write into the stream", len(c.Data), cap(c.Data))
	}
	_ = append(c.Data, 'X')
	io.WriteString(o.Stdout(), "def")
	o.Finish()
	if got := read(t, o, 0, 0, 10); got != "abcdef" || string(c.Data) != "abc" {
		t.Errorf("stream %q, first chunk %q", got, c.Data)
	}
}

// TestMemoryBound: once the outputs in memory hold Config.Memory bytes, a
// stream that would pass it goes to its file; deleting outputs gives the
// memory back.
func TestMemoryBound(t *testing.T) {
	t.Parallel()
	s := open(t, Config{InMemory: 100, Memory: 10})
	a, b := create(t, s), create(t, s)
	io.WriteString(a.Stdout(), "12345678")
	io.WriteString(b.Stdout(), "abcde") // 13 > 10: to its file
	if got := files(t, s); len(got) != 1 || got[0] != b.ID+".stdout" {
		t.Fatalf("files %v, want b's stdout only", got)
	}
	if got := read(t, b, 0, 0, 10); got != "abcde" {
		t.Errorf("b: %q", got)
	}
	a.Drop()
	c := create(t, s)
	io.WriteString(c.Stdout(), "123456789")
	if st := s.Stats(); st.Memory != 9 || st.Files != 1 {
		t.Errorf("memory not given back by the deletion: %+v", st)
	}
	b.Finish()
	c.Finish()
	checkIndexes(t, s)
}

// TestPersist: a call that becomes a job moves what it holds in memory to
// its files, and every later byte goes there too, whatever InMemory says.
func TestPersist(t *testing.T) {
	t.Parallel()
	s := open(t, Config{InMemory: 1 << 10})
	o := create(t, s)
	io.WriteString(o.Stdout(), "before ")
	o.Persist()
	io.WriteString(o.Stdout(), "after\n")
	io.WriteString(o.Stderr(), "e")
	if got := files(t, s); len(got) != 2 {
		t.Fatalf("files after Persist: %v", got)
	}
	if got := read(t, o, 0, 0, 100); got != "before after\n" {
		t.Errorf("stdout %q", got)
	}
	if st := s.Stats(); st.Memory != 0 || st.Bytes != 14 {
		t.Errorf("after Persist: %+v", st)
	}
	o.Finish()
	p := create(t, s)
	io.WriteString(p.Stdout(), "x")
	p.Finish()
	p.Persist() // done: stays in memory
	if st := s.Stats(); st.Memory != 1 || st.Files != 2 {
		t.Errorf("Persist after Finish moved the output: %+v", st)
	}
	checkIndexes(t, s)
}

// TestMoveFailureKeepsMemory: when the file a stream moves to cannot be
// written, the stream keeps what it holds in memory, readable, and
// nothing more, and says it is full; no file is left.
func TestMoveFailureKeepsMemory(t *testing.T) {
	t.Parallel()
	s := open(t, Config{InMemory: 4})
	o := create(t, s)
	io.WriteString(o.Stdout(), "abc")
	s.root.Close() // every file operation fails from here
	if _, err := io.WriteString(o.Stdout(), "def"); !errors.Is(err, ErrStreamFull) {
		t.Errorf("write past memory with no file: %v, want ErrStreamFull", err)
	}
	in := o.Info()
	if st := in.Streams[0]; st.Size != 3 || st.Total != 6 || !st.Truncated {
		t.Errorf("stdout %+v", st)
	}
	if got := read(t, o, 0, 0, 10); got != "abc" {
		t.Errorf("kept %q", got)
	}
	if st := s.Stats(); st.Memory != 3 || st.Bytes != 3 || st.Files != 0 {
		t.Errorf("after the failed move: %+v", st)
	}
	o.Finish()
}

// TestNothingGrowsPerCall: many calls' worth of outputs (empty ones
// dropped, others finished and evicted by the count and the quota, some
// expired) leave every index at what exists, within the bounds: a
// deleted output is in no queue, an empty one leaves no trace.
func TestNothingGrowsPerCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := open(t, Config{MaxOutputs: 16, Quota: 200, PerStream: 40, InMemory: 8, Memory: 32, TTL: time.Minute})
		for i := range 3000 {
			o := create(t, s)
			switch i % 4 {
			case 0: // printed nothing: dropped
				o.Drop()
				continue
			case 1:
				io.WriteString(o.Stdout(), "small")
			case 2:
				io.WriteString(o.Stdout(), strings.Repeat("past memory ", 3))
			case 3:
				io.WriteString(o.Stderr(), "e")
				o.Persist()
			}
			o.Finish()
			if i%500 == 0 {
				time.Sleep(2 * time.Minute) // everything finished expires
				synctest.Wait()
				checkIndexes(t, s)
			}
		}
		checkIndexes(t, s)
		e := create(t, s)
		e.Drop()
		st := s.Stats()
		if st.Outputs > 16 || st.Finished != st.Outputs {
			t.Errorf("after 3000 outputs: %+v", st)
		}
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		if st := s.Stats(); st.Outputs != 0 || st.Finished != 0 || st.Bytes != 0 || st.Memory != 0 || st.Files != 0 || st.Tombstones > maxTombstones {
			t.Errorf("after every output expired: %+v", st)
		}
		if s.timer != nil {
			t.Error("the expiry timer is armed with nothing to expire")
		}
	})
}

// TestDropLeavesNothing: the output of a call that printed nothing is in
// no index once dropped (it used to stay queued for expiry for the TTL).
func TestDropLeavesNothing(t *testing.T) {
	t.Parallel()
	s := open(t, Config{})
	for range 100 {
		o := create(t, s)
		o.FinishCounted([2]int64{0, 0})
		o.Drop()
	}
	if st := s.Stats(); st != (Stats{}) {
		t.Errorf("100 dropped outputs left %+v", st)
	}
	checkIndexes(t, s)
}

// TestConcurrentMemoryAndFiles is for the race detector: writers whose
// streams move to files while readers read them, under a memory bound
// and a quota small enough to evict.
func TestConcurrentMemoryAndFiles(t *testing.T) {
	t.Parallel()
	s := open(t, Config{Quota: 4096, PerStream: 1024, InMemory: 256, Memory: 1024})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 20 {
				o, err := s.Create()
				if err != nil {
					t.Error(err)
					return
				}
				var g sync.WaitGroup
				for _, out := range []io.Writer{o.Stdout(), o.Stderr()} {
					g.Go(func() {
						for range (w + i) % 5 * 8 {
							io.WriteString(out, "0123456789abcdef")
						}
					})
				}
				g.Go(func() {
					for off := int64(0); off < 512; off += 64 {
						if c, err := o.Read(0, off, 64); err == nil && strings.Trim(string(c.Data), "0123456789abcdef") != "" {
							t.Errorf("read %q", c.Data)
						}
					}
				})
				if i%3 == 0 {
					g.Go(o.Persist)
				}
				g.Wait()
				o.Finish()
				if o.Info().Empty() {
					o.Drop()
				}
			}
		})
	}
	wg.Wait()
	checkIndexes(t, s)
}

// TestDropTellsChanged: a dropped output is reported gone like any other
// deletion, so that whatever the caller keeps by its id goes with it; a
// second Drop reports nothing.
func TestDropTellsChanged(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var gone []string
	s := open(t, Config{Changed: func(id string, g bool) {
		if g {
			mu.Lock()
			gone = append(gone, id)
			mu.Unlock()
		}
	}})
	o := create(t, s)
	o.Drop()
	o.Drop()
	mu.Lock()
	defer mu.Unlock()
	if len(gone) != 1 || gone[0] != o.ID {
		t.Errorf("Changed(gone) for %v, want [%s]", gone, o.ID)
	}
}

// TestEveryDeletionLeavesEveryIndex: each way an output is deleted (Drop,
// eviction by the count, eviction by the quota, expiry) takes it out of
// both queues and the id map at once, with the TTL far away, so that
// after many calls every index holds at most the bounds: the output count
// by MaxOutputs, the finished queue by the outputs that exist, the
// tombstones by 1024, and a deleted output is in no queue.
func TestEveryDeletionLeavesEveryIndex(t *testing.T) {
	const calls, maxOutputs = 5000, 8
	for _, c := range []struct {
		name string
		cfg  Config
		// call makes one call's output; the store then deletes earlier
		// ones (or this one) the way the case names.
		call func(o *Output)
		// expire: the clock passes the TTL after every call.
		expire bool
	}{
		{"drop", Config{}, func(o *Output) { o.Drop() }, false},
		{"evicted by the count", Config{}, func(o *Output) { io.WriteString(o.Stdout(), "x"); o.Finish() }, false},
		{"evicted by the quota", Config{Quota: 64, InMemory: 8}, func(o *Output) { io.WriteString(o.Stderr(), "0123456789abcdef"); o.Finish() }, false},
		{"expired", Config{}, func(o *Output) { io.WriteString(o.Stdout(), "x"); o.Finish() }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := c.cfg
				cfg.MaxOutputs, cfg.TTL = maxOutputs, time.Hour
				s := open(t, cfg)
				var deleted []*Output
				for range calls {
					o := create(t, s)
					c.call(o)
					if c.expire {
						time.Sleep(cfg.TTL + time.Second)
						synctest.Wait()
					}
					deleted = append(deleted, o)
				}
				st := s.Stats()
				t.Logf("after %d calls: %+v", calls, st)
				if st.Outputs > maxOutputs || st.Finished > st.Outputs || st.Tombstones > maxTombstones {
					t.Errorf("past a bound after %d calls: %+v", calls, st)
				}
				checkIndexes(t, s)
				s.mu.Lock()
				defer s.mu.Unlock()
				gone := 0
				for _, o := range deleted {
					if s.byID[o.ID] == o {
						continue
					}
					gone++
					if o.links[byCreation].in || o.links[byFinish].in {
						t.Fatalf("deleted output %s is still queued: %+v", o.ID, o.links)
					}
				}
				if gone < calls-maxOutputs {
					t.Errorf("%d of %d outputs deleted, want all but at most %d", gone, calls, maxOutputs)
				}
			})
		})
	}
}

// TestIndexEntrySize: an output that exists costs the store at most
// 0.5 KiB of heap besides its bytes (the Output, its id, its channel, its
// map entry), the figure SECURITY.md's memory bound counts MaxOutputs
// times; the 1024 tombstones cost at most 256 bytes each (their map grows
// in powers of two). Measured over
// DefaultMaxOutputs outputs of one byte held in memory.
func TestIndexEntrySize(t *testing.T) {
	s := open(t, Config{InMemory: 1 << 10})
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	for range DefaultMaxOutputs {
		o := create(t, s)
		o.Stdout().Write([]byte("x"))
		o.Finish()
	}
	perOutput := float64(heap()-before) / DefaultMaxOutputs
	before = heap()
	for range maxTombstones {
		create(t, s) // each evicts the oldest, which leaves a tombstone
	}
	perTombstone := (float64(heap()) - float64(before)) / maxTombstones
	t.Logf("%.0f bytes of heap per output, %.0f per tombstone", perOutput, perTombstone)
	if perOutput > 512 || perTombstone > 256 {
		t.Errorf("%.0f bytes per output (bound 512), %.0f per tombstone (bound 256)", perOutput, perTombstone)
	}
}
