package policy

import (
	"errors"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// spellings are the ways a request can name program n on Windows: every
// one must reach the same verdict there.
func spellings(n string) []string {
	upper := strings.ToUpper(n)
	title := strings.ToUpper(n[:1]) + n[1:]
	return []string{
		n, upper, title, n + ".exe", upper + ".EXE", title + ".Exe", n + ".com",
		`C:\Windows\System32\` + n + ".exe", "C:/Windows/System32/" + upper + ".EXE", `\\host\share\` + n,
		"C:" + n + ".exe", n + ".exe.", n + ".exe::$DATA", n + ". .",
	}
}

// expectNaming checks one verdict of Refused under the naming of goos.
func expectNaming(t *testing.T, goos, argv0 string, want bool) {
	t.Helper()
	name, category, ok := namingFor(goos).refused(argv0)
	if ok != want {
		t.Errorf("%s: %q refused=%v (as %q, %q), want %v", goos, argv0, ok, name, category, want)
	}
	if ok && category == "" {
		t.Errorf("%s: %q refused without a category", goos, argv0)
	}
}

// TestWindowsRefusalList: every Windows name of the list is refused on
// Windows in every spelling (case, extension, drive path, UNC path,
// stream suffix, trailing dots); on Linux and macOS the names of
// windowsGroups are refused as written and with an extension, the
// Windows-only names only with a Windows extension.
func TestWindowsRefusalList(t *testing.T) {
	for _, g := range append(append([]refusedGroup{}, windowsGroups...), windowsOnlyGroups...) {
		if g.source == "" || g.category == "" || len(g.names) == 0 {
			t.Errorf("group %q has no source or names", g.category)
		}
		for _, n := range g.names {
			if n != strings.ToLower(n) {
				t.Errorf("%q: keys are lower-case", n)
			}
			for _, s := range spellings(n) {
				expectNaming(t, "windows", s, true)
			}
		}
	}
	for _, goos := range []string{"linux", "darwin"} {
		for _, g := range windowsGroups {
			for _, n := range g.names {
				for _, s := range []string{n, strings.ToUpper(n), n + ".exe", "/mnt/c/Windows/System32/" + n + ".EXE"} {
					expectNaming(t, goos, s, true)
				}
			}
		}
		for _, g := range windowsOnlyGroups {
			for _, n := range g.names {
				expectNaming(t, goos, n, false)
				expectNaming(t, goos, "/usr/bin/"+n, false)
				expectNaming(t, goos, n+".exe", true)
				expectNaming(t, goos, n+".bat", true)
			}
		}
	}
}

// TestWindowsProgramNames: Windows programs (shells, script hosts, LOLBins), each with the
// category it is refused as, so a row moved to another group is seen.
func TestWindowsProgramNames(t *testing.T) {
	for _, tc := range []struct{ argv0, name, category string }{
		{`C:\Windows\System32\cmd.exe`, "cmd", "Windows shell"},
		{"COMMAND.COM", "command", "Windows shell"},
		{"PowerShell.exe", "powershell", "shell"},
		{"pwsh", "pwsh", "shell"},
		{"powershell_ise.exe", "powershell_ise", "Windows shell"},
		{"WScript", "wscript", "Windows Script Host"},
		{"cscript.exe", "cscript", "Windows Script Host"},
		{"mshta.exe", "mshta", "HTML Application"},
		{"rundll32.exe", "rundll32", "DLLs"},
		{"regsvr32", "regsvr32", "DLLs"},
		{"msiexec.exe", "msiexec", "installers"},
		{"wmic", "wmic", "runs a command"},
		{"certutil.exe", "certutil", "download"},
		{"bitsadmin", "bitsadmin", "runs a command"},
		{"schtasks.exe", "schtasks", "runs a command"},
		{"at.exe", "at", "command wrapper"},
		{"forfiles", "forfiles", "launcher"},
		{"conhost.exe", "conhost", "console host"},
		{"explorer.exe", "explorer", "launcher"},
		{"runas", "runas", "launcher"},
		{"wsl.exe", "wsl", "Windows shell"},
		{`C:\Windows\System32\bash.exe`, "bash", "shell"},
		{"InstallUtil.exe", "installutil", ".NET"},
		{"RegAsm.exe", "regasm", ".NET"},
		{"regsvcs", "regsvcs", ".NET"},
		{"MSBuild.exe", "msbuild", "build tool"},
		{"odbcconf", "odbcconf", "DLLs"},
		{"pcalua.exe", "pcalua", "launcher"},
		{"Microsoft.Workflow.Compiler.exe", "microsoft.workflow.compiler", ".NET"},
		{"python3.12.exe", "python", "interpreter"},
		{"deploy.BAT", "deploy.bat", "Windows script"},
		{"C:/tools/build.cmd", "build.cmd", "Windows script"},
		{"x.vbs", "x.vbs", "Windows script"},
		{"x.js", "x.js", "Windows script"},
		{"x.wsf", "x.wsf", "Windows script"},
		{"x.ps1", "x.ps1", "Windows script"},
		{"x.hta", "x.hta", "Windows script"},
		{"x.cmd.", "x.cmd", "Windows script"},
		{"x.bat:stream", "x.bat", "Windows script"},
	} {
		name, category, ok := namingFor("windows").refused(tc.argv0)
		if !ok || name != tc.name || !strings.Contains(category, tc.category) {
			t.Errorf("windows %q: refused=%v as %q (%s), want %q (%s)", tc.argv0, ok, name, category, tc.name, tc.category)
		}
	}
}

// TestWindowsNamingKeepsOrdinaryPrograms: the normalisation refuses no
// ordinary program, on Windows and elsewhere, and script extensions are a
// Windows matter (on Linux and macOS the kernel runs a file by its
// contents, not its extension).
func TestWindowsNamingKeepsOrdinaryPrograms(t *testing.T) {
	for _, n := range []string{"git", "git.exe", "GIT.EXE", "C:/Program Files/Git/cmd/git.exe", "rg.exe", "go.exe", "tar.exe",
		"sort.exe", "findstr-like", "ls", "jq.exe", "node-gyp-build-like", "make.exe", "curl.exe", "where.exe", "exe", ".exe", "cmd1", "cmd2.exe", "wscript2"} {
		expectNaming(t, "windows", n, false)
	}
	for _, n := range []string{"build.bat", "x.ps1", "notes.cmd", "app.js", "certutil", "expand", "logger", "reset", "write", "sc", "tracker", "git", "ls", "cmd1", "cmd2", "cmd3"} {
		expectNaming(t, "linux", n, false)
		expectNaming(t, "darwin", n, false)
	}
}

// TestWindowsNamesThroughThePolicy: the host's Evaluate refuses Windows
// names with the refusal list's code, and a backslash path as an unsafe
// name before the list is consulted.
func TestWindowsNamesThroughThePolicy(t *testing.T) {
	dir := fixture(t)
	for _, tc := range []struct {
		argv0 string
		code  refusal.Code
	}{
		{"cmd.exe", CodeRefusedProgram},
		{"CMD", CodeRefusedProgram},
		{"mshta.exe", CodeRefusedProgram},
		{"powershell_ise", CodeRefusedProgram},
		{`C:\Windows\System32\cmd.exe`, CodeUnsafeName},
	} {
		_, err := decideIn(t, testPolicy(tc.argv0), []string{tc.argv0, "/c", "echo"}, dir)
		var rej *refusal.Rejection
		if !errors.As(err, &rej) || rej.Code != tc.code {
			t.Errorf("%q: got %v, want %s", tc.argv0, err, tc.code)
		}
	}
}
