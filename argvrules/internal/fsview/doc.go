// Package fsview is the one way a recognizer learns about the file system
// to judge a call: what it may look at (the call's pinned working
// directory and the trees outside it that the stage may read), and how it
// reads there without ever blocking or holding much memory.
//
// A View answers for absolute, clean paths. Walk resolves a path the way
// the kernel's path walk would, component by component, and stops with
// ErrHidden at the first component outside the View, before looking at
// it: a verdict built on a View's answers never depends on a file the
// stage cannot read. Stat, Lstat and ReadFile go through an os.Root on the
// tree that holds the path, so a symlink swapped in after a Walk cannot
// carry a read outside that tree.
//
// Every open adds O_NONBLOCK (a FIFO never blocks the server: opening one
// without a writer returns at once, and the file is then refused as not
// regular) and O_CLOEXEC; ReadFile reads regular files only, at most the
// bound the caller gives. OpenDir and OpenRegular do the same for names
// relative to an os.Root.
//
// Not covered: what a program reads later is the file as it is then; a
// file changed between a recognizer's read and the run is contained by the
// kernel sandbox, not by this package.
package fsview
