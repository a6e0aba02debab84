//go:build unix

// Oracles that run the real tools: Unix only, like the other oracle files.

package argvrules

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// Differential tests of the paths programs read and write, with
// runOracle's contract (an argv whose run ran the canary or wrote outside
// must have been refused, and at least one variant must escape):
// makefiles read from standard input through unnormalised paths and
// working-directory symlinks, pip config writing the user's pip.conf, and
// output-directory options of pip, npm and cargo.

// runOracleSetup is runOracle with a setup step run in each fresh
// environment before the variant (symlinks, a crate) and a resolved
// program path.
func runOracleSetup(t *testing.T, prog, path string, rec Recognizer, vs []variant, setup func(e *oracleEnv), extraEnv ...string) {
	t.Helper()
	escapes, refused := 0, 0
	vs = testenv.Sample(vs)
	for _, vr := range vs {
		e := newOracleEnv(t, "")
		if setup != nil {
			setup(e)
		}
		args := e.expand(vr.args)
		rej := rec(append([]string{prog}, args...), pinCtx(t, e.work))
		if rej != nil {
			refused++
		}
		ran, wrote := e.effect(t, append([]string{path}, args...), e.expand([]string{vr.stdin})[0], extraEnv)
		if ran || wrote {
			escapes++
			if rej == nil {
				t.Errorf("%s %q: the canary ran=%v or wrote outside=%v, but the recognizer allowed it", prog, args, ran, wrote)
			}
		}
	}
	t.Logf("%s: %d variants, %d escaped when run, %d refused", prog, len(vs), escapes, refused)
	testenv.Saw(t, prog, len(vs), escapes, 1)
}

func TestOracleMakeStdinPaths(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	path := testenv.Program(t, "make")
	up := strings.Repeat("../", 32)
	stdin := "all:\n\t@CANARY\n"
	var vs []variant
	for _, f := range [][]string{
		{"-f", "//dev/stdin"}, {"-f", up + "proc/self/fd/0"}, {"-f", "/./dev/stdin"},
		{"--file=//proc/self/fd/0"}, {"--makefile", "/dev//fd/0"}, {"-sf", "/dev/./stdin"},
		{"-f", "in"}, {"-f", "fd0"}, {"-f", "devdir/stdin"}, {"-f", "usr/../dev/stdin"},
		{"-C", "/dev", "-f", "stdin"}, {"-f", "stdin", "-C", "devdir"}, {"-C", "/", "-f", "dev/stdin"},
		{"-C", up + "proc/self", "-f", "fd/0"},
		// everyday forms
		{"-f", "Makefile"}, {"-C", ".", "-f", "Makefile"}, {"-f", "link/Makefile"},
	} {
		vs = append(vs, variant{args: append(f, "all"), stdin: stdin})
	}
	setup := func(e *oracleEnv) {
		for name, target := range map[string]string{
			"in": "/dev/stdin", "fd0": "/proc/self/fd/0", "devdir": "/dev", "usr": "/usr", "link": ".",
		} {
			if err := os.Symlink(target, filepath.Join(e.work, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	runOracleSetup(t, "make", path, checkMake, vs, setup)
}

// realPip returns the pip of the python3 on PATH, bypassing a pyenv shim
// (which needs the caller's HOME).
func realPip(t *testing.T) string {
	out, err := exec.Command(testenv.Program(t, "python3"), "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	pip := filepath.Join(filepath.Dir(strings.TrimSpace(string(out))), "pip")
	if _, err := os.Stat(pip); err != nil {
		testenv.Missing(t, "pip not installed next to python3")
	}
	return pip
}

// TestOraclePip puts the user's configuration directory outside
// (XDG_CONFIG_HOME), so pip config set shows up as an outside write.
func TestOraclePip(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	pip := realPip(t)
	env := []string{"XDG_CONFIG_HOME=OUTSIDE", "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_NO_INDEX=1"}
	vs := []variant{
		v("config", "set", "global.python", "CANARY"), v("config", "--user", "set", "global.index-url", "http://127.0.0.1:9/"),
		v("config", "--cache", "list", "set", "global.python", "CANARY"),
		v("--cache", "list", "config", "set", "global.python", "CANARY"),
		v("--log", "OUTSIDE/log", "list"), v("list", "--log-file=OUTSIDE/log"), v("list", "--lo", "OUTSIDE/log"),
		v("install", "--dry-run", "--report", "OUTSIDE/r.json", "-r", "a.txt"),
		v("config", "list"), v("config", "debug"), v("config", "get", "global.index-url"), v("list"),
		v("--log", "pip.log", "list"),
	}
	runOracleSetup(t, "pip", pip, checkPip, vs, nil, env...)
}

func TestOracleNpmOutputs(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	path := testenv.Program(t, "npm")
	vs := []variant{
		v("pack", "--pack-destination", "OUTSIDE"), v("pack", "--pack-destination=OUTSIDE"),
		v("run", "t", "--logs-dir=OUTSIDE"), v("run", "t", "--logs-dir", "OUTSIDE"),
		v("pack", "--cache", "OUTSIDE/c"), v("pack", "--prefix", "OUTSIDE"),
		v("pack"), v("run", "t"), v("pack", "--pack-destination", "dist"),
	}
	runOracleSetup(t, "npm", path, checkNpm, vs, func(e *oracleEnv) {
		if err := os.Mkdir(filepath.Join(e.work, "dist"), 0o755); err != nil {
			t.Fatal(err)
		}
	}, "npm_config_offline=true", "npm_config_audit=false", "npm_config_fund=false", "npm_config_update_notifier=false")
}

func TestOracleCargoOutputs(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	path := testenv.Program(t, "cargo")
	env := []string{"CARGO_NET_OFFLINE=true"}
	if home := os.Getenv("RUSTUP_HOME"); home != "" {
		env = append(env, "RUSTUP_HOME="+home)
	} else if h, err := os.UserHomeDir(); err == nil {
		env = append(env, "RUSTUP_HOME="+filepath.Join(h, ".rustup"))
	}
	// Each variant is a build: without testenv.Heavy every second one (an
	// outside target directory and an everyday build).
	vs := testenv.SampleEvery([]variant{
		v("build", "-q", "--target-dir", "OUTSIDE/t"), v("build", "-q", "--target-dir=OUTSIDE/t"),
		v("build", "-q"), v("build", "-q", "--target-dir", "target/alt"),
	}, 2)
	runOracleSetup(t, "cargo", path, checkCargo, vs, func(e *oracleEnv) {
		write(t, filepath.Join(e.work, "Cargo.toml"), "[package]\nname = \"t\"\nversion = \"0.1.0\"\nedition = \"2021\"\n", 0o644)
		if err := os.Mkdir(filepath.Join(e.work, "src"), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(e.work, "src", "main.rs"), "fn main() {}\n", 0o644)
	}, env...)
}
