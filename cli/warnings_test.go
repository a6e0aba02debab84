package cli

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/config"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// TestWarnPrograms: an allowlisted program missing from the child PATH
// gets one warning naming MCP_SHELL_SAFE_PATH and where the server's own
// PATH has it; a program the child PATH has, one with a path and one the
// policy always refuses get none; the toolchain directories added to the
// default are stated.
func TestWarnPrograms(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("executable bits")
	}
	child, server := t.TempDir(), t.TempDir()
	for dir, names := range map[string][]string{child: {"found"}, server: {"elsewhere"}} {
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	cfg := &config.Config{Commands: []string{"found", "elsewhere", "nowhere", "/opt/x/abs", "bash"}, SafePath: child,
		Toolchains: []childenv.Toolchain{{Name: "go", Bin: "/usr/local/go/bin"}}}
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	warnPrograms(log, cfg, func(k string) (string, bool) {
		if k == "PATH" {
			return server, true
		}
		return "", false
	})
	out := buf.String()
	var warn string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "level=WARN") {
			if warn != "" {
				t.Errorf("more than one warning:\n%s", out)
			}
			warn = line
		}
	}
	if !strings.Contains(warn, "MCP_SHELL_SAFE_PATH") {
		t.Errorf("the warning does not name MCP_SHELL_SAFE_PATH:\n%s", out)
	}
	m := regexp.MustCompile(`programs="([^"]*)"`).FindStringSubmatch(warn)
	if want := "elsewhere (the server's PATH has " + filepath.Join(server, "elsewhere") + "), nowhere"; m == nil || m[1] != want {
		t.Errorf("the warning names %q, want %q:\n%s", m, want, out)
	}
	if !strings.Contains(out, "/usr/local/go/bin") || !strings.Contains(out, "toolchains") {
		t.Errorf("the added toolchain directory is not stated:\n%s", out)
	}
}

// TestWarnGPGSigning: an unprivileged server with git allowlisted and a
// gpg keyring in the children's home warns once that signing needs
// lock-never, unless gpg.conf has it (also behind spaces, before a
// comment); read-only mounts, no git, no keyring or no home warn nothing.
func TestWarnGPGSigning(t *testing.T) {
	keyring := func(conf string) string {
		home := t.TempDir()
		gnupg := filepath.Join(home, ".gnupg")
		if err := os.MkdirAll(gnupg, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(gnupg, "pubring.kbx"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if conf != "" {
			if err := os.WriteFile(filepath.Join(gnupg, "gpg.conf"), []byte(conf), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return home
	}
	for _, tc := range []struct {
		name     string
		home     string
		commands []string
		readOnly bool
		warn     bool
	}{
		{"keyring, no gpg.conf", keyring(""), []string{"git"}, false, true},
		{"gpg.conf without lock-never", keyring("# lock-never\nuse-agent\n"), []string{"git"}, false, true},
		{"lock-never", keyring("use-agent\n  lock-never  # no locks: ~/.gnupg is read-only to the sandbox\n"), []string{"git"}, false, false},
		{"read-only mounts", keyring(""), []string{"git"}, true, false},
		{"no git", keyring(""), []string{"ls"}, false, false},
		{"no keyring", t.TempDir(), []string{"git"}, false, false},
		{"no home", "", []string{"git"}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			warnGPGSigning(slog.New(slog.NewTextHandler(&buf, nil)), &config.Config{Commands: tc.commands, ChildHome: tc.home}, tc.readOnly)
			out := buf.String()
			if got := strings.Count(out, "level=WARN"); got != map[bool]int{true: 1}[tc.warn] {
				t.Fatalf("%d warnings, want warn=%v:\n%s", got, tc.warn, out)
			}
			if tc.warn && (!strings.Contains(out, "lock-never") || !strings.Contains(out, "gpg.format=ssh")) {
				t.Errorf("the warning does not name lock-never and ssh signing:\n%s", out)
			}
		})
	}
}

// TestWarnReadDirs: a Landlock read list that leaves out the loader's
// directories gets one warning giving the whole value to set; the
// default list, and a sandbox that reads no list, get none.
func TestWarnReadDirs(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Landlock")
	}
	narrow := t.TempDir()
	for _, tc := range []struct {
		name string
		sc   sandbox.Config
		warn bool
	}{
		{"narrowed", sandbox.Config{Mode: sandbox.ModeAuto, ReadDirs: []string{narrow}}, true},
		{"narrowed landlock", sandbox.Config{Mode: sandbox.ModeLandlock, ReadDirs: []string{narrow}}, true},
		{"default", sandbox.Config{Mode: sandbox.ModeAuto, ReadDirs: sandbox.DefaultReadDirs}, false},
		{"unset", sandbox.Config{Mode: sandbox.ModeAuto}, false},
		{"limits", sandbox.Config{Mode: sandbox.ModeLimits, ReadDirs: []string{narrow}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(sandbox.LoaderDirsOutside([]string{narrow})) == 0 {
				t.Skip("no dynamic loader in the default directories")
			}
			var buf bytes.Buffer
			warnReadDirs(slog.New(slog.NewTextHandler(&buf, nil)), tc.sc)
			out := buf.String()
			if n := strings.Count(out, "level=WARN"); n != map[bool]int{true: 1, false: 0}[tc.warn] {
				t.Fatalf("%d warnings:\n%s", n, out)
			}
			if !tc.warn {
				return
			}
			for _, want := range []string{"dynamically linked programs will fail to load", `set="MCP_SHELL_SANDBOX_READ_DIRS=` + narrow + ",/usr,"} {
				if !strings.Contains(out, want) {
					t.Errorf("the warning lacks %q:\n%s", want, out)
				}
			}
		})
	}
}
