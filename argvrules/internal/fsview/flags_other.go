//go:build !unix

package fsview

// openFlags adds nothing: Windows has no FIFOs under a directory to block
// an open, and handles are not inherited unless passed.
const openFlags = 0
