package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestLoadDefaults(t *testing.T) {
	dir := t.TempDir()
	for _, k := range []string{"ALLOW_COMMANDS", "ALLOWED_COMMANDS", "ALLOW_PATTERNS", "MCP_SHELL_SAFE_PATH", "MCP_SHELL_AUDIT_LOG", "MCP_SHELL_DEFAULT_TIMEOUT_SECONDS", "MCP_SHELL_MAX_TIMEOUT_SECONDS", "MCP_SHELL_OUTPUT_LIMIT_BYTES", "MCP_SHELL_ALLOWED_DIRECTORIES"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	cfg, err := Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.UsingBuiltinProfile || !slices.Contains(cfg.Commands, "ls") {
		t.Errorf("builtin profile not used: %v", cfg.Commands)
	}
	if explicit, _ := LoadFrom(map[string]string{}, []string{dir}); explicit.UsingBuiltinProfile || len(explicit.Commands) != 0 {
		t.Errorf("LoadFrom applied the builtin profile: %v", explicit.Commands)
	}
	if cfg.DefaultTimeout != 30*time.Second || cfg.MaxTimeout != 300*time.Second || cfg.OutputLimit != 1048576 {
		t.Errorf("limits: %v %v %d", cfg.DefaultTimeout, cfg.MaxTimeout, cfg.OutputLimit)
	}
	if cfg.SafePath != DefaultSafePath || cfg.AuditLog != "stderr" {
		t.Errorf("safe path %q audit %q", cfg.SafePath, cfg.AuditLog)
	}
	resolved, _ := filepath.EvalSymlinks(dir)
	if len(cfg.AllowedDirs) != 1 || cfg.AllowedDirs[0] != resolved {
		t.Errorf("dirs %v", cfg.AllowedDirs)
	}
}

func TestLoadFromLists(t *testing.T) {
	cfg, err := LoadFrom(map[string]string{
		"ALLOW_COMMANDS":      " ls , cat,,",
		"ALLOWED_COMMANDS":    "echo, ls",
		"ALLOW_PATTERNS":      "git, /usr/bin/.*",
		"MCP_SHELL_SAFE_PATH": "   ",
	}, []string{t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.Commands, []string{"cat", "echo", "ls"}) || cfg.UsingBuiltinProfile {
		t.Errorf("commands %v", cfg.Commands)
	}
	if len(cfg.Patterns) != 2 || !cfg.Patterns[0].MatchString("git") || cfg.Patterns[0].MatchString("gitk") {
		t.Errorf("patterns must full-match: %v", cfg.PatternSources)
	}
	if cfg.SafePath != DefaultSafePath {
		t.Errorf("blank safe path: %q", cfg.SafePath)
	}
}

func TestExplicitEmptyAllowlistIsNotTheBuiltinProfile(t *testing.T) {
	cfg, err := LoadFrom(map[string]string{"ALLOW_COMMANDS": " , ,"}, []string{t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.UsingBuiltinProfile || len(cfg.Commands) != 0 {
		t.Errorf("an explicitly empty allowlist must allow nothing: %v", cfg.Commands)
	}
}

func TestLoadFromInvalid(t *testing.T) {
	tests := []struct {
		env map[string]string
		dir string
		bad string
	}{
		{map[string]string{"MCP_SHELL_DEFAULT_TIMEOUT_SECONDS": "abc"}, "", "MCP_SHELL_DEFAULT_TIMEOUT_SECONDS"},
		{map[string]string{"MCP_SHELL_DEFAULT_TIMEOUT_SECONDS": ""}, "", "MCP_SHELL_DEFAULT_TIMEOUT_SECONDS"},
		{map[string]string{"MCP_SHELL_MAX_TIMEOUT_SECONDS": "0"}, "", "MCP_SHELL_MAX_TIMEOUT_SECONDS"},
		{map[string]string{"MCP_SHELL_OUTPUT_LIMIT_BYTES": "-1"}, "", "MCP_SHELL_OUTPUT_LIMIT_BYTES"},
		{map[string]string{"MCP_SHELL_DEFAULT_TIMEOUT_SECONDS": "400"}, "", "MCP_SHELL_DEFAULT_TIMEOUT_SECONDS"},
		{map[string]string{"MCP_SHELL_MAX_CONCURRENT": "0"}, "", "MCP_SHELL_MAX_CONCURRENT"},
		{map[string]string{"ALLOW_PATTERNS": "l s"}, "", "ALLOW_PATTERNS"},
		{map[string]string{"ALLOW_PATTERNS": "ls|cat"}, "", "ALLOW_PATTERNS"},
		{map[string]string{"ALLOW_PATTERNS": "("}, "", "ALLOW_PATTERNS"},
		{map[string]string{"MCP_SHELL_LOG_LEVEL": "loud"}, "", "MCP_SHELL_LOG_LEVEL"},
		{map[string]string{"MCP_SHELL_CHILD_ENV_ALLOWLIST": "OK,BAD-NAME"}, "", "MCP_SHELL_CHILD_ENV_ALLOWLIST"},
		{map[string]string{}, "/nonexistent-dir-for-test", "directory argument"},
		{map[string]string{"MCP_SHELL_ALLOWED_DIRECTORIES": "/etc/hostname"}, "", "MCP_SHELL_ALLOWED_DIRECTORIES"},
	}
	for _, tt := range tests {
		dirs := []string{t.TempDir()}
		if tt.dir != "" {
			dirs = []string{tt.dir}
		}
		_, err := LoadFrom(tt.env, dirs)
		var ce *Error
		if !errors.As(err, &ce) || ce.Var != tt.bad {
			t.Errorf("%v: err %v, want a config error naming %s", tt.env, err, tt.bad)
		}
	}
}

func TestLoadFromRestoresEnvironment(t *testing.T) {
	t.Setenv("MCP_TEST_MARKER", "kept")
	if _, err := LoadFrom(map[string]string{"ALLOW_COMMANDS": "ls"}, []string{t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("MCP_TEST_MARKER") != "kept" || os.Getenv("ALLOW_COMMANDS") != "" {
		t.Error("process environment not restored")
	}
}

func TestPositionalDirectoriesComeFirst(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	cfg, err := LoadFrom(map[string]string{"MCP_SHELL_ALLOWED_DIRECTORIES": a}, []string{b})
	if err != nil {
		t.Fatal(err)
	}
	ra, _ := filepath.EvalSymlinks(a)
	rb, _ := filepath.EvalSymlinks(b)
	if !slices.Equal(cfg.AllowedDirs, []string{rb, ra}) {
		t.Errorf("AllowedDirs = %v, want [%s %s]", cfg.AllowedDirs, rb, ra)
	}
}

func TestFailClosedOnDangerousDelegation(t *testing.T) {
	dir := t.TempDir()
	token := filepath.Join(dir, "token")
	os.WriteFile(token, []byte("0123456789abcdef0123\n"), 0o600)
	for _, tt := range []struct {
		env map[string]string
		bad string
	}{
		{map[string]string{"MCP_SHELL_SAFE_PATH": "relative:/usr/bin"}, "MCP_SHELL_SAFE_PATH"},
		{map[string]string{"MCP_SHELL_SAFE_PATH": "/usr/bin::/bin"}, "MCP_SHELL_SAFE_PATH"},
		{map[string]string{"MCP_SHELL_CHILD_ENV_ALLOWLIST": "LANG,MCP_SHELL_HTTP_TOKEN"}, "MCP_SHELL_CHILD_ENV_ALLOWLIST"},
		{map[string]string{"MCP_SHELL_CHILD_ENV_ALLOWLIST": "MCPGODEBUG"}, "MCP_SHELL_CHILD_ENV_ALLOWLIST"},
		{map[string]string{"MCP_SHELL_TRANSPORT": "http", "MCP_SHELL_HTTP_TOKEN_FILE": token}, "MCP_SHELL_HTTP_TOKEN_FILE"},
	} {
		_, err := LoadFrom(tt.env, []string{dir})
		var ce *Error
		if !errors.As(err, &ce) || ce.Var != tt.bad {
			t.Errorf("%v: err %v, want a config error naming %s", tt.env, err, tt.bad)
		}
	}
}

// TestSandboxSettings: the sandbox defaults (auto, network by family, the
// default rlimits through the launcher), MCP_SHELL_SANDBOX_EXEC parsing,
// off with an explicit rlimit becoming limits, and the refusals, each
// naming its variable.
func TestSandboxSettings(t *testing.T) {
	dir := t.TempDir()
	load := func(env map[string]string) (*Config, error) { return LoadFrom(env, []string{dir}) }
	cfg, err := load(map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.Sandbox; !cfg.Launch || s.Mode != "auto" || s.Network != "family" || s.Limits.NProc != 4096 {
		t.Errorf("defaults: launch %v %+v", cfg.Launch, s)
	}
	cfg, err = load(map[string]string{"MCP_SHELL_SANDBOX_EXEC": "deploy.sh=git:rsync, /opt/b=*,deploy.sh=/usr/lib/git-core"})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Sandbox.Exec; !slices.Equal(got["deploy.sh"], []string{"git", "rsync", "/usr/lib/git-core"}) || !slices.Equal(got["/opt/b"], []string{"*"}) {
		t.Errorf("exec %v", got)
	}
	if cfg, err = load(map[string]string{"MCP_SHELL_SANDBOX": "off", "MCP_SHELL_RLIMIT_NOFILE": "64"}); err != nil || cfg.Sandbox.Mode != "limits" || !cfg.Launch {
		t.Errorf("off with an rlimit: %v %+v", err, cfg)
	}
	if cfg, err = load(map[string]string{"MCP_SHELL_SANDBOX": "off"}); err != nil || cfg.Launch {
		t.Errorf("off: %v launch %v", err, cfg.Launch)
	}
	for env, name := range map[string]string{
		"MCP_SHELL_SANDBOX=seccomp":                  "MCP_SHELL_SANDBOX",
		"MCP_SHELL_SANDBOX_NETWORK=some":             "MCP_SHELL_SANDBOX_NETWORK",
		"MCP_SHELL_SANDBOX_EXEC=deploy.sh":           "MCP_SHELL_SANDBOX_EXEC",
		"MCP_SHELL_SANDBOX_EXEC=deploy.sh=rel/prog":  "MCP_SHELL_SANDBOX_EXEC",
		"MCP_SHELL_SANDBOX_CACHE_DIR=cache":          "MCP_SHELL_SANDBOX_CACHE_DIR",
		"MCP_SHELL_SANDBOX_READ_DIRS=/usr,/opt/../x": "MCP_SHELL_SANDBOX_READ_DIRS",
	} {
		k, v, _ := strings.Cut(env, "=")
		var ce *Error
		if _, err := load(map[string]string{k: v}); !errors.As(err, &ce) || ce.Var != name {
			t.Errorf("%s: %v, want an error naming %s", env, err, name)
		}
	}
}
