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

// TestAttackSystemDirNamespacePrefixes shows that the Windows-directory
// rule compared the resolved path as a plain string, so a program found
// through a PATH entry spelled in the Win32 file or device namespace
// (\\?\C:\Windows\System32, \\.\C:\..., //?/C:/...) was not inside the
// Windows directory and System32's sort.exe ran. UNC spellings of an
// administrative share (\\localhost\C$\Windows) are still not recognised.
func TestAttackSystemDirNamespacePrefixes(t *testing.T) {
	win := namingFor("windows")
	none := func(string) string { return "" }
	for _, f := range []string{`\\?\C:\Windows\System32\sort.exe`, `\\.\C:\Windows\System32\sort.exe`, `//?/c:/windows/system32/sort.exe`, `\??\C:\Windows\SysWOW64\xcopy.exe`} {
		if got := win.systemDir(f, none); got != `C:\Windows` {
			t.Errorf("systemDir(%q) = %q, want C:\\Windows", f, got)
		}
	}
	moved := func(v string) string { return map[string]string{"SystemRoot": `\\?\D:\WinNT`}[v] }
	if got := win.systemDir(`D:\WinNT\System32\sort.exe`, moved); got == "" {
		t.Errorf("SystemRoot spelled \\\\?\\D:\\WinNT: D:\\WinNT\\System32\\sort.exe not in the Windows directory")
	}
	for _, f := range []string{`\\?\C:\WindowsApps\tool.exe`, `\\?\UNC\host\share\Windows\x.exe`, `\\?\C:\Program Files\Git\usr\bin\sort.exe`} {
		if got := win.systemDir(f, none); got != "" {
			t.Errorf("systemDir(%q) = %q, want none", f, got)
		}
	}
}
