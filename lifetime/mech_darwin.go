//go:build darwin

// macOS: each stage's process group is the whole binding (Pgroup); a
// call needs nothing of its own (callos_unix.go).

package lifetime

// platformMechanism is the mechanism on macOS, with or without Setup.
const platformMechanism = Pgroup
