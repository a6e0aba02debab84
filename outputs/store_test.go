package outputs

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func open(t testing.TB, cfg Config) *Store {
	t.Helper()
	if cfg.Parent == "" {
		cfg.Parent = t.TempDir()
	}
	if cfg.PerStream == 0 {
		cfg.PerStream = 1 << 20
	}
	if cfg.Quota == 0 {
		cfg.Quota = 8 << 20
	}
	if cfg.TTL == 0 {
		cfg.TTL = time.Hour
	}
	s, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func create(t testing.TB, s *Store) *Output {
	t.Helper()
	o, err := s.Create()
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func read(t *testing.T, o *Output, i int, off, n int64) string {
	t.Helper()
	c, err := o.Read(i, off, n)
	if err != nil {
		t.Fatal(err)
	}
	return string(c.Data)
}

// notFound asserts that id is gone for reason.
func notFound(t *testing.T, s *Store, id string, reason Reason) {
	t.Helper()
	_, err := s.Get(id)
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Reason != reason {
		t.Fatalf("Get(%s) = %v, want not found (%q)", id, err, reason)
	}
}

func TestWriteReadAndFiles(t *testing.T) {
	t.Parallel()
	s := open(t, Config{})
	if fi, err := os.Stat(s.Dir()); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("private dir: %v %v", fi.Mode(), err)
	}
	o := create(t, s)
	if !ValidID(o.ID) || ValidID("UPPERCASE1") || ValidID("../../etc/") || ValidID(o.ID+"a") {
		t.Fatalf("id %q or ValidID is wrong", o.ID)
	}
	io.WriteString(o.Stdout(), "hello ")
	io.WriteString(o.Stdout(), "world\n")
	if got := read(t, o, 0, 6, 100); got != "world\n" {
		t.Errorf("read at 6: %q", got)
	}
	if got := read(t, o, 0, 100, 10); got != "" {
		t.Errorf("read past the end: %q", got)
	}
	fi, err := os.Stat(filepath.Join(s.Dir(), o.ID+".stdout"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stdout file: %v %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), o.ID+".stderr")); !os.IsNotExist(err) {
		t.Errorf("an empty stream has a file: %v", err)
	}
	if in := o.Info(); in.Done || in.Streams[0].Size != 12 || in.Streams[0].Total != 12 || in.Empty() {
		t.Errorf("info %+v", in)
	}
	o.Finish()
	o.Finish() // twice is harmless
	io.WriteString(o.Stdout(), "late")
	if in := o.Info(); !in.Done || in.Streams[0].Total != 12 {
		t.Errorf("after Finish: %+v", in)
	}
	if s.Used() != 12 {
		t.Errorf("used %d", s.Used())
	}
	dir := s.Dir()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Close left %s: %v", dir, err)
	}
	if _, err := s.Create(); !errors.Is(err, ErrClosed) {
		t.Errorf("Create after Close: %v", err)
	}
}

func TestPerStreamCapDrains(t *testing.T) {
	t.Parallel()
	s := open(t, Config{PerStream: 10})
	o := create(t, s)
	// The writer takes every byte; once the stream holds its cap it says
	// so (ErrStreamFull), so that the runner stops copying bytes here.
	for i, want := range []error{nil, ErrStreamFull, ErrStreamFull} {
		if n, err := io.WriteString(o.Stderr(), "0123456"); n != 7 || err != want {
			t.Fatalf("write %d: %d %v, want 7 %v", i, n, err, want)
		}
	}
	in := o.Info()
	if st := in.Streams[1]; st.Size != 10 || st.Total != 21 || !st.Truncated {
		t.Fatalf("stderr %+v", st)
	}
	if got := read(t, o, 1, 0, 100); got != "0123456012" {
		t.Errorf("kept %q", got)
	}
	// The run's own counts finish it: what the writer no longer saw is
	// counted, a smaller count (or -1, a stream sent to a file) is not.
	o.FinishCounted([2]int64{-1, 1 << 30})
	in = o.Info()
	if st := in.Streams[1]; st.Size != 10 || st.Total != 1<<30 || !st.Truncated {
		t.Errorf("stderr after FinishCounted %+v", st)
	}
	if st := in.Streams[0]; st.Total != 0 || st.Truncated {
		t.Errorf("stdout after FinishCounted %+v", st)
	}
}

func TestQuotaEvictsOldestFinishedFirst(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var gone []string
	s := open(t, Config{Quota: 30, Changed: func(id string, g bool) {
		if g {
			mu.Lock()
			gone = append(gone, id)
			mu.Unlock()
		}
	}})
	a, b, live := create(t, s), create(t, s), create(t, s)
	io.WriteString(a.Stdout(), strings.Repeat("a", 10))
	io.WriteString(b.Stdout(), strings.Repeat("b", 10))
	io.WriteString(live.Stdout(), strings.Repeat("l", 10))
	b.Finish()
	a.Finish()
	c := create(t, s)
	io.WriteString(c.Stdout(), strings.Repeat("c", 15)) // needs 15: a (oldest) and b go
	notFound(t, s, a.ID, Evicted)
	notFound(t, s, b.ID, Evicted)
	if _, err := a.Read(0, 0, 10); err == nil {
		t.Error("read of an evicted output succeeded")
	}
	if s.Used() != 25 {
		t.Errorf("used %d, want 25", s.Used())
	}
	// Only live outputs left: the quota is not exceeded, the writer is
	// truncated instead.
	io.WriteString(c.Stdout(), strings.Repeat("c", 10))
	if in := c.Info(); in.Streams[0].Size != 20 || !in.Streams[0].Truncated || s.Used() != 30 {
		t.Errorf("c %+v, used %d", in.Streams[0], s.Used())
	}
	if got := read(t, live, 0, 0, 100); got != strings.Repeat("l", 10) {
		t.Errorf("a live output was touched: %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(gone) != 2 || gone[0] != a.ID || gone[1] != b.ID {
		t.Errorf("Changed(gone) for %v, want [%s %s]", gone, a.ID, b.ID)
	}
}

func TestCountBound(t *testing.T) {
	t.Parallel()
	s := open(t, Config{MaxOutputs: 2})
	a, b := create(t, s), create(t, s)
	if _, err := s.Create(); !errors.Is(err, ErrFull) {
		t.Fatalf("third live output: %v", err)
	}
	a.Finish()
	create(t, s)
	notFound(t, s, a.ID, Evicted)
	b.Drop()
	notFound(t, s, b.ID, "")
	if s.Len() != 1 {
		t.Errorf("len %d", s.Len())
	}
}

func TestTTL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := open(t, Config{TTL: time.Minute})
		early, late, live := create(t, s), create(t, s), create(t, s)
		io.WriteString(early.Stdout(), "x")
		early.Finish()
		time.Sleep(30 * time.Second)
		late.Finish()
		time.Sleep(31 * time.Second)
		synctest.Wait()
		notFound(t, s, early.ID, Expired)
		if _, err := s.Get(late.ID); err != nil {
			t.Fatalf("late expired early: %v", err)
		}
		time.Sleep(30 * time.Second)
		synctest.Wait()
		notFound(t, s, late.ID, Expired)
		time.Sleep(time.Hour)
		synctest.Wait()
		if _, err := s.Get(live.ID); err != nil {
			t.Fatalf("a live output expired: %v", err)
		}
		live.Finish()
		time.Sleep(time.Minute)
		synctest.Wait()
		notFound(t, s, live.ID, Expired)
		if s.Used() != 0 {
			t.Errorf("used %d", s.Used())
		}
		if e := (&NotFoundError{ID: "x", Reason: Expired}).Error(); !strings.Contains(e, "expired") {
			t.Errorf("message %q", e)
		}
	})
}

func TestWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := open(t, Config{})
		o := create(t, s)
		woke := make(chan struct{})
		go func() { o.Wait(context.Background(), 0, 0); close(woke) }()
		synctest.Wait()
		select {
		case <-woke:
			t.Fatal("Wait returned before any output")
		default:
		}
		io.WriteString(o.Stdout(), "x")
		<-woke
		// Past what was written, Finish wakes it.
		past := make(chan struct{})
		go func() { o.Wait(context.Background(), 0, 1); close(past) }()
		synctest.Wait()
		o.Finish()
		<-past
		// A deadline ends it too.
		p := create(t, s)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		p.Wait(ctx, 1, 0)
		if ctx.Err() == nil {
			t.Error("Wait returned before its deadline")
		}
	})
}

func TestOpenStdout(t *testing.T) {
	t.Parallel()
	for _, inMemory := range []int64{0, 1024} {
		s := open(t, Config{InMemory: inMemory})
		o := create(t, s)
		io.WriteString(o.Stdout(), "b\na\n")
		if _, _, err := o.OpenStdout(); !errors.Is(err, ErrRunning) {
			t.Fatalf("running output opened: %v", err)
		}
		o.Finish()
		data, f, err := o.OpenStdout()
		if err != nil {
			t.Fatal(err)
		}
		if inMemory == 0 {
			if data != nil || f == nil {
				t.Fatalf("a stdout in its file: data %q, file %v", data, f)
			}
			data, _ = io.ReadAll(f)
			f.Close()
		} else if f != nil {
			t.Fatalf("a stdout held in memory came as a file %s", f.Name())
		}
		if string(data) != "b\na\n" {
			t.Errorf("in memory up to %d: read %q", inMemory, data)
		}
		e := create(t, s)
		e.Finish()
		if data, f, err := e.OpenStdout(); data != nil || f != nil || err != nil {
			t.Fatalf("empty stdout: %q %v %v", data, f, err)
		}
	}
}

// TestConcurrentWritersAndReaders is for the race detector: two writers
// per output, readers and waiters, evictions under a small quota.
func TestConcurrentWritersAndReaders(t *testing.T) {
	t.Parallel()
	s := open(t, Config{Quota: 4096, PerStream: 1024})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				o, err := s.Create()
				if err != nil {
					t.Error(err)
					return
				}
				var w sync.WaitGroup
				for _, out := range []io.Writer{o.Stdout(), o.Stderr()} {
					w.Go(func() {
						for range 50 {
							io.WriteString(out, "0123456789abcdef")
						}
					})
				}
				w.Go(func() {
					for off := int64(0); off < 512; off += 64 {
						o.Read(0, off, 64)
					}
				})
				w.Wait()
				o.Finish()
			}
		})
	}
	wg.Wait()
	if s.Used() > 4096 {
		t.Errorf("used %d past the quota", s.Used())
	}
	var onDisk int64
	ents, _ := os.ReadDir(s.Dir())
	for _, e := range ents {
		fi, _ := e.Info()
		onDisk += fi.Size()
	}
	if onDisk != s.Used() {
		t.Errorf("%d bytes on disk, %d accounted", onDisk, s.Used())
	}
}
