package childenv

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func lookup(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestBuild(t *testing.T) {
	parent := map[string]string{
		"PATH": "/parent/bin:/usr/bin", "HOME": "/home/u", "TZ": "UTC",
		"SECRET_TOKEN": "s3cr3t", "MCPGODEBUG": "x=1", "LD_PRELOAD": "/evil.so", "EMPTY": "",
	}
	tests := []struct {
		name      string
		cfg       Config
		parent    map[string]string
		overrides map[string]string
		want      []string
		wantErr   any
	}{
		{name: "default", parent: parent, want: []string{"PATH=" + DefaultPath}},
		{name: "safe path", cfg: Config{SafePath: "/opt/bin:/bin"}, parent: parent, want: []string{"PATH=/opt/bin:/bin"}},
		{name: "safe path untrimmed", cfg: Config{SafePath: " /opt/bin "}, parent: parent, want: []string{"PATH= /opt/bin "}},
		{name: "blank safe path", cfg: Config{SafePath: " \t"}, parent: parent, want: []string{"PATH=" + DefaultPath}},
		{name: "override PATH ignored unless delegated is refused",
			overrides: map[string]string{"PATH": "/x"}, parent: parent, wantErr: new(*NotAllowedError)},
		{name: "delegated PATH from parent", cfg: Config{Allowlist: []string{"PATH"}, SafePath: "/safe"}, parent: parent,
			want: []string{"PATH=/parent/bin:/usr/bin"}},
		{name: "delegated PATH override refused", cfg: Config{Allowlist: []string{"PATH"}, SafePath: "/safe"}, parent: parent,
			overrides: map[string]string{"PATH": "/call/bin"}, wantErr: new(*NotAllowedError)},
		{name: "delegated empty PATH passed unchanged", cfg: Config{Allowlist: []string{"PATH"}},
			parent: map[string]string{"PATH": ""}, want: []string{"PATH="}},
		{name: "delegated empty override refused", cfg: Config{Allowlist: []string{"PATH"}}, parent: parent,
			overrides: map[string]string{"PATH": ""}, wantErr: new(*NotAllowedError)},
		{name: "delegated PATH absent falls back to safe path", cfg: Config{Allowlist: []string{"PATH"}, SafePath: "/safe"},
			parent: map[string]string{}, want: []string{"PATH=/safe"}},
		{name: "allowlisted names inherited, sorted", cfg: Config{Allowlist: []string{"TZ", "HOME", "EMPTY", "ABSENT"}}, parent: parent,
			want: []string{"EMPTY=", "HOME=/home/u", "TZ=UTC", "PATH=" + DefaultPath}},
		{name: "override wins over parent", cfg: Config{Allowlist: []string{"TZ"}}, parent: parent,
			overrides: map[string]string{"TZ": "C"}, want: []string{"TZ=C", "PATH=" + DefaultPath}},
		{name: "override of name absent in parent", cfg: Config{Allowlist: []string{"MY_TOOL_LEVEL"}}, parent: parent,
			overrides: map[string]string{"MY_TOOL_LEVEL": "3"}, want: []string{"MY_TOOL_LEVEL=3", "PATH=" + DefaultPath}},
		{name: "secrets not inherited", cfg: Config{Allowlist: []string{"TZ"}}, parent: parent,
			want: []string{"TZ=UTC", "PATH=" + DefaultPath}},
		{name: "MCPGODEBUG never forwarded", cfg: Config{Allowlist: []string{"MCPGODEBUG"}}, parent: parent,
			want: []string{"PATH=" + DefaultPath}},
		{name: "MCPGODEBUG override refused", cfg: Config{Allowlist: []string{"MCPGODEBUG"}}, parent: parent,
			overrides: map[string]string{"MCPGODEBUG": "1"}, wantErr: new(*NotAllowedError)},
		{name: "override not allowlisted", cfg: Config{Allowlist: []string{"TZ"}}, parent: parent,
			overrides: map[string]string{"LD_PRELOAD": "./evil.so"}, wantErr: new(*NotAllowedError)},
		{name: "override name with =", cfg: Config{Allowlist: []string{"TZ"}}, parent: parent,
			overrides: map[string]string{"TZ=x": "y"}, wantErr: new(*NameError)},
		{name: "override name with NUL", parent: parent,
			overrides: map[string]string{"A\x00B": "y"}, wantErr: new(*NameError)},
		{name: "override empty name", parent: parent,
			overrides: map[string]string{"": "y"}, wantErr: new(*NameError)},
		{name: "override value with NUL", cfg: Config{Allowlist: []string{"TZ"}}, parent: parent,
			overrides: map[string]string{"TZ": "a\x00b"}, wantErr: new(*ValueError)},
		{name: "allowlist name invalid", cfg: Config{Allowlist: []string{"1BAD"}}, parent: parent, wantErr: new(*NameError)},
		{name: "allowlist name with dash", cfg: Config{Allowlist: []string{"MY-VAR"}}, parent: parent, wantErr: new(*NameError)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Build(tt.cfg, lookup(tt.parent), tt.overrides)
			if tt.wantErr != nil {
				if err == nil || !errors.As(err, tt.wantErr) {
					t.Fatalf("Build = %q, %v; want error %T", got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			if want := slices.Sorted(slices.Values(tt.want)); !slices.Equal(got, want) {
				t.Errorf("Build = %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestBuildBase: HOME from the configuration, identity and locale from
// the server, every other variable of the server's environment withheld.
func TestBuildBase(t *testing.T) {
	parent := map[string]string{"HOME": "/home/server", "USER": "u", "LOGNAME": "u", "LANG": "C.UTF-8", "LC_ALL": "", "TOKEN": "s"}
	got, err := Build(Config{Home: "/home/child"}, lookup(parent), nil)
	want := []string{"HOME=/home/child", "LANG=C.UTF-8", "LOGNAME=u", "PATH=" + DefaultPath, "USER=u"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Build = %q, %v\nwant %q", got, err, want)
	}
	if got, _ := Build(Config{}, lookup(parent), nil); slices.ContainsFunc(got, func(kv string) bool { return strings.HasPrefix(kv, "HOME=") }) {
		t.Errorf("no Home configured, yet %q", got)
	}
	if _, err := Build(Config{Home: "/h", Allowlist: []string{"HOME"}}, lookup(parent), map[string]string{"HOME": "/tmp/evil"}); err == nil {
		t.Error("a per-call HOME was accepted")
	}
}

func TestNotAllowedMessage(t *testing.T) {
	_, err := Build(Config{}, lookup(nil), map[string]string{"GIT_SSH_COMMAND": "x"})
	want := "environment variable GIT_SSH_COMMAND is not in MCP_SHELL_CHILD_ENV_ALLOWLIST"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}

// FuzzBuild: whatever the override, the result holds only PATH and
// allowlisted names, each once, sorted, without NUL bytes; or an error.
func FuzzBuild(f *testing.F) {
	f.Add("LANG", "C", "LANG,PATH", "/safe")
	f.Add("PATH", "", "PATH", "")
	f.Add("LD_PRELOAD", "./x.so", "LANG", " ")
	f.Add("A=B", "v", "A", "/x")
	f.Add("MCPGODEBUG", "1", "MCPGODEBUG", "")
	f.Add("LANG", "a\x00", "LANG", "")
	f.Fuzz(func(t *testing.T, name, value, allow, safe string) {
		cfg := Config{Allowlist: strings.Split(allow, ","), SafePath: safe}
		env, err := Build(cfg, lookup(map[string]string{"PATH": "/p", "LANG": "en", "SECRET": "s"}), map[string]string{name: value})
		if err != nil {
			return
		}
		if !slices.IsSorted(env) {
			t.Fatalf("unsorted %q", env)
		}
		seen := map[string]bool{}
		for _, kv := range env {
			k, _, ok := strings.Cut(kv, "=")
			if !ok || seen[k] || strings.IndexByte(kv, 0) >= 0 || (k != "PATH" && k != "LANG" && !slices.Contains(cfg.Allowlist, k)) || k == "MCPGODEBUG" {
				t.Fatalf("bad entry %q in %q", kv, env)
			}
			seen[k] = true
		}
		if !seen["PATH"] {
			t.Fatalf("no PATH in %q", env)
		}
	})
}

func TestSteeringOverridesRefused(t *testing.T) {
	cfg := Config{Allowlist: []string{"LD_PRELOAD", "GIT_SSH_COMMAND", "RIPGREP_CONFIG_PATH", "LANG", "HOME"}}
	parent := func(string) (string, bool) { return "", false }
	for _, name := range []string{"LD_PRELOAD", "GIT_SSH_COMMAND", "RIPGREP_CONFIG_PATH", "HOME"} {
		_, err := Build(cfg, parent, map[string]string{name: "x"})
		var na *NotAllowedError
		if !errors.As(err, &na) || !na.Steering {
			t.Errorf("override of %s: %v, want a steering refusal", name, err)
		}
	}
	if _, err := Build(cfg, parent, map[string]string{"LANG": "C.UTF-8"}); err != nil {
		t.Errorf("LANG override refused: %v", err)
	}
	env, err := Build(cfg, func(n string) (string, bool) { return "/inherited", n == "HOME" }, nil)
	if err != nil || !slices.Contains(env, "HOME=/inherited") {
		t.Errorf("the operator's own value must still pass: %v %v", env, err)
	}
}

// TestSteeringPerFamily (issue 12, class 10): per-call values of the
// variables that do what refused options do are refused even when the
// operator allowlists them: KUBECONFIG (= kubectl --kubeconfig),
// JAVA_HOME (picks the java mvn runs), PATH (picks what a name resolves
// to), and each table row's shape; names that steer nothing still pass.
func TestSteeringPerFamily(t *testing.T) {
	steer := []string{"PATH", "KUBECONFIG", "JAVA_HOME", "DOCKER_CONFIG", "DOCKER_HOST", "GOROOT", "GOFLAGS", "RUSTUP_TOOLCHAIN",
		"CARGO_TARGET_DIR", "npm_config_script_shell", "PIP_CONFIG_FILE", "PYTHONSTARTUP", "NODE_OPTIONS", "JAVA_TOOL_OPTIONS",
		"OPENSSL_CONF", "KUBECTL_EXTERNAL_DIFF", "KUBE_EDITOR", "XDG_CONFIG_HOME", "TMPDIR", "ZIPOPT", "TAPE", "GLIBC_TUNABLES",
		"MAVEN_OPTS", "CC", "CGO_LDFLAGS", "RUSTFLAGS", "GOTOOLCHAIN", "CONTAINER_HOST", "SSLKEYLOGFILE", "GNUPGHOME"}
	for _, name := range steer {
		cfg := Config{Allowlist: []string{name, "LANG"}}
		_, err := Build(cfg, func(string) (string, bool) { return "", false }, map[string]string{name: "/tmp/elsewhere/x"})
		var na *NotAllowedError
		if !errors.As(err, &na) || !na.Steering {
			t.Errorf("per-call %s: %v, want a steering refusal", name, err)
		}
		if why, ok := SteeringReason(name); !ok || !strings.Contains(why, "(") {
			t.Errorf("%s: no reason with a source: %q", name, why)
		}
		if w := Warnings(cfg); len(w) != 1 || !strings.Contains(w[0], name) {
			t.Errorf("%s allowlisted: warnings %q", name, w)
		}
	}
	for _, name := range []string{"LANG", "LC_ALL", "TZ", "TERM", "NODE_ENV", "GOOS", "GOARCH", "RUST_LOG", "CI", "NO_COLOR", "HTTP_PROXY"} {
		if Steering(name) {
			t.Errorf("%s is refused per call but steers no program", name)
		}
	}
}

// TestSteeringBuildVariables: the variables through which a per-call
// value makes make's built-in rules or the compiler driver run a program
// the request chose (CFLAGS=-B./evil/, LIBRARY_PATH with a specs file,
// COMPILER_PATH), load code into an interpreter or name an editor or
// pager are refused per call, and the message names the variable and why;
// header search paths, whose files only become code of the program being
// compiled, are not.
func TestSteeringBuildVariables(t *testing.T) {
	for _, name := range []string{"CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "FFLAGS", "LDLIBS", "ARFLAGS", "ASFLAGS", "TARGET_ARCH",
		"AS", "RM", "YACC", "MAKE", "COMPILER_PATH", "GCC_EXEC_PREFIX", "LIBRARY_PATH", "GCC_COMPARE_DEBUG", "DEPENDENCIES_OUTPUT",
		"COLLECT_GCC", "CCC_OVERRIDE_OPTIONS", "CMAKE_C_COMPILER_LAUNCHER", "MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "GOFLAGS",
		"PYTEST_ADDOPTS", "PERL5OPT", "RUBYOPT", "BASH_ENV", "ENV", "LUA_INIT", "ERL_AFLAGS", "PHPRC", "VIMINIT", "EXINIT",
		"HGRCPATH", "HGEDITOR", "SVN_SSH", "BZR_PLUGIN_PATH", "PATCH_GET", "SIMPLE_BACKUP_SUFFIX",
		"GIT_PAGER", "PSQL_PAGER", "SVN_EDITOR", "RSYNC_RSH", "CVS_RSH", "AWS_CONFIG_FILE", "GH_PAGER", "SBT_OPTS", "OPENSSL_CONF_INCLUDE"} {
		cfg := Config{Allowlist: []string{name}}
		_, err := Build(cfg, func(string) (string, bool) { return "", false }, map[string]string{name: "-B./evil/"})
		var na *NotAllowedError
		if !errors.As(err, &na) || !na.Steering || na.Name != name {
			t.Errorf("per-call %s: %v, want a steering refusal naming it", name, err)
			continue
		}
		if why, _ := SteeringReason(name); !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: message %q does not say why", name, err)
		}
	}
	for _, name := range []string{"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH", "SOURCE_DATE_EPOCH", "GCC_COLORS"} {
		if Steering(name) {
			t.Errorf("%s is refused per call but runs nothing", name)
		}
	}
}

// TestProgramPathIgnoresOverrides: the PATH programs are resolved with is
// the operator's, whatever a call sends.
func TestProgramPathIgnoresOverrides(t *testing.T) {
	parent := func(n string) (string, bool) { return "/op/bin", n == "PATH" }
	if got := ProgramPath(Config{Allowlist: []string{"PATH"}}, parent); got != "/op/bin" {
		t.Errorf("delegated: %q", got)
	}
	if got := ProgramPath(Config{SafePath: "/safe"}, parent); got != "/safe" {
		t.Errorf("safe path: %q", got)
	}
}

// TestOverlay: an extra entry replaces every entry of its name (the
// hardening wins over a delegated value), the last of a repeated extra
// name wins, empty values are kept, and the result is sorted by name.
func TestOverlay(t *testing.T) {
	got := Overlay([]string{"GIT_PAGER=less", "LANG=C", "PATH=/bin", "GIT_PAGER=more"}, []string{"GIT_PAGER=cat", "GIT_PROXY_COMMAND=", "A=1", "A=2"})
	want := []string{"A=2", "GIT_PAGER=cat", "GIT_PROXY_COMMAND=", "LANG=C", "PATH=/bin"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Overlay = %q, want %q", got, want)
	}
	if v, ok := Lookup(got, "GIT_PROXY_COMMAND"); !ok || v != "" {
		t.Errorf("Lookup of an empty value: %q %v", v, ok)
	}
	if _, ok := Lookup(got, "GIT"); ok {
		t.Error("Lookup matched a prefix of a name")
	}
}
