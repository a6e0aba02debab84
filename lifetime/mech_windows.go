//go:build windows

// Windows: every call's processes are in a Job Object of its own
// (callos_windows.go).

package lifetime

// platformMechanism is the mechanism on Windows, with or without Setup.
const platformMechanism = Job
