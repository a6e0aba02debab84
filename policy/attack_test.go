package policy

import "testing"

// TestAttackPortableScriptNamesOffWindows shows that, off Windows, a
// script named after a Windows-only program with a cross-platform
// extension (update.py, logger.py, /opt/tools/replace.py) was refused as
// the Windows program: the .py/.pl/.rb/.js/.jar suffix was stripped as a
// "Windows extension". Windows itself still refuses every spelling, and
// .bat/.cmd/.exe still mean the Windows program everywhere.
func TestAttackPortableScriptNamesOffWindows(t *testing.T) {
	for _, goos := range []string{"linux", "darwin"} {
		for _, n := range []string{"update.py", "/opt/tools/update.py", "logger.py", "replace.py", "write.rb", "query.pl", "print.js", "control.py", "cmd.py"} {
			expectNaming(t, goos, n, false)
		}
		for _, n := range []string{"update.bat", "update.exe", "logger.cmd", "cmd.exe", "control.exe"} {
			expectNaming(t, goos, n, true)
		}
	}
	for _, n := range []string{"update.py", "logger.py", "control.py", "cmd.py", "update"} {
		expectNaming(t, "windows", n, true)
	}
}
