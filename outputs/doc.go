// Package outputs is the store of retained call output: each call
// (foreground or job) gets an Output with an id, and its stdout and stderr
// are kept while it runs, in memory while they are small and in two files
// once they are not, so that they can be paged later by byte offset, fed to
// another call as stdin, and read as MCP resources.
//
// Contract:
//
//   - Open creates one private directory (mode 0700, os.MkdirTemp under
//     Config.Parent) and Close removes it with everything in it. Files are
//     created inside it only, through an os.Root, mode 0600, O_EXCL, and
//     only once a stream has a byte to keep there (an empty stream, or
//     one held in memory, has no file). Callers choose a Parent outside
//     every directory a child may write (config refuses one inside an
//     allowed directory).
//   - A stream is held in memory up to Config.InMemory bytes (the
//     server's text limit: what an answer shows whole costs no file),
//     while all outputs together hold at most Config.Memory bytes there.
//     The write that would pass either moves the stream to its file,
//     whole and in order, where every later byte goes; so does Persist,
//     for both streams (a call that becomes a job). A finished output
//     stays where it is until it is deleted.
//   - An id is ten characters of lowercase base32 from crypto/rand
//     (ValidID); it names the output in file names, resource URIs and tool
//     arguments. Lookups of anything else fail as unknown.
//   - Per stream at most Config.PerStream bytes are kept. Past that the
//     stream is marked Truncated: later bytes are counted (Total) but
//     discarded, never an error to the writer, which keeps draining; the
//     writer says ErrStreamFull so that the runner splices the rest away.
//   - All outputs together keep at most Config.Quota bytes, in memory and
//     in files. A write that needs room first deletes finished outputs,
//     oldest (by creation) first; outputs still being written are never
//     deleted for room, so when they alone fill the quota further bytes
//     are discarded and the stream is marked Truncated. At most
//     Config.MaxOutputs outputs exist; Create deletes the oldest finished
//     one to make room, and fails with ErrFull when every one is still
//     being written.
//   - A finished output is deleted Config.TTL after it finished; one that is
//     still being written never expires.
//   - Nothing is kept per call beyond the outputs that exist: deleting an
//     output (Drop, eviction, expiry) removes it from every index at once,
//     and every index is bounded by the Config (Stats). A deleted output
//     leaves a tombstone (the last 1024; Drop leaves none), so lookups can
//     say "expired" or "evicted" instead of "unknown".
//   - Reads see a prefix of what was written: Size only grows while an
//     output is written; once Done, nothing changes until it is deleted.
//     Bytes read from memory are shared, never copied, and never change.
//     A read that races a deletion fails as deleted, never with partial
//     data from another output.
//   - Config.Changed is called without locks held after an output gained
//     bytes, finished or was deleted; it must not block.
//
// Not covered: the files are the server user's, so without a kernel
// sandbox a child running as that user can read them by path (the
// directory name is random, not secret); the store does not encrypt.
// Bytes are counted as written (apparent size), not file-system blocks,
// nor the memory an output's index entry takes (a few hundred bytes, at
// most MaxOutputs of them). A file still open for reading (a chained
// call's stdin) keeps its blocks until that call ends, after its output
// was deleted.
package outputs
