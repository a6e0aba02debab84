// Package outputs is the on-disk store of retained call output: each call
// (foreground or job) gets an Output with an id, and its stdout and stderr
// are written to two files while it runs, so that they can be paged later
// by byte offset, fed to another call as stdin, and read as MCP resources.
//
// Contract:
//
//   - Open creates one private directory (mode 0700, os.MkdirTemp under
//     Config.Parent) and Close removes it with everything in it. Files are
//     created inside it only, through an os.Root, mode 0600, O_EXCL, and
//     only once a stream has a first byte (an empty stream has no file).
//     Callers choose a Parent outside every directory a child may write
//     (config refuses one inside an allowed directory).
//   - An id is ten characters of lowercase base32 from crypto/rand
//     (ValidID); it names the output in file names, resource URIs and tool
//     arguments. Lookups of anything else fail as unknown.
//   - Per stream at most Config.PerStream bytes are kept. Past that the
//     stream is marked Truncated: later bytes are counted (Total) but
//     discarded, never an error to the writer, which keeps draining.
//   - All outputs together keep at most Config.Quota bytes. A write that
//     needs room first deletes finished outputs, oldest (by creation)
//     first; outputs still being written are never deleted for room, so
//     when they alone fill the quota further bytes are discarded and the
//     stream is marked Truncated. At most Config.MaxOutputs outputs exist;
//     Create deletes the oldest finished one to make room, and fails with
//     ErrFull when every one is still being written.
//   - A finished output is deleted Config.TTL after it finished; one that is
//     still being written never expires.
//   - A deleted output leaves a tombstone (the last 1024), so lookups can
//     say "expired" or "evicted" instead of "unknown".
//   - Reads see a prefix of what was written: Size only grows while an
//     output is written; once Done, nothing changes until it is deleted.
//     A read that races a deletion fails as deleted, never with partial
//     data from another output.
//   - Config.Changed is called without locks held after an output gained
//     bytes, finished or was deleted; it must not block.
//
// Not covered: the files are the server user's, so without a kernel
// sandbox a child running as that user can read them by path (the
// directory name is random, not secret); the store does not encrypt.
// Bytes are counted as written (apparent size), not file-system blocks.
// A file still open for reading (a chained call's stdin) keeps its blocks
// until that call ends, after its output was deleted.
package outputs
