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
	// Quota is the most bytes kept by all outputs together.
	Quota int64
	// TTL is how long a finished output is kept.
	TTL time.Duration
	// MaxOutputs bounds how many outputs exist (0 means DefaultMaxOutputs).
	MaxOutputs int
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

// Store is the set of retained outputs in one private directory.
type Store struct {
	cfg  Config
	dir  string
	root *os.Root

	mu     sync.Mutex
	closed bool
	used   int64
	byID   map[string]*Output
	order  []*Output // creation order, oldest first
	// expiring holds finished outputs in finish order: with one TTL for
	// all, its head expires first. Deleted entries are skipped lazily.
	expiring []*Output
	timer    *time.Timer
	gone     map[string]tombstone
	goneFIFO []string
}

// Open creates the private directory and returns an empty store.
func Open(cfg Config) (*Store, error) {
	if cfg.PerStream <= 0 || cfg.Quota <= 0 || cfg.TTL <= 0 {
		return nil, fmt.Errorf("outputs: PerStream, Quota and TTL must be positive")
	}
	if cfg.MaxOutputs <= 0 {
		cfg.MaxOutputs = DefaultMaxOutputs
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
	return &Store{cfg: cfg, dir: dir, root: root, byID: map[string]*Output{}, gone: map[string]tombstone{}}, nil
}

// Dir is the store's private directory.
func (s *Store) Dir() string { return s.dir }

// Used is the bytes currently kept on disk.
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
	o := &Output{ID: id, s: s, created: time.Now(), changed: make(chan struct{}), deleted: make(chan struct{})}
	s.byID[id] = o
	s.order = append(s.order, o)
	s.mu.Unlock()
	s.notify(deleted, true)
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
	all := s.order
	s.byID, s.order, s.expiring = map[string]*Output{}, nil, nil
	s.used = 0
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

// reserve grants up to n bytes of the quota to o, deleting finished
// outputs (oldest first) to make room; it returns the grant and the ids it
// deleted. Called with o.mu held.
func (s *Store) reserve(o *Output, n int64) (int64, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, nil
	}
	var deleted []string
	for s.used+n > s.cfg.Quota {
		v := s.oldestFinished(o)
		if v == nil {
			break
		}
		s.deleteLocked(v, Evicted)
		deleted = append(deleted, v.ID)
	}
	grant := max(0, min(n, s.cfg.Quota-s.used))
	s.used += grant
	return grant, deleted
}

// release returns n unused bytes of a reservation.
func (s *Store) release(n int64) {
	s.mu.Lock()
	s.used -= n
	s.mu.Unlock()
}

// oldestFinished is the oldest finished output other than except, or nil.
func (s *Store) oldestFinished(except *Output) *Output {
	for _, o := range s.order {
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
	s.expiring = append(s.expiring, o)
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
	for len(s.expiring) > 0 {
		o := s.expiring[0]
		if s.byID[o.ID] != o { // deleted already (quota, count, Drop)
			s.expiring = s.expiring[1:]
			continue
		}
		if wait := o.finishedAt.Add(s.cfg.TTL).Sub(now); wait > 0 {
			s.timer.Reset(wait)
			break
		}
		s.expiring = s.expiring[1:]
		s.deleteLocked(o, Expired)
		deleted = append(deleted, o.ID)
	}
	if len(s.expiring) == 0 && s.timer != nil {
		s.timer = nil // the next finished output arms a new one
	}
	if n := len(s.expiring); cap(s.expiring) > 64 && n < cap(s.expiring)/4 {
		s.expiring = slices.Clone(s.expiring) // let the backing array shrink
	}
	s.mu.Unlock()
	s.notify(deleted, true)
}

// deleteLocked removes o (finished) with a tombstone saying why; reason ""
// removes it silently (Drop).
func (s *Store) deleteLocked(o *Output, reason Reason) {
	delete(s.byID, o.ID)
	if i := slices.Index(s.order, o); i >= 0 {
		s.order = slices.Delete(s.order, i, i+1)
	}
	for i := range o.streams {
		if o.streams[i].size > 0 {
			_ = s.root.Remove(o.fileName(i))
		}
		s.used -= o.streams[i].size
	}
	close(o.deleted)
	if reason == "" {
		return
	}
	if len(s.goneFIFO) >= maxTombstones {
		delete(s.gone, s.goneFIFO[0])
		s.goneFIFO = s.goneFIFO[1:]
	}
	s.gone[o.ID] = tombstone{reason: reason, at: time.Now()}
	s.goneFIFO = append(s.goneFIFO, o.ID)
}

// drop deletes o without a tombstone.
func (s *Store) drop(o *Output) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byID[o.ID] == o && o.finished {
		s.deleteLocked(o, "")
	}
}

func (s *Store) notify(ids []string, gone bool) {
	if s.cfg.Changed == nil {
		return
	}
	for _, id := range ids {
		s.cfg.Changed(id, gone)
	}
}

// idAlphabet is lowercase RFC 4648 base32: no characters that a model or
// a URI template would mistake, no case to get wrong.
const idAlphabet = "abcdefghijklmnopqrstuvwxyz234567"

// idLen is the length of an id: 50 random bits, far more than the outputs
// one server keeps, short enough to copy.
const idLen = 10

func newID() string {
	b := make([]byte, idLen)
	rand.Read(b) // never fails (crypto/rand panics instead)
	for i := range b {
		b[i] = idAlphabet[b[i]%32]
	}
	return string(b)
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
