package policy

import (
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// TestSystemDir: on Windows a program inside the Windows directory is
// refused in any spelling of the path (case, slashes, a moved SystemRoot),
// and nothing is refused elsewhere or on other platforms.
func TestSystemDir(t *testing.T) {
	t.Parallel()
	win := namingFor("windows")
	env := func(vars map[string]string) func(string) string {
		return func(v string) string { return vars[v] }
	}
	none := env(nil)
	moved := env(map[string]string{"SystemRoot": `D:\WinNT`})
	for _, tt := range []struct {
		n      naming
		file   string
		getenv func(string) string
		want   string
	}{
		{win, `C:\Windows\System32\sort.exe`, none, `C:\Windows`},
		{win, `c:\windows\system32\FIND.EXE`, none, `C:\Windows`},
		{win, `C:/Windows/System32/more.com`, none, `C:\Windows`},
		{win, `C:\Windows\SysWOW64\xcopy.exe`, none, `C:\Windows`},
		{win, `D:\WinNT\System32\sort.exe`, moved, `D:\WinNT`},
		{win, `C:\Windows\System32\sort.exe`, moved, `C:\Windows`},
		{win, `C:\WindowsApps\tool.exe`, none, ""},
		{win, `C:\Program Files\Git\usr\bin\sort.exe`, none, ""},
		{win, `C:\Windows`, none, ""},
		{win, "", none, ""},
		{namingFor("linux"), `C:\Windows\System32\sort.exe`, none, ""},
		{namingFor("darwin"), "/usr/bin/sort", none, ""},
	} {
		if got := tt.n.systemDir(tt.file, tt.getenv); got != tt.want {
			t.Errorf("systemDir(%q) on windows=%v = %q, want %q", tt.file, tt.n.windows, got, tt.want)
		}
	}
	p := New(Config{Commands: []string{"sort"}})
	p.naming = win
	err := p.checkSystemDir("sort", 0, childenv.Resolution{Found: `C:\Windows\System32\sort.exe`, Real: `C:\Windows\System32\sort.exe`})
	if rj := refusal.As(err); rj == nil || rj.Code != CodeRefusedProgram || rj.Arg != "sort" {
		t.Errorf("sort in System32: %v, want a %s refusal naming sort", err, CodeRefusedProgram)
	}
}
