//go:build !windows

// POSIX (Linux, macOS): the default child PATH is the FHS program
// directories, and the base environment needs nothing platform-specific.

package childenv

// DefaultPath is the child PATH when PATH is not delegated and
// MCP_SHELL_SAFE_PATH is unset or blank (spec "Child process environment").
const DefaultPath = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"

// platformNames are passed from the server's environment besides the
// identity and locale (base.go): none on POSIX.
var platformNames []string
