package outputs

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"
)

// DefaultMaxOutputs bounds how many outputs exist at once when
// Config.MaxOutputs is zero. The quota bounds bytes, not outputs; without
// a count, a stream of calls printing a byte each would grow the index
// (a few hundred bytes per output) for as long as the TTL.
const DefaultMaxOutputs = 4096

// DefaultMemory bounds the bytes all outputs hold in memory when
// Config.Memory is zero. 16 MiB holds DefaultMaxOutputs outputs of 4 KiB
// (a compiler's error list, a test summary: what most calls print), or
// 512 outputs that each fill 16 KiB on both streams, while keeping the
// store's share of the server's memory small next to the running calls'
// captures (2 MiB each at the default cap); past it, outputs go to files.
const DefaultMemory = 16 << 20

// maxTombstones is how many deleted ids are remembered, so a read of one
// can say why it is gone.
const maxTombstones = 1024

// Streams are the names of an output's two streams, in index order.
var Streams = [2]string{"stdout", "stderr"}

// StreamIndex returns the index of a stream name.
func StreamIndex(name string) (int, bool) {
	i := slices.Index(Streams[:], name)
	return i, i >= 0
}

// Config configures a Store.
type Config struct {
	// Parent is where the private directory is created ("" means
	// os.TempDir()).
	Parent string
	// PerStream is the most bytes kept of one stream of one call.
	PerStream int64
	// Quota is the most bytes kept by all outputs together, in memory and
	// in files.
	Quota int64
	// TTL is how long a finished output is kept.
	TTL time.Duration
	// MaxOutputs bounds how many outputs exist (0 means DefaultMaxOutputs).
	MaxOutputs int
	// InMemory is how many bytes of a stream are held in memory before the
	// stream moves to its file (0: every stream is in its file from its
	// first byte). The server sets it to the answer's text limit, so that
	// an output the answer showed whole costs no file.
	InMemory int64
	// Memory bounds the bytes all outputs hold in memory together (0 means
	// DefaultMemory); a stream whose bytes would pass it goes to its file.
	Memory int64
	// Changed, when not nil, is called after an output gained bytes,
	// finished or was deleted (gone). It is called without locks held and
	// must not block.
	Changed func(id string, gone bool)
}

// Reason says why an output is no longer there.
type Reason string

// Reasons.
const (
	// Expired: it finished longer than the TTL ago.
	Expired Reason = "expired"
	// Evicted: the quota or the output count needed the room.
	Evicted Reason = "evicted"
)

// ErrClosed is returned by every method after Close.
var ErrClosed = errors.New("outputs: the store is closed")

// ErrFull is returned by Create when MaxOutputs outputs exist and none of
// them has finished.
var ErrFull = errors.New("outputs: too many outputs are being written")

// NotFoundError reports an id with no output: never created (Reason ""),
// or deleted (Reason and At say why and when).
type NotFoundError struct {
	ID     string
	Reason Reason
	At     time.Time
}

func (e *NotFoundError) Error() string {
	switch e.Reason {
	case Expired:
		return fmt.Sprintf("output %q has expired (deleted at %s, its time to live after the call ended had passed)", e.ID, e.At.UTC().Format(time.RFC3339))
	case Evicted:
		return fmt.Sprintf("output %q was evicted (deleted at %s to make room for newer output)", e.ID, e.At.UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("unknown output id %q", e.ID)
}

// tombstone remembers a deleted output.
type tombstone struct {
	reason Reason
	at     time.Time
}

// Store is the set of retained outputs: in memory and in files in one
// private directory.
type Store struct {
	cfg  Config
	dir  string
	root *os.Root

	mu       sync.Mutex
	closed   bool
	used     int64 // bytes kept, in memory and in files
	inMemory int64 // of which held in memory
	files    int   // streams whose bytes are in a file
	byID     map[string]*Output
	created  queue // every output, oldest first
	expiring queue // finished outputs in finish order
	timer    *time.Timer
	gone     map[string]tombstone
	// goneRing holds the tombstoned ids, the oldest at goneNext once full.
	goneRing [maxTombstones]string
	goneNext int
}

// Open creates the private directory and returns an empty store.
func Open(cfg Config) (*Store, error) {
	if cfg.PerStream <= 0 || cfg.Quota <= 0 || cfg.TTL <= 0 {
		return nil, fmt.Errorf("outputs: PerStream, Quota and TTL must be positive")
	}
	if cfg.MaxOutputs <= 0 {
		cfg.MaxOutputs = DefaultMaxOutputs
	}
	if cfg.Memory <= 0 {
		cfg.Memory = DefaultMemory
	}
	dir, err := os.MkdirTemp(cfg.Parent, "mcp-shell-outputs-")
	if err != nil {
		return nil, fmt.Errorf("outputs: %w", err)
	}
	// MkdirTemp creates 0700 already; say so explicitly in case a
	// future version or umask quirk differs.
	if err := os.Chmod(dir, 0o700); err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("outputs: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("outputs: %w", err)
	}
	s := &Store{cfg: cfg, dir: dir, root: root, byID: map[string]*Output{}, gone: map[string]tombstone{}}
	s.created.kind, s.expiring.kind = byCreation, byFinish
	return s, nil
}

// Dir is the store's private directory.
func (s *Store) Dir() string { return s.dir }

// Used is the bytes currently kept, in memory and in files.
func (s *Store) Used() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}

// Len is the number of outputs.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID)
}

// Stats is what a store holds at one moment: each figure is bounded by
// the Config (Outputs and Finished by MaxOutputs, Bytes by Quota, Memory
// by Config.Memory, Files by twice MaxOutputs, Tombstones by 1024).
type Stats struct {
	// Outputs exist (running or finished); Finished of them wait for
	// their TTL.
	Outputs, Finished int
	// Bytes are kept in all, Memory of them in memory.
	Bytes, Memory int64
	// Files are the streams whose bytes are in a file (created on a
	// stream's first byte there).
	Files int
	// Tombstones are deleted ids remembered for their reason.
	Tombstones int
}

// Stats returns the store's current figures.
func (s *Store) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{Outputs: len(s.byID), Finished: s.expiring.n, Bytes: s.used, Memory: s.inMemory, Files: s.files, Tombstones: len(s.gone)}
}

// Create starts a new output with a fresh id. Its writers (Stdout, Stderr)
// may be used at once; Finish ends it.
func (s *Store) Create() (*Output, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	var deleted []string
	for len(s.byID) >= s.cfg.MaxOutputs {
		v := s.oldestFinished(nil)
		if v == nil {
			s.mu.Unlock()
			return nil, ErrFull
		}
		s.deleteLocked(v, Evicted)
		deleted = append(deleted, v.ID)
	}
	id := newID()
	for s.taken(id) {
		id = newID()
	}
	o := &Output{ID: id, s: s, created: time.Now(), deleted: make(chan struct{})}
	s.byID[id] = o
	s.created.push(o)
	s.mu.Unlock()
	s.notifyGone(deleted)
	return o, nil
}

// taken reports an id in use or remembered as deleted.
func (s *Store) taken(id string) bool {
	_, gone := s.gone[id]
	return s.byID[id] != nil || gone
}

// Get returns the output with id, or a *NotFoundError.
func (s *Store) Get(id string) (*Output, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	if o := s.byID[id]; o != nil {
		return o, nil
	}
	t := s.gone[id]
	return nil, &NotFoundError{ID: id, Reason: t.reason, At: t.at}
}

// Close deletes every output and the private directory. Writers still
// running discard what they are given from then on.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
	}
	var all []*Output
	for o := s.created.head; o != nil; o = s.created.next(o) {
		all = append(all, o)
	}
	s.byID = map[string]*Output{}
	s.created, s.expiring = queue{kind: byCreation}, queue{kind: byFinish}
	s.used, s.inMemory, s.files = 0, 0, 0
	s.mu.Unlock()
	for _, o := range all {
		o.mu.Lock()
		o.closeFiles()
		o.done = true
		o.mu.Unlock()
	}
	s.root.Close()
	return os.RemoveAll(s.dir)
}

// grant is what reserve gives a write: bytes of the quota, whether they
// may be held in memory, and the ids it deleted to make room.
type grant struct {
	n       int64
	memory  bool
	deleted []string
}

// reserve grants up to n bytes of the quota to o, deleting finished
// outputs (oldest first) to make room. With memory, the bytes are also
// taken from the memory bound if it has room for all of them; otherwise
// they go to a file. Called with o.mu held.
func (s *Store) reserve(o *Output, n int64, memory bool) grant {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return grant{}
	}
	var g grant
	for s.used+n > s.cfg.Quota {
		v := s.oldestFinished(o)
		if v == nil {
			break
		}
		s.deleteLocked(v, Evicted)
		g.deleted = append(g.deleted, v.ID)
	}
	g.n = max(0, min(n, s.cfg.Quota-s.used))
	s.used += g.n
	if memory && s.inMemory+g.n <= s.cfg.Memory {
		g.memory = true
		s.inMemory += g.n
	}
	return g
}

// release returns n unused bytes of a reservation (memory: held in
// memory).
func (s *Store) release(n int64, memory bool) {
	s.mu.Lock()
	s.used -= n
	if memory {
		s.inMemory -= n
	}
	s.mu.Unlock()
}

// moved accounts for a stream whose n bytes held in memory are now in its
// file.
func (s *Store) moved(n int64) {
	s.mu.Lock()
	s.inMemory -= n
	s.mu.Unlock()
}

// fileCreated counts d more (or, negative, fewer) files.
func (s *Store) fileCreated(d int) {
	s.mu.Lock()
	s.files += d
	s.mu.Unlock()
}

// oldestFinished is the oldest finished output other than except, or nil.
func (s *Store) oldestFinished(except *Output) *Output {
	for o := s.created.head; o != nil; o = s.created.next(o) {
		if o.finished && o != except {
			return o
		}
	}
	return nil
}

// finished records that o will not change any more and schedules its
// expiry.
func (s *Store) finished(o *Output) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.byID[o.ID] != o {
		return
	}
	o.finished, o.finishedAt = true, time.Now()
	s.expiring.push(o)
	if s.timer == nil {
		s.timer = time.AfterFunc(s.cfg.TTL, s.expire)
	}
}

// expire deletes the outputs whose TTL has passed and re-arms the timer
// for the next one.
func (s *Store) expire() {
	s.mu.Lock()
	var deleted []string
	now := time.Now()
	for o := s.expiring.head; o != nil; o = s.expiring.head {
		if wait := o.finishedAt.Add(s.cfg.TTL).Sub(now); wait > 0 {
			s.timer.Reset(wait)
			break
		}
		s.deleteLocked(o, Expired)
		deleted = append(deleted, o.ID)
	}
	if s.expiring.head == nil && s.timer != nil {
		s.timer = nil // the next finished output arms a new one
	}
	s.mu.Unlock()
	s.notifyGone(deleted)
}

// deleteLocked removes o (finished) from every index, with a tombstone
// saying why; reason "" removes it silently (Drop). o's streams no longer
// change (it finished), so they are read here without o.mu.
func (s *Store) deleteLocked(o *Output, reason Reason) {
	delete(s.byID, o.ID)
	s.created.remove(o)
	s.expiring.remove(o)
	for i := range o.streams {
		st := &o.streams[i]
		if st.hasFile {
			_ = s.root.Remove(o.fileName(i))
			s.files--
		}
		if !st.inFile {
			s.inMemory -= st.size
		}
		s.used -= st.size
	}
	close(o.deleted)
	if reason == "" {
		return
	}
	if old := s.goneRing[s.goneNext]; old != "" {
		delete(s.gone, old)
	}
	s.goneRing[s.goneNext] = o.ID
	s.goneNext = (s.goneNext + 1) % maxTombstones
	s.gone[o.ID] = tombstone{reason: reason, at: time.Now()}
}

// drop deletes o without a tombstone; false when it was gone already.
func (s *Store) drop(o *Output) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byID[o.ID] != o || !o.finished {
		return false
	}
	s.deleteLocked(o, "")
	return true
}

func (s *Store) notifyGone(ids []string) {
	if s.cfg.Changed == nil {
		return
	}
	for _, id := range ids {
		s.cfg.Changed(id, true)
	}
}

func (s *Store) notifyChanged(id string) {
	if s.cfg.Changed != nil {
		s.cfg.Changed(id, false)
	}
}

// idAlphabet is lowercase RFC 4648 base32: no characters that a model or
// a URI template would mistake, no case to get wrong.
const idAlphabet = "abcdefghijklmnopqrstuvwxyz234567"

// idLen is the length of an id: 50 random bits, far more than the outputs
// one server keeps, short enough to copy.
const idLen = 10

func newID() string {
	var b [idLen]byte
	rand.Read(b[:]) // never fails (crypto/rand panics instead)
	for i := range b {
		b[i] = idAlphabet[b[i]%32]
	}
	return string(b[:])
}

// ValidID reports whether id has the shape of an output id.
func ValidID(id string) bool {
	if len(id) != idLen {
		return false
	}
	for i := range len(id) {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}
