//go:build darwin || linux

// Launches POSIX programs through the launcher: Linux and macOS (Landlock parts skip off Linux).

package sandbox

import (
	"archive/zip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// buildTimeout bounds one build-runner call: a first go test compiles the
// runtime and the testing package into an empty cache, which takes a
// minute on the loaded 2-core CI machine.
const buildTimeout = 5 * time.Minute

// TestBuildRunnersConfined: the everyday build and test commands of a
// coding agent work under the default configuration (mode auto, network
// by family, caches in the server's cache directory, HOME not writable
// and not even set), with the real toolchains: go build and go test, npm
// test, cargo build, pip install -r requirements.txt. No command here
// touches the network: the projects have no dependencies outside the
// working directory. go vet and go test compile the runtime and the
// testing package into the empty cache, so they run under testenv.Heavy;
// go build and go list of a package without imports run always.
func TestBuildRunnersConfined(t *testing.T) {
	requireLandlock(t)
	cache := t.TempDir()
	rustup, cargoBin := rustupDirs()
	for _, b := range []struct {
		name  string
		tool  string // skipped when missing from path
		path  string
		env   []string
		read  []string // extra read directories (a toolchain outside the system trees)
		setup func(t *testing.T, work string)
		calls [][]string
		want  string // in the last call's stdout
		heavy bool   // compiles the runtime and the testing package into an empty cache: minutes
	}{
		{name: "go", tool: "go", path: "/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin", setup: goModule,
			calls: [][]string{{"go", "build", "./..."}, {"go", "list", "-f", "{{.Name}}", "./..."}}, want: "m"},
		{name: "go test", tool: "go", path: "/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin", setup: goModule, heavy: true,
			calls: [][]string{{"go", "vet", "./..."}, {"go", "test", "./..."}}, want: "ok"},
		{name: "npm", tool: "npm", path: "/usr/local/bin:/usr/bin:/bin", setup: npmPackage,
			calls: [][]string{{"npm", "test"}}, want: "tests ok"},
		{name: "cargo", tool: "cargo", path: cargoBin + ":/usr/local/bin:/usr/bin:/bin", env: []string{"RUSTUP_HOME=" + rustup},
			read: []string{rustup, cargoBin}, setup: cargoCrate,
			calls: [][]string{{"cargo", "build"}, {"./target/debug/hello"}}, want: "hello from cargo"},
		{name: "pip", tool: "/usr/bin/python3", path: "/usr/local/bin:/usr/bin:/bin", env: []string{"PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_NO_INDEX=1"},
			setup: pipProject, calls: [][]string{{"pip", "install", "-r", "requirements.txt"}, {"pip", "show", "hello"}}, want: "Name: hello"},
	} {
		t.Run(b.name, func(t *testing.T) {
			if b.heavy && !testenv.Heavy() {
				t.Skip("compiles the runtime into an empty cache: runs under MCP_SHELL_TEST_HEAVY=1")
			}
			work, tmp := t.TempDir(), t.TempDir()
			path := b.path
			if b.name == "pip" {
				path = filepath.Join(work, ".venv", "bin") + ":" + path // the project's virtual environment
			}
			lookPathIn(t, b.tool, path, work) // skips when missing
			b.setup(t, work)
			l := newLauncher(t, Config{Mode: ModeAuto, WriteDirs: []string{work}, Limits: DefaultLimits(), CacheDir: cache,
				ReadDirs: append(append([]string{}, DefaultReadDirs...), b.read...)})
			env := append([]string{"PATH=" + path, "TMPDIR=" + tmp}, b.env...)
			var o outcome
			for _, argv := range b.calls {
				o = call{l: l, dir: work, env: env, extra: []string{tmp}}.run(t, argv...)
				if o.exit != 0 || o.startErr != nil {
					t.Fatalf("%q under the sandbox: %v", argv, o)
				}
			}
			if !strings.Contains(o.stdout, b.want) {
				t.Errorf("%q printed %q, want %q", b.calls[len(b.calls)-1], o.stdout, b.want)
			}
		})
	}
}

// rustupDirs are where a rustup installation keeps its toolchains and its
// proxies (cargo, rustc): RUSTUP_HOME and CARGO_HOME/bin, by default
// beneath HOME. A confined cargo reads and executes them as read
// directories (MCP_SHELL_SANDBOX_READ_DIRS) and gets RUSTUP_HOME.
func rustupDirs() (rustup, cargoBin string) {
	home, _ := os.UserHomeDir()
	if rustup = os.Getenv("RUSTUP_HOME"); rustup == "" {
		rustup = filepath.Join(home, ".rustup")
	}
	cargoHome := os.Getenv("CARGO_HOME")
	if cargoHome == "" {
		cargoHome = filepath.Join(home, ".cargo")
	}
	return rustup, filepath.Join(cargoHome, "bin")
}

func goModule(t *testing.T, work string) {
	writeFile(t, filepath.Join(work, "go.mod"), "module example.com/m\n\ngo 1.21\n", 0o644)
	writeFile(t, filepath.Join(work, "m.go"), "package m\n\n// Double doubles.\nfunc Double(x int) int { return 2 * x }\n", 0o644)
	writeFile(t, filepath.Join(work, "m_test.go"), "package m\n\nimport \"testing\"\n\nfunc TestDouble(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Fatal(Double(2))\n\t}\n}\n", 0o644)
}

func npmPackage(t *testing.T, work string) {
	writeFile(t, filepath.Join(work, "package.json"), `{"name": "t", "version": "1.0.0", "scripts": {"test": "node test.js"}}`+"\n", 0o644)
	writeFile(t, filepath.Join(work, "test.js"), "require('fs').writeFileSync('out.txt', 'ok'); console.log('tests ok');\n", 0o644)
}

func cargoCrate(t *testing.T, work string) {
	writeFile(t, filepath.Join(work, "Cargo.toml"), "[package]\nname = \"hello\"\nversion = \"0.1.0\"\nedition = \"2021\"\n", 0o644)
	if err := os.Mkdir(filepath.Join(work, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(work, "src", "main.rs"), "fn main() { println!(\"hello from cargo\"); }\n", 0o644)
}

// pipProject is a virtual environment in the working directory (the only
// place a confined pip can install into) of the system's python3 (beneath
// the read directories), and a requirements file naming a local wheel, so
// that nothing is fetched.
func pipProject(t *testing.T, work string) {
	if out, err := exec.Command("/usr/bin/python3", "-m", "venv", filepath.Join(work, ".venv")).CombinedOutput(); err != nil {
		testenv.Missing(t, fmt.Sprintf("python3 -m venv (Debian: python3-venv): %v %s", err, out))
	}
	whl := filepath.Join(work, "hello-0.1-py3-none-any.whl")
	writeWheel(t, whl, map[string]string{
		"hello/__init__.py":                 "GREETING = 'hello'\n",
		"hello-0.1.dist-info/METADATA":      "Metadata-Version: 2.1\nName: hello\nVersion: 0.1\n",
		"hello-0.1.dist-info/WHEEL":         "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
		"hello-0.1.dist-info/top_level.txt": "hello\n",
		"hello-0.1.dist-info/RECORD":        "",
	})
	writeFile(t, filepath.Join(work, "requirements.txt"), "./"+filepath.Base(whl)+"\n", 0o644)
}

func writeWheel(t *testing.T, name string, files map[string]string) {
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for n, body := range files {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}
