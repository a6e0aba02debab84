package childenv

import (
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestExtCandidates: a known extension is tried as is, any other name
// with every PATHEXT extension in order.
func TestExtCandidates(t *testing.T) {
	exts := []string{".com", ".exe", ".bat"}
	for _, tt := range []struct {
		name string
		want []string
	}{
		{"prog", []string{"prog.com", "prog.exe", "prog.bat"}},
		{"prog.exe", []string{"prog.exe"}},
		{"prog.EXE", []string{"prog.EXE"}},
		{"prog.bat", []string{"prog.bat"}},
		{"prog.txt", []string{"prog.txt.com", "prog.txt.exe", "prog.txt.bat"}},
		{"v1.2", []string{"v1.2.com", "v1.2.exe", "v1.2.bat"}},
	} {
		if got := extCandidates(tt.name, exts); !slices.Equal(got, tt.want) {
			t.Errorf("extCandidates(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestFindExt runs the Windows search over fake directory listings: the
// first existing candidate decides, a .com or .exe is found, and a .bat,
// .cmd or other script is refused even when an .exe comes later.
func TestFindExt(t *testing.T) {
	a, b := filepath.Join("/", "a"), filepath.Join("/", "b")
	in := func(dir string, names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(dir, n))
		}
		return out
	}
	tests := []struct {
		name     string
		dirs     []string
		files    []string
		want     string
		host     string // a *ScriptFileError with this host
		notFound bool
	}{
		{name: "prog", dirs: []string{a, b}, files: in(a, "prog.exe"), want: filepath.Join(a, "prog.exe")},
		{name: "prog", dirs: []string{a, b}, files: in(a, "prog.com", "prog.exe"), want: filepath.Join(a, "prog.com")},
		{name: "prog", dirs: []string{a, b}, files: in(b, "prog.exe"), want: filepath.Join(b, "prog.exe")},
		{name: "prog", dirs: []string{a, b}, files: in(a, "prog"), notFound: true}, // no extension: CreateProcess would add .exe
		{name: "prog", dirs: []string{a, b}, files: in(a, "prog.bat"), host: "cmd.exe"},
		{name: "prog", dirs: []string{a, b}, files: in(a, "prog.cmd"), host: "cmd.exe"},
		{name: "prog", dirs: []string{a, b}, files: append(in(a, "prog.cmd"), in(b, "prog.exe")...), host: "cmd.exe"},
		{name: "prog", dirs: []string{a}, files: in(a, "prog.bat", "prog.exe"), want: filepath.Join(a, "prog.exe")}, // .exe precedes .bat in PATHEXT
		{name: "prog", dirs: []string{a}, files: in(a, "prog.vbs"), host: "wscript.exe"},
		{name: "prog", dirs: []string{a}, files: in(a, "prog.msc"), host: "mmc.exe"},
		{name: "prog.exe", dirs: []string{a}, files: in(a, "prog.exe", "prog.exe.exe"), want: filepath.Join(a, "prog.exe")},
		{name: "prog.BAT", dirs: []string{a}, files: in(a, "prog.BAT"), host: "cmd.exe"},
		{name: "prog.Cmd", dirs: []string{a}, files: in(a, "prog.Cmd"), host: "cmd.exe"},
		{name: "notes.txt", dirs: []string{a}, files: in(a, "notes.txt"), notFound: true},
		{name: "tool.txt", dirs: []string{a}, files: in(a, "tool.txt.exe"), want: filepath.Join(a, "tool.txt.exe")},
		{name: filepath.Join(a, "prog"), dirs: []string{""}, files: in(a, "prog.exe"), want: filepath.Join(a, "prog.exe")},
		{name: filepath.Join(a, "run.bat"), dirs: []string{""}, files: in(a, "run.bat"), host: "cmd.exe"},
		{name: "missing", dirs: []string{a, b}, files: in(a, "prog.exe"), notFound: true},
		{name: "prog", dirs: nil, files: in(a, "prog.exe"), notFound: true},
	}
	for _, tt := range tests {
		present := func(f string) bool { return slices.Contains(tt.files, f) }
		got, ok, err := findExt(tt.name, tt.dirs, DefaultPathext, present)
		var se *ScriptFileError
		switch {
		case tt.host != "":
			if !errors.As(err, &se) || se.Host != tt.host || !errors.Is(err, ErrScriptFile) || !ok || got != "" {
				t.Errorf("findExt(%q) in %q = %q, %v, %v; want a *ScriptFileError via %s", tt.name, tt.files, got, ok, err, tt.host)
			}
		case tt.notFound:
			if ok || err != nil || got != "" {
				t.Errorf("findExt(%q) in %q = %q, %v, %v; want nothing found", tt.name, tt.files, got, ok, err)
			}
		default:
			if got != tt.want || !ok || err != nil {
				t.Errorf("findExt(%q) in %q = %q, %v, %v; want %q", tt.name, tt.files, got, ok, err, tt.want)
			}
		}
	}
}

// TestScriptFileErrorThroughLookupError: wrapped as LookPath returns it,
// the refusal is still recognisable, and still "not found" for callers
// that only know exec.ErrNotFound.
func TestScriptFileErrorThroughLookupError(t *testing.T) {
	err := error(&LookupError{Name: "build", Err: &ScriptFileError{Name: "build", File: `C:\tools\build.bat`, Host: "cmd.exe"}})
	var se *ScriptFileError
	if !errors.As(err, &se) || se.File != `C:\tools\build.bat` || !errors.Is(err, ErrScriptFile) || !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("%v does not unwrap to the *ScriptFileError", err)
	}
	want := `not an executable file: build: build resolves to C:\tools\build.bat, which Windows runs through cmd.exe`
	if err.Error() != want {
		t.Errorf("message %q, want %q", err.Error(), want)
	}
}
