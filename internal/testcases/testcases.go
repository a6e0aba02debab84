// Package testcases loads the team's shared JSON Lines case corpora
// (../shared/cases next to the repository) for tests, and builds the
// redirect fixture those cases assume.
package testcases

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// Case is one corpus row; fields not needed by tests are ignored.
type Case struct {
	ID        string            `json:"id"`
	Argv      []string          `json:"argv"`
	Env       map[string]string `json:"env"`
	HasEnv    bool              `json:"-"`
	Expect    string            `json:"expect"`
	Area      string            `json:"area"`
	Program   string            `json:"program"`
	Vector    string            `json:"vector"`
	Source    string            `json:"source"`
	Note      string            `json:"note"`
	Directory string            `json:"directory"`
	Stdin     string            `json:"stdin"`
	// Function is the GTFOBins function (shell, file-write, ...);
	// Class the weakness a red-team row stands for.
	Function string `json:"function"`
	Class    string `json:"class"`
	// Setup says in words what to create first (gtfobins); SetupArgv
	// are argv arrays to run first in the case's directory (redteam2).
	Setup       Words      `json:"setup"`
	SetupArgv   [][]string `json:"setup_argv"`
	Interactive bool       `json:"interactive"`
}

// Dir returns the shared cases directory, skipping the test when it is
// absent (a checkout without the team's shared folder).
func Dir(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			cases := filepath.Join(d, "..", "shared", "cases")
			if _, err := os.Stat(cases); err != nil {
				t.Skipf("shared cases not found at %s", cases)
			}
			return cases
		}
		if filepath.Dir(d) == d {
			t.Skip("go.mod not found above the test directory")
		}
	}
}

// Load reads one corpus file by base name ("tumf_cases", "benign", ...).
func Load(t testing.TB, name string) []Case {
	t.Helper()
	f, err := os.Open(filepath.Join(Dir(t), name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Case
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var c Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var raw map[string]json.RawMessage
		json.Unmarshal(sc.Bytes(), &raw)
		_, c.HasEnv = raw["env"]
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Words is a list of phrases; the corpora write a single one as a plain
// string.
type Words []string

// UnmarshalJSON accepts a string or an array of strings.
func (w *Words) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*w = Words{one}
		return nil
	}
	return json.Unmarshal(b, (*[]string)(w))
}

// ServerEnv is the server environment a case is judged under: its own env
// for reference cases, otherwise an allowlist of every stage's program
// (the corpora README's rule; gtfobins "env" holds the attacker's child
// environment, not the server's).
func (c Case) ServerEnv() map[string]string {
	if c.HasEnv && c.Env != nil && c.Source != "gtfobins" && c.Source != "variant" && c.Vector != "env" {
		return c.Env
	}
	names := ""
	for _, st := range Stages(c.Argv) {
		for i := 0; i < len(st); i++ {
			a := st[i]
			if a == "<" || a == ">" || a == ">>" {
				i++
				continue
			}
			if a != "" {
				if names != "" {
					names += ","
				}
				names += a
			}
			break
		}
	}
	return map[string]string{"ALLOW_COMMANDS": names}
}

// Stages splits argv on elements that are exactly "|".
func Stages(argv []string) [][]string {
	var out [][]string
	var cur []string
	for _, a := range argv {
		if a == "|" {
			out = append(out, cur)
			cur = nil
			continue
		}
		cur = append(cur, a)
	}
	return append(out, cur)
}

// Fixture builds the redirect fixture of the corpora README in a temp dir:
// files in.txt and sub/in.txt, directory sub/, symlink link_in -> in.txt,
// and symlinks leading outside (link_out, dirlink_out, dangling_out).
func Fixture(t testing.TB) string {
	t.Helper()
	d := t.TempDir()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Mkdir(filepath.Join(d, "sub"), 0o755))
	must(os.WriteFile(filepath.Join(d, "in.txt"), []byte("x\n"), 0o644))
	must(os.WriteFile(filepath.Join(d, "sub", "in.txt"), []byte("x\n"), 0o644))
	must(os.Symlink("in.txt", filepath.Join(d, "link_in")))
	must(os.Symlink("/etc/hostname", filepath.Join(d, "link_out")))
	must(os.Symlink("/etc", filepath.Join(d, "dirlink_out")))
	must(os.Symlink("/nonexistent-outside/x", filepath.Join(d, "dangling_out")))
	resolved, err := filepath.EvalSymlinks(d)
	must(err)
	return resolved
}

// RecognizerStages splits a request argv the way the server does before
// calling a recognizer: a whole "|" element separates stages, and "<",
// ">", ">>" are removed together with their target.
func RecognizerStages(argv []string) [][]string {
	var out [][]string
	cur := []string{}
	for i := 0; i < len(argv); i++ {
		switch argv[i] {
		case "|":
			out = append(out, cur)
			cur = []string{}
		case "<", ">", ">>":
			i++
		default:
			cur = append(cur, argv[i])
		}
	}
	return append(out, cur)
}

// Pin opens dir as a call's working directory (allowed: anywhere), closed
// when the test ends.
func Pin(t testing.TB, dir string) *workdir.Dir {
	t.Helper()
	d, err := workdir.Open(dir, []string{"/"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// BuildServer builds the server from its main package (pkg, a path
// relative to the test's directory) into a new temporary directory, for
// a TestMain: it panics when the build fails, and remove deletes the
// directory.
func BuildServer(pkg string) (bin string, remove func()) {
	dir, err := os.MkdirTemp("", "mcp-shell-server-test-")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "mcp-shell-server")
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		panic("go build: " + err.Error() + "\n" + string(out))
	}
	return bin, func() { os.RemoveAll(dir) }
}
