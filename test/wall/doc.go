// Package wall proves the kernel wall of the default sandbox by attack: a
// probe program (test/wallprobe) makes one plain system call per way out
// of a stage, run by the real server under its default configuration as
// a leaf and from code that make, npm and go test run, as the server's
// user and, under root, as an unprivileged one.
package wall
