//go:build darwin || linux

// Runs POSIX programs (sh and coreutils) through the runner: Linux and macOS.

package runner

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// benignFiles is the working directory the benign rows of the leaf
// families expect: a small Go project in a git repository, and the data
// files the sort, awk, find, tar and split rows name.
var benignFiles = map[string]string{
	"README.md": "# demo\n", "go.mod": "module example.com/demo\n\ngo 1.21\n", "go.sum": "",
	"main.go":                   "package main\n\n" + strings.Repeat("// TODO: line\n", 25) + "func main() {}\n",
	"internal/server/server.go": "package server\n",
	"internal/policy/git.go":    "package policy\n",
	"cmd/server/main.go":        "package main\n\nfunc main() {}\n",
	"src/a_test.go":             "package src\n",
	"src/app.js":                "useState()\n",
	"dir/f.txt":                 "f\n",
	"logs/l.log":                "l\n",
	"dist/d.js":                 "d\n",
	"build/b.o":                 "b\n",
	"names.txt":                 "bob\nalice\nbob\n",
	"sizes.txt":                 "10\n2\n33\n",
	"data.txt":                  "a 3\nb 1\nc 2\n",
	"data.csv":                  "x,y,3\nz,w,1\n",
	"du.txt":                    "1K a\n2M b\n3G c\n",
	"words.txt":                 "Banana\napple\n",
	"months.txt":                "Mar\nJan\nFeb\n",
	"big.txt":                   strings.Repeat("line\n", 1000),
	"paths0.txt":                "b\x00a\x00",
	"a.txt":                     "1 a\n2 b\n",
	"b.txt":                     "1 c\n2 d\n",
	"file.txt":                  "one two\nthree\n",
	"list.txt":                  "x\ny\nx\n",
	"access.log":                "GET /\nPOST /x\n",
	"app.log":                   "ERROR one\nok\nWARN two\n",
	"big.csv":                   strings.Repeat("a,b\n", 2500),
	"filelist.txt":              "README.md\nmain.go\n",
	"internal/server/.keep":     "",
	"vendor/v.go":               "package v\n",
	"node_modules/m/index.js":   "\n",
}

// benignEnv makes the git rows deterministic and gives them an identity.
var benignEnv = []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
	"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z"}

// benignTemplate writes benignFiles into a directory, commits them twice
// (so HEAD~1 exists), leaves a modified README.md and a staged go.sum,
// and makes the archives the tar rows read.
func benignTemplate(t *testing.T) string {
	t.Helper()
	dir := realDir(t, t.TempDir())
	for name, body := range benignFiles {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	for _, argv := range [][]string{
		{"git", "init", "-q", "-b", "main"}, {"git", "add", "-A"}, {"git", "commit", "-q", "-m", "first"},
		{"sh", "-c", "echo 'func f() {}' >> main.go && git commit -q -am second"},
		{"sh", "-c", "echo changed >> README.md && echo sum > go.sum && git add go.sum"},
		{"tar", "-cf", "a.tar", "dir"}, {"tar", "-czf", "release.tgz", "dir"},
	} {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir, cmd.Env = dir, append([]string{"PATH=" + rowPath}, benignEnv...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%q: %v %s", argv, err, out)
		}
	}
	return dir
}

// copyTemplate replaces dir with a copy of the template made with cp -a,
// so that paths and file times (and so git's and tar's output) are the
// same in every run.
func copyTemplate(t *testing.T, template, dir string) {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-a", template, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v %s", err, out)
	}
}

// leafFamily reports whether argv[0]'s family does not run programs (the
// families the exec allowlist restricts).
func leafFamily(argv0 string) bool {
	f := argvrules.FamilyOf(path.Base(argv0))
	return f != nil && !f.RunsPrograms
}

// tarRace reports GNU tar's exit status 1 warning for a file that grew
// while it was read: "tar -czf backup.tgz ." archives the archive it is
// writing, so either run may see it, confined or not.
func tarRace(r Result) bool {
	return bytes.Contains(r.Stderr, []byte("file changed as we read it"))
}

// denial is what a program prints when the sandbox refused it something.
func denial(stderr []byte) bool {
	return bytes.Contains(stderr, []byte("Permission denied")) || bytes.Contains(stderr, []byte("Operation not permitted"))
}

// TestBenignLeafFamiliesConfined: every allow row of benign.jsonl (a
// fixed sample without testenv.Heavy) whose program belongs to a family
// the exec allowlist restricts behaves under the default sandbox exactly
// as unconfined (same exit status and stdout, and no denial on stderr),
// in identical copies of one working directory. curl's row fetches from a loopback server instead of
// https://example.com.
func TestBenignLeafFamiliesConfined(t *testing.T) {
	requireLandlock(t)
	tempRoot(t)
	template := benignTemplate(t)
	srv := loopbackHTTP(t)
	cache := t.TempDir()
	var rows []testcases.Case
	for _, c := range testcases.Load(t, "benign") {
		if c.Expect == "allow" && leafFamily(c.Argv[0]) {
			rows = append(rows, c)
		}
	}
	if len(rows) < 80 {
		t.Errorf("only %d benign rows of leaf families; did the corpus or the registry change?", len(rows))
	}
	for _, c := range testenv.Sample(rows) {
		t.Run(c.ID, func(t *testing.T) {
			testenv.Program(t, c.Argv[0])
			argv := make([]string, len(c.Argv))
			for i, a := range c.Argv {
				argv[i] = strings.ReplaceAll(a, "https://example.com", srv)
			}
			work := filepath.Join(realDir(t, t.TempDir()), "w")
			copyTemplate(t, template, work)
			off := runBenign(t, argv, c.Stdin, work, "")
			copyTemplate(t, template, work)
			on := runBenign(t, argv, c.Stdin, work, cache)
			if tarRace(on) || tarRace(off) {
				t.Skipf("tar read its own archive while writing it (a race of the row, not of the sandbox): %q", on.Stderr)
			}
			if fmtExit(on.ExitCode) != fmtExit(off.ExitCode) || !bytes.Equal(on.Stdout, off.Stdout) || denial(on.Stderr) && !denial(off.Stderr) {
				t.Errorf("%q confined: %s stderr %q\nunconfined: %s stderr %q", argv, summary(on), on.Stderr, summary(off), off.Stderr)
			}
		})
	}
	t.Logf("benign rows of leaf families: %d, run confined and unconfined: %d", len(rows), len(testenv.Sample(rows)))
}

// runBenign runs argv in dir, confined (with the sandbox's cache root)
// unless cache is "".
func runBenign(t *testing.T, argv []string, stdin, dir, cache string) Result {
	t.Helper()
	d := pinned(t, dir)
	defer d.Close() // before the next copy replaces dir
	s := tspec{Stages: [][]string{argv}, Dir: d, Env: append([]string{"PATH=" + rowPath}, benignEnv...),
		Spec: Spec{Timeout: 20 * time.Second, OutputLimit: 1 << 20, KillGrace: grace, Stdin: []byte(stdin)}}
	if cache != "" {
		s.Sandbox = proofLauncher(t, dir, cache)
	}
	r, err := Run(t.Context(), s.build(t))
	if err != nil {
		t.Fatalf("Run %q: %v", argv, err)
	}
	return r
}

// loopbackHTTP serves a tiny page on 127.0.0.1 and returns its URL.
func loopbackHTTP(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Date", "Thu, 01 Jan 2026 00:00:00 GMT") // the same in both runs
		w.Write([]byte("ok\n"))
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}
