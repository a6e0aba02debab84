//go:build darwin || linux

// The POSIX PATH search (execute bits, ":"-separated PATH): Linux and
// macOS; the Windows search is tested through findExt (pathext_test.go).

package childenv

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	other := filepath.Join(dir, "other")
	for _, d := range []string{bin, other, filepath.Join(bin, "subdir")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path string, mode os.FileMode) {
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(bin, "tool"), 0o755)
	write(filepath.Join(bin, "noexec"), 0o644)
	write(filepath.Join(other, "noexec"), 0o755)
	write(filepath.Join(dir, "local"), 0o755)
	if os.Geteuid() == 0 {
		// root passes X_OK when any execute bit is set; 0o644 still fails.
		t.Log("running as root")
	}
	tests := []struct {
		name, path, want string
	}{
		{"tool", bin, filepath.Join(bin, "tool")},
		{"tool", other + ":" + bin, filepath.Join(bin, "tool")},
		{"noexec", bin + ":" + other, filepath.Join(other, "noexec")},
		{"noexec", bin, ""},
		{"subdir", bin, ""},
		{"local", "", ""},
		{"local", ".", ""},
		{"local", ":", ""},
		{"local", "bin:.:", ""},
		{"missing", bin, ""},
		{"", bin, ""},
		{"./local", "", filepath.Join(dir, "local")},
		{filepath.Join(bin, "tool"), "", filepath.Join(bin, "tool")},
		{"bin/tool", "", filepath.Join(bin, "tool")},
		{"bin/noexec", bin, ""},
		{"bin/subdir", bin, ""},
		{"bin/missing", bin, ""},
	}
	for _, tt := range tests {
		got, err := LookPath(tt.name, tt.path, dir)
		if got != tt.want {
			t.Errorf("LookPath(%q, %q) = %q, %v; want %q", tt.name, tt.path, got, err, tt.want)
		}
		if tt.want == "" {
			var le *LookupError
			if !errors.Is(err, exec.ErrNotFound) || !errors.As(err, &le) {
				t.Errorf("LookPath(%q, %q) error %v does not wrap exec.ErrNotFound as *LookupError", tt.name, tt.path, err)
			}
		}
	}
	_, err := LookPath("foo", bin, dir)
	if want := "executable file not found in child PATH (MCP_SHELL_SAFE_PATH, or the operator's own PATH when PATH is in MCP_SHELL_CHILD_ENV_ALLOWLIST): foo"; err == nil || err.Error() != want {
		t.Errorf("message = %v, want %q", err, want)
	}
}
