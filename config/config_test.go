package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/server"
)

func TestParseDefaults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg, err := parse(LookupMap(nil), []string{dir}, true)
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.UsingBuiltinProfile || !slices.Contains(cfg.Commands, "ls") {
		t.Errorf("builtin profile not used: %v", cfg.Commands)
	}
	if explicit, _ := Parse(LookupMap(nil), []string{dir}); explicit.UsingBuiltinProfile || len(explicit.Commands) != 0 {
		t.Errorf("Parse applied the builtin profile: %v", explicit.Commands)
	}
	if cfg.DefaultTimeout != 30*time.Second || cfg.MaxTimeout != 300*time.Second || cfg.OutputLimit != 1048576 || cfg.MaxConcurrent != 64 {
		t.Errorf("limits: %v %v %d %d", cfg.DefaultTimeout, cfg.MaxTimeout, cfg.OutputLimit, cfg.MaxConcurrent)
	}
	if !defaultSafePath(cfg) || cfg.AuditLog != "stderr" || cfg.Transport != "stdio" || !slices.Equal(cfg.Tools, []string{"shell_execute"}) {
		t.Errorf("safe path %q audit %q transport %q tools %v", cfg.SafePath, cfg.AuditLog, cfg.Transport, cfg.Tools)
	}
	resolved, _ := filepath.EvalSymlinks(dir)
	if len(cfg.AllowedDirs) != 1 || cfg.AllowedDirs[0] != resolved {
		t.Errorf("dirs %v", cfg.AllowedDirs)
	}
}

// TestLoadReadsTheProcessEnvironment is the one test that sets process
// variables (so it cannot run in parallel): Load's profile rule.
func TestLoadReadsTheProcessEnvironment(t *testing.T) {
	for _, k := range []string{"ALLOW_COMMANDS", "ALLOWED_COMMANDS", "ALLOW_PATTERNS"} {
		t.Setenv(k, "") // restored after the test
		os.Unsetenv(k)
	}
	cfg, err := Load([]string{t.TempDir()})
	if err != nil || !cfg.UsingBuiltinProfile {
		t.Fatalf("no allowlist: %v %+v", err, cfg)
	}
	t.Setenv("ALLOWED_COMMANDS", "git")
	cfg, err = Load([]string{t.TempDir()})
	if err != nil || cfg.UsingBuiltinProfile || !slices.Equal(cfg.Commands, []string{"git"}) {
		t.Fatalf("ALLOWED_COMMANDS=git: %v %+v", err, cfg)
	}
}

func TestParseLists(t *testing.T) {
	t.Parallel()
	cfg, err := Parse(LookupMap(map[string]string{
		"ALLOW_COMMANDS":      " ls , cat,,",
		"ALLOWED_COMMANDS":    "echo, ls",
		"ALLOW_PATTERNS":      "git, /usr/bin/.*",
		"MCP_SHELL_SAFE_PATH": "   ",
	}), []string{t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.Commands, []string{"cat", "echo", "ls"}) || cfg.UsingBuiltinProfile {
		t.Errorf("commands %v", cfg.Commands)
	}
	if len(cfg.Patterns) != 2 || !cfg.Patterns[0].MatchString("git") || cfg.Patterns[0].MatchString("gitk") {
		t.Errorf("patterns must full-match: %v", cfg.PatternSources)
	}
	if !defaultSafePath(cfg) {
		t.Errorf("blank safe path: %q", cfg.SafePath)
	}
}

func TestExplicitEmptyAllowlistIsNotTheBuiltinProfile(t *testing.T) {
	t.Parallel()
	for _, env := range []map[string]string{{"ALLOW_COMMANDS": " , ,"}, {"ALLOW_COMMANDS": ""}, {"ALLOW_PATTERNS": ""}} {
		cfg, err := parse(LookupMap(env), []string{t.TempDir()}, true)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.UsingBuiltinProfile || len(cfg.Commands) != 0 {
			t.Errorf("%v: an explicitly empty allowlist must allow nothing: %v", env, cfg.Commands)
		}
	}
}

// expectVarError checks that err is a *Error naming variable.
func expectVarError(t *testing.T, what any, err error, variable string) {
	t.Helper()
	var ce *Error
	if !errors.As(err, &ce) || ce.Var != variable {
		t.Errorf("%v: err %v, want a config error naming %s", what, err, variable)
	}
}

func TestParseInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env map[string]string
		dir string
		bad string
	}{
		{map[string]string{"MCP_SHELL_DEFAULT_TIMEOUT_SECONDS": "abc"}, "", "MCP_SHELL_DEFAULT_TIMEOUT_SECONDS"},
		{map[string]string{"MCP_SHELL_MAX_TIMEOUT_SECONDS": "0"}, "", "MCP_SHELL_MAX_TIMEOUT_SECONDS"},
		{map[string]string{"MCP_SHELL_OUTPUT_LIMIT_BYTES": "-1"}, "", "MCP_SHELL_OUTPUT_LIMIT_BYTES"},
		{map[string]string{"MCP_SHELL_DEFAULT_TIMEOUT_SECONDS": "400"}, "", "MCP_SHELL_DEFAULT_TIMEOUT_SECONDS"},
		{map[string]string{"MCP_SHELL_MAX_CONCURRENT": "0"}, "", "MCP_SHELL_MAX_CONCURRENT"},
		{map[string]string{"MCP_SHELL_SANDBOX_BEST_EFFORT": "yes"}, "", "MCP_SHELL_SANDBOX_BEST_EFFORT"},
		{map[string]string{"ALLOW_COMMANDS": "ls,ls -la"}, "", "ALLOW_COMMANDS"},
		{map[string]string{"ALLOW_COMMANDS": "ls;id"}, "", "ALLOW_COMMANDS"},
		{map[string]string{"ALLOW_COMMANDS": "cat|sh"}, "", "ALLOW_COMMANDS"},
		{map[string]string{"ALLOW_COMMANDS": "$(id)"}, "", "ALLOW_COMMANDS"},
		{map[string]string{"ALLOW_COMMANDS": "/usr/bin/../bin/ls"}, "", "ALLOW_COMMANDS"},
		{map[string]string{"ALLOW_COMMANDS": "ls", "ALLOWED_COMMANDS": "git&&id"}, "", "ALLOWED_COMMANDS"},
		{map[string]string{"ALLOW_PATTERNS": "l s"}, "", "ALLOW_PATTERNS"},
		{map[string]string{"ALLOW_PATTERNS": "ls|cat"}, "", "ALLOW_PATTERNS"},
		{map[string]string{"ALLOW_PATTERNS": "("}, "", "ALLOW_PATTERNS"},
		{map[string]string{"MCP_SHELL_LOG_LEVEL": "loud"}, "", "MCP_SHELL_LOG_LEVEL"},
		{map[string]string{"MCP_SHELL_CONFIRM_COMMANDS": "rm -rf"}, "", "MCP_SHELL_CONFIRM_COMMANDS"},
		{map[string]string{"MCP_SHELL_CONFIRM_COMMANDS": "git,../rm"}, "", "MCP_SHELL_CONFIRM_COMMANDS"},
		{map[string]string{"MCP_SHELL_CONFIRM_PATTERNS": "git push.*,rm (-r"}, "", "MCP_SHELL_CONFIRM_PATTERNS"},
		{map[string]string{"MCP_SHELL_CONFIRM_TIMEOUT_SECONDS": "0"}, "", "MCP_SHELL_CONFIRM_TIMEOUT_SECONDS"},
		{map[string]string{"MCP_SHELL_CONFIRM_TIMEOUT_SECONDS": "3601"}, "", "MCP_SHELL_CONFIRM_TIMEOUT_SECONDS"},
		{map[string]string{"MCP_SHELL_AUDIT_LOG": "  "}, "", "MCP_SHELL_AUDIT_LOG"},
		{map[string]string{"MCP_SHELL_TOOLS": " , "}, "", "MCP_SHELL_TOOLS"},
		{map[string]string{"MCP_SHELL_CHILD_ENV_ALLOWLIST": "OK,BAD-NAME"}, "", "MCP_SHELL_CHILD_ENV_ALLOWLIST"},
		{map[string]string{}, "/nonexistent-dir-for-test", "directory argument"},
		{map[string]string{"MCP_SHELL_ALLOWED_DIRECTORIES": "/etc/hostname"}, "", "MCP_SHELL_ALLOWED_DIRECTORIES"},
	}
	for _, tt := range tests {
		dirs := []string{t.TempDir()}
		if tt.dir != "" {
			dirs = []string{tt.dir}
		}
		_, err := Parse(LookupMap(tt.env), dirs)
		expectVarError(t, tt.env, err, tt.bad)
	}
}

// TestIntegersAreDecimal: Go literal syntax (octal,
// hexadecimal, underscores) and signs stop start-up naming the variable,
// for every integer type Env uses.
func TestIntegersAreDecimal(t *testing.T) {
	t.Parallel()
	vars := []string{"MCP_SHELL_DEFAULT_TIMEOUT_SECONDS", "MCP_SHELL_OUTPUT_LIMIT_BYTES", "MCP_SHELL_HTTP_MAX_BODY_BYTES", "MCP_SHELL_RLIMIT_NPROC"}
	for _, name := range vars {
		for _, value := range []string{"010", "0x10", "1_000", "+5", "-5", " 30", "30 ", "1e3", "3.0", "99999999999999999999999"} {
			_, err := Parse(LookupMap(map[string]string{name: value}), []string{t.TempDir()})
			expectVarError(t, name+"="+value, err, name)
			if err != nil && !strings.Contains(err.Error(), value) {
				t.Errorf("%s=%q: %v does not quote the value", name, value, err)
			}
		}
	}
	for _, tt := range []struct {
		env  map[string]string
		get  func(*Config) any
		want any
	}{
		{map[string]string{"MCP_SHELL_OUTPUT_LIMIT_BYTES": "10"}, func(c *Config) any { return c.OutputLimit }, int64(10)},
		{map[string]string{"MCP_SHELL_DEFAULT_TIMEOUT_SECONDS": "100", "MCP_SHELL_MAX_TIMEOUT_SECONDS": "100"}, func(c *Config) any { return c.DefaultTimeout }, 100 * time.Second},
		{map[string]string{"MCP_SHELL_RLIMIT_NPROC": "0"}, func(c *Config) any { return c.Sandbox.Limits.NProc }, uint64(0)},
		{map[string]string{"MCP_SHELL_RLIMIT_NOFILE": "18446744073709551615"}, func(c *Config) any { return c.Sandbox.Limits.NoFile }, uint64(1<<64 - 1)},
	} {
		cfg, err := Parse(LookupMap(tt.env), []string{t.TempDir()})
		if err != nil {
			t.Errorf("%v: %v", tt.env, err)
		} else if got := tt.get(cfg); got != tt.want {
			t.Errorf("%v: got %v, want %v", tt.env, got, tt.want)
		}
	}
}

// TestEmptyMeansDefault: for every variable, an empty value configures
// exactly what leaving it unset does, rather than failing.
func TestEmptyMeansDefault(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	unset, err := Parse(LookupMap(nil), []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range variables() {
		got, err := Parse(LookupMap(map[string]string{v.name: ""}), []string{dir})
		if err != nil {
			t.Errorf("%s=: %v", v.name, err)
			continue
		}
		if !reflect.DeepEqual(got, unset) {
			t.Errorf("%s=: %+v\nunset: %+v", v.name, got, unset)
		}
	}
	cfg, err := Parse(LookupMap(map[string]string{"MCP_SHELL_SANDBOX": "off", "MCP_SHELL_RLIMIT_CPU_SECONDS": ""}), []string{dir})
	if err != nil || cfg.Launch {
		t.Errorf("an empty MCP_SHELL_RLIMIT_* must not turn the launcher on: %v %+v", err, cfg)
	}
}

// TestParseNeverTouchesTheEnvironment: Parse looks up only the variables
// Env declares (and HOME, the default of MCP_SHELL_CHILD_HOME) and leaves
// the process environment as it was.
func TestParseNeverTouchesTheEnvironment(t *testing.T) {
	t.Parallel()
	before := os.Environ()
	declared := map[string]bool{"HOME": true}
	for _, v := range variables() {
		declared[v.name] = true
	}
	var asked []string
	lookup := func(name string) (string, bool) {
		asked = append(asked, name)
		return LookupMap(map[string]string{"ALLOW_COMMANDS": "ls", "MCP_SHELL_MAX_CONCURRENT": "3"})(name)
	}
	cfg, err := Parse(lookup, []string{t.TempDir()})
	if err != nil || cfg.MaxConcurrent != 3 {
		t.Fatalf("%v %+v", err, cfg)
	}
	for _, name := range asked {
		if !declared[name] {
			t.Errorf("Parse looked up undeclared %s", name)
		}
	}
	if !slices.Equal(before, os.Environ()) {
		t.Error("Parse changed the process environment")
	}
}

func TestPositionalDirectoriesComeFirst(t *testing.T) {
	t.Parallel()
	a, b := t.TempDir(), t.TempDir()
	cfg, err := Parse(LookupMap(map[string]string{"MCP_SHELL_ALLOWED_DIRECTORIES": a}), []string{b})
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
	t.Parallel()
	dir := t.TempDir()
	token := filepath.Join(dir, "token")
	os.WriteFile(token, []byte("q7Vd2mXk9LpR4wTz8bNc\n"), 0o600) // a strong token: refused only for where it lies
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
		_, err := Parse(LookupMap(tt.env), []string{dir})
		expectVarError(t, tt.env, err, tt.bad)
	}
}

func TestChildHome(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		env  map[string]string
		want string
		bad  bool
	}{
		{map[string]string{"HOME": "/home/u"}, "/home/u", false},
		{map[string]string{"HOME": "/home/u", "MCP_SHELL_CHILD_HOME": "/srv/h"}, "/srv/h", false},
		{map[string]string{"HOME": "/home/u", "MCP_SHELL_CHILD_HOME": "none"}, "", false},
		{map[string]string{}, "", false},
		{map[string]string{"HOME": "$WORKDIR"}, "", false},
		{map[string]string{"MCP_SHELL_CHILD_HOME": "rel/h"}, "", true},
	} {
		cfg, err := Parse(LookupMap(tt.env), []string{t.TempDir()})
		if tt.bad {
			var ce *Error
			if !errors.As(err, &ce) || ce.Var != "MCP_SHELL_CHILD_HOME" {
				t.Errorf("%v: err %v, want one naming MCP_SHELL_CHILD_HOME", tt.env, err)
			}
			continue
		}
		if err != nil || cfg.ChildHome != tt.want {
			t.Errorf("%v: ChildHome %q, %v; want %q", tt.env, cfg.ChildHome, err, tt.want)
		}
	}
}

// TestSandboxSettings: the sandbox defaults (auto, network by family, the
// default rlimits through the launcher), MCP_SHELL_SANDBOX_EXEC parsing,
// off with an explicit rlimit becoming limits, and the refusals, each
// naming its variable.
func TestSandboxSettings(t *testing.T) {
	dir := t.TempDir()
	load := func(env map[string]string) (*Config, error) { return Parse(LookupMap(env), []string{dir}) }
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
	for value, want := range map[string][]string{"": nil, "npm, pip": {"npm", "pip"}, "1": {"*"}, "all": {"*"}, "false": nil} {
		if cfg, err = load(map[string]string{"MCP_SHELL_SANDBOX_CREDENTIALS": value}); err != nil || !slices.Equal(cfg.Sandbox.Credentials, want) {
			t.Errorf("MCP_SHELL_SANDBOX_CREDENTIALS=%q: %v %q, want %q", value, err, cfg.Sandbox.Credentials, want)
		}
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
		"MCP_SHELL_SANDBOX_CREDENTIALS=npm,git":      "MCP_SHELL_SANDBOX_CREDENTIALS",
		"MCP_SHELL_SANDBOX_READ_DIRS=/usr,/opt/../x": "MCP_SHELL_SANDBOX_READ_DIRS",
	} {
		k, v, _ := strings.Cut(env, "=")
		var ce *Error
		if _, err := load(map[string]string{k: v}); !errors.As(err, &ce) || ce.Var != name {
			t.Errorf("%s: %v, want an error naming %s", env, err, name)
		}
	}
}

// defaultSafePath reports whether cfg's child PATH is the default one:
// childenv.DefaultPath followed by the toolchains this machine has.
func defaultSafePath(cfg *Config) bool {
	want := childenv.DefaultPath
	for _, tc := range cfg.Toolchains {
		want += string(filepath.ListSeparator) + tc.Bin
	}
	return cfg.SafePath == want
}

// TestToolchainsOnTheDefaultPath: with MCP_SHELL_SAFE_PATH unset, the
// toolchains installed beneath the children's HOME follow the default
// PATH and their trees join the read directories, except a bin a stage
// could write (a delegated GOPATH); a set MCP_SHELL_SAFE_PATH is used as
// it is.
func TestToolchainsOnTheDefaultPath(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	for _, d := range []string{"go/bin", ".cargo/bin", ".rustup/toolchains", ".nvm/versions/node/v20.1.0/bin", ".nvm/versions/node/v22.3.1/bin", ".nvm/versions/node/v9.0.0/bin"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	parse := func(vars map[string]string) *Config {
		t.Helper()
		vars["HOME"], vars["ALLOW_COMMANDS"] = home, "go"
		cfg, err := Parse(LookupMap(vars), []string{t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	cfg := parse(map[string]string{})
	path := filepath.SplitList(cfg.SafePath)
	for _, want := range []string{filepath.Join(home, "go/bin"), filepath.Join(home, ".cargo/bin"), filepath.Join(home, ".nvm/versions/node/v22.3.1/bin")} {
		if !slices.Contains(path, want) {
			t.Errorf("%s is not on the default PATH %q", want, cfg.SafePath)
		}
	}
	if slices.Contains(path, filepath.Join(home, ".nvm/versions/node/v20.1.0/bin")) {
		t.Errorf("an older nvm node is on the PATH: %q", cfg.SafePath)
	}
	if !strings.HasPrefix(cfg.SafePath, childenv.DefaultPath+string(filepath.ListSeparator)) {
		t.Errorf("the toolchains must follow the system directories: %q", cfg.SafePath)
	}
	for _, want := range []string{filepath.Join(home, ".rustup"), filepath.Join(home, ".cargo/bin"), filepath.Join(home, ".nvm/versions/node/v22.3.1")} {
		if !slices.Contains(cfg.Sandbox.ReadDirs, want) {
			t.Errorf("%s is not a read directory: %v", want, cfg.Sandbox.ReadDirs)
		}
	}
	delegated := parse(map[string]string{"GOPATH": filepath.Join(home, "go"), "MCP_SHELL_CHILD_ENV_ALLOWLIST": "GOPATH"})
	if slices.Contains(filepath.SplitList(delegated.SafePath), filepath.Join(home, "go/bin")) || len(delegated.ToolchainsSkipped) != 1 {
		t.Errorf("a delegated GOPATH's bin, which go install stages write, is on the PATH: %q (skipped %q)", delegated.SafePath, delegated.ToolchainsSkipped)
	}
	if set := parse(map[string]string{"MCP_SHELL_SAFE_PATH": "/usr/bin:/bin"}); set.SafePath != "/usr/bin:/bin" || len(set.Toolchains) != 0 {
		t.Errorf("MCP_SHELL_SAFE_PATH set: %q %v", set.SafePath, set.Toolchains)
	}
	if read := parse(map[string]string{"MCP_SHELL_SANDBOX_READ_DIRS": "/usr"}); !slices.Equal(read.Sandbox.ReadDirs, []string{"/usr"}) {
		t.Errorf("MCP_SHELL_SANDBOX_READ_DIRS set: %v", read.Sandbox.ReadDirs)
	}
}

// TestConfirmSettings: the confirm tier's entries are read as the
// allowlist's (sorted, each once), its patterns compiled whole, so
// whitespace matches the spaces between argv elements, and the timeout
// defaults to the server's.
func TestConfirmSettings(t *testing.T) {
	t.Parallel()
	cfg, err := Parse(LookupMap(map[string]string{
		"MCP_SHELL_CONFIRM_COMMANDS": " rm, git ,rm", "MCP_SHELL_CONFIRM_PATTERNS": "git push.*, kubectl delete .*",
	}), []string{t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.PolicySettings().Confirm
	if !slices.Equal(c.Commands, []string{"git", "rm"}) || !slices.Equal(c.PatternSources, []string{"git push.*", "kubectl delete .*"}) {
		t.Errorf("confirm tier %+v", c)
	}
	if !c.Patterns[0].MatchString("git push origin main") || c.Patterns[0].MatchString("xgit push") {
		t.Errorf("pattern %v is not a full match", c.Patterns[0])
	}
	if cfg.ConfirmTimeout != server.DefaultConfirmTimeout {
		t.Errorf("timeout %v, want the default %v", cfg.ConfirmTimeout, server.DefaultConfirmTimeout)
	}
	unset, _ := Parse(LookupMap(nil), []string{t.TempDir()})
	if len(unset.Confirm.Commands)+len(unset.Confirm.Patterns) != 0 {
		t.Errorf("a confirm tier by default: %+v", unset.Confirm)
	}
}
