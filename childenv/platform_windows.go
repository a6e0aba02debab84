//go:build windows

// Windows: the default child PATH is Git for Windows' GNU programs, never
// the Windows directory, and children get the variables Windows programs
// cannot start without.

package childenv

// DefaultPath is the child PATH when PATH is not delegated and
// MCP_SHELL_SAFE_PATH is unset or blank: git.exe and the GNU tools Git for
// Windows installs (ls, cat, grep, sort, ...), whose grammars the
// recognizers know. System32 is left out on purpose: its sort.exe,
// find.exe, more.com and xcopy.exe have other grammars (sort /O FILE
// writes a file), and the policy refuses programs inside the Windows
// directory whatever the PATH (policy/naming.go).
const DefaultPath = `C:\Program Files\Git\cmd;C:\Program Files\Git\usr\bin`

// platformNames are passed from the server's environment besides the
// identity and locale (base.go): the Windows directory (Winsock, the
// crypto provider and the loader's known DLLs need SYSTEMROOT; many
// programs read WINDIR), the system drive, and the user's profile
// directories, Windows' counterpart of HOME (Git for Windows and Go read
// USERPROFILE and LOCALAPPDATA for configuration and caches). None names a
// program: COMSPEC (the shell) and PATHEXT stay out.
var platformNames = []string{"SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "USERPROFILE", "APPDATA", "LOCALAPPDATA", "USERNAME"}
