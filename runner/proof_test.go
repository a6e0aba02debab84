//go:build darwin || linux

// Runs POSIX programs (sh and coreutils) through the runner: Linux and macOS.

package runner

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// The sandbox proofs. The rows go straight to Run, which never
// consults the policy: the argument recognizers are switched off. Under
// the default sandbox (mode auto, network by family) every attack row of
// redteam2.jsonl and gtfobins.jsonl whose harm is running another program
// from a family that does not run programs must fail at run time, and so
// must the rows that write outside the working directory or connect out;
// every benign row of those families must still work.

// Harms a row demonstrated.
const (
	harmExec  = "exec"    // runs a program its family does not need
	harmWrite = "write"   // writes outside the allowed directories
	harmNet   = "network" // opens a connection
)

// redteamHarm is what each red-team row did when it was proven (its
// note); rows not listed are out of scope (none today).
var redteamHarm = map[string]string{
	"rt2-awk-01": harmExec, "rt2-awk-05": harmNet, "rt2-redirect-01": harmExec, "rt2-curl-01": harmWrite,
	"rt2-go-01": harmWrite, "rt2-cargo-01": harmWrite, "rt2-cargo-04": harmWrite, "rt2-refused-01": harmExec,
	"rt2-refused-03": harmExec, "rt2-git-01": harmWrite, "rt2-npm-02": harmWrite, "rt2-pip-01": harmWrite,
	"rt2-awk-09": harmWrite, "rt3-argv0-01": harmExec, "rt3-argv0-04": harmExec, "rt3-argv0-05": harmExec,
	"rt3-argv0-10": harmExec, "rt3-argv0-11": harmExec, "rt3-pipeline-01": harmExec, "rt3-pattern-01": harmExec,
	"rt3-redirect-02": harmExec, "rt3-childenv-03": harmExec,
}

// gtfobinsHarm maps a GTFOBins function to the harm it stands for: the
// functions that run another program (tar's upload and download run the
// rsh program). Reverse shells need a listener on port 9; the network
// rules are proven in package sandbox.
func gtfobinsHarm(c testcases.Case) string {
	switch c.Function {
	case "shell", "command", "inherit":
		return harmExec
	case "upload", "download":
		if path.Base(c.Argv[0]) == "tar" {
			return harmExec
		}
	}
	return ""
}

// followUp is the call that turns a row's write into its harm, as its
// note proved it (the row itself only writes inside the directory).
var followUp = map[string][]string{
	"rt2-redirect-01": {"git", "--git-dir=evil", "fetch", "origin"},
	"rt3-redirect-02": {"git", "diff", "--no-index", "a", "b"},
}

// knownGaps are rows the kernel layer cannot stop, each with the reason
// (docs/sandbox.md, "What it does not contain"). They are run and
// logged; they do not fail the proof.
var knownGaps = map[string]string{
	"gtfo-busybox-shell-v1":  "busybox runs its sh and touch applets from its own binary: no other file is executed",
	"gtfo-busybox-inherit-1": "busybox ash is busybox's own binary",
	"gtfo-busybox-shell-v3":  "busybox find runs the touch applet from its own binary",
}

// rowPath is the children's PATH in the proofs, with rustup's proxies
// (the red-team rows ran cargo through rustup).
var rowPath = "/usr/local/bin:/usr/bin:/bin:/usr/local/go/bin:" + cargoBin

// rustup and cargoBin are where rustup keeps its toolchains and proxies;
// a confined cargo reads them as read directories.
var rustup, cargoBin = func() (string, string) {
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".rustup"), filepath.Join(home, ".cargo", "bin")
}()

// proofRow is one row in scope.
type proofRow struct {
	testcases.Case
	harm, group string
}

// proofRows selects the rows in scope: exec harm from a leaf family or
// an unknown program (a leaf by default), write or network harm from any.
func proofRows(t *testing.T) []proofRow {
	var rows []proofRow
	for _, name := range []string{"redteam2", "gtfobins"} {
		for _, c := range testcases.Load(t, name) {
			if c.Expect != "reject" {
				continue
			}
			harm := redteamHarm[c.ID]
			if name == "gtfobins" {
				harm = gtfobinsHarm(c)
			}
			if harm == "" {
				continue
			}
			group := rowGroup(c)
			if group == "runner" && harm == harmExec {
				continue // running programs is a runner's job
			}
			rows = append(rows, proofRow{Case: c, harm: harm, group: group})
		}
	}
	return rows
}

// rowGroup is leaf, runner or unknown for the program that does the harm.
func rowGroup(c testcases.Case) string {
	argv := c.Argv
	if f, ok := followUp[c.ID]; ok {
		argv = f
	} else {
		st := testcases.Stages(argv)
		argv = st[len(st)-1]
	}
	switch f := argvrules.FamilyOf(path.Base(argv[0])); {
	case f == nil:
		return "unknown"
	case f.RunsPrograms:
		return "runner"
	}
	return "leaf"
}

// proofFixture is one run's directories: the working directory (the only
// allowed one) and an outside directory standing for /tmp/elsewhere,
// /tmp/outside and the like; plus a loopback listener standing for the
// rows' network peers.
type proofFixture struct {
	work, outside string
	ln            net.Listener
	accepted      atomic.Int32
	before        map[string]bool // what setup left outside
	cache         string          // the sandbox's cache root
}

func newProofFixture(t *testing.T, cache string) *proofFixture {
	t.Helper()
	f := &proofFixture{work: realDir(t, t.TempDir()), outside: realDir(t, t.TempDir()), cache: cache}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.ln = ln
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			f.accepted.Add(1)
			conn.Write([]byte("HTTP/1.0 200 OK\r\n\r\n"))
			conn.Close()
		}
	}()
	return f
}

func realDir(t *testing.T, dir string) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// rewrite maps the rows' stand-in paths and ports onto the fixture. For
// exec rows the markers (PWNED...) land in the working directory, so a
// program that runs is seen even though it could not write outside.
func (f *proofFixture) rewrite(r proofRow, s string) string {
	port := strconv.Itoa(f.ln.Addr().(*net.TCPAddr).Port)
	pairs := []string{"/tmp/elsewhere/g1", f.work, "/tmp/elsewhere/c2/", f.work + "/", "127.0.0.1/19999", "127.0.0.1/" + port, "$WORKDIR", f.work}
	if r.harm == harmExec {
		pairs = append(pairs, "/tmp/elsewhere/PWNED", f.work+"/PWNED", "/tmp/PWNED", f.work+"/PWNED")
	}
	pairs = append(pairs, "/tmp/elsewhere/", f.outside+"/", "/tmp/outside/", f.outside+"/", "/tmp/PWNED", f.outside+"/PWNED")
	for i := 0; i < len(pairs); i += 2 { // awk strings spell / as \057 (rt2-awk-01)
		if strings.HasPrefix(pairs[i], "/") {
			pairs = append(pairs, octalSlashes(pairs[i]), octalSlashes(pairs[i+1]))
		}
	}
	return fixIRLengths(strings.NewReplacer(pairs...).Replace(s))
}

func octalSlashes(s string) string { return strings.ReplaceAll(s, "/", `\057`) }

// irString matches an LLVM IR string constant and its declared length,
// which must follow a rewritten path (rt3-argv0-11, rt3-pipeline-01).
var irString = regexp.MustCompile(`\[\d+ x i8\]( c"([^"]*)\\00")`)

func fixIRLengths(s string) string {
	m := irString.FindStringSubmatch(s)
	if m == nil {
		return s
	}
	old := m[0][:strings.Index(m[0], "]")+1]
	n := fmt.Sprintf("[%d x i8]", len(m[2])+1)
	return strings.ReplaceAll(s, old, n)
}

func (f *proofFixture) rewriteAll(r proofRow, argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = f.rewrite(r, a)
	}
	return out
}

// canary is the stdin of rows without their own: a shell that reads it
// runs touch (another program) and an echo (a builtin).
func (f *proofFixture) canary() string {
	return "touch " + f.work + "/PWNED-stdin\necho ran > " + f.work + "/SHELL-RAN\n"
}

// setupWords are the gtfobins setups, in the corpus's words.
func (f *proofFixture) setupWords(words string) error {
	script := "#!/bin/sh\n" + f.canary()
	switch words {
	case "ln -s /bin/sh git-x":
		return os.Symlink("/bin/sh", filepath.Join(f.work, "git-x"))
	case "write payload.txt holding a shell command line":
		return f.write("payload.txt", f.canary(), 0o644)
	case "tar cf payload.tar payload.txt":
		return f.unconfined("tar", "cf", "payload.tar", "payload.txt")
	case "write executable payload.sh", "write executable payload.sh that execs /bin/sh":
		return f.write("payload.sh", script, 0o755)
	case "create big.bin (about 200 KiB)":
		return f.write("big.bin", strings.Repeat("0123456789abcdef", 200<<10/16), 0o644)
	case "write payload.awk containing a system() call":
		return f.write("payload.awk", `BEGIN { system("touch `+f.work+`/PWNED-awk") }`+"\n", 0o644)
	case "write payload.sed containing '1e touch /tmp/PWNED'":
		return f.write("payload.sed", "1e touch "+f.work+"/PWNED\n", 0o644)
	case "write payload.vim with '!touch /tmp/PWNED'":
		return f.write("payload.vim", "!touch "+f.work+"/PWNED\nqa!\n", 0o644)
	case "payload.conf: Match exec \"touch /tmp/PWNED\"":
		return f.write("payload.conf", "Match exec \"touch "+f.work+"/PWNED\"\n", 0o644)
	}
	return fmt.Errorf("setup %q not understood", words)
}

func (f *proofFixture) write(name, data string, mode os.FileMode) error {
	if err := os.WriteFile(filepath.Join(f.work, name), []byte(data), mode); err != nil {
		return err
	}
	return os.Chmod(filepath.Join(f.work, name), mode)
}

// unconfined runs a setup argv in the working directory without the
// sandbox.
func (f *proofFixture) unconfined(argv ...string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = f.work, []string{"PATH=" + rowPath}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("setup %q: %v: %s", argv, err, out)
	}
	return nil
}

// setup prepares the row's directory.
func (f *proofFixture) setup(r proofRow) error {
	for _, w := range r.Setup {
		if err := f.setupWords(w); err != nil {
			return err
		}
	}
	for _, argv := range r.SetupArgv {
		if err := f.unconfined(f.rewriteAll(r, argv)...); err != nil {
			return err
		}
	}
	var err error
	switch r.ID {
	case "rt2-git-01":
		err = f.gitRepo()
	case "rt2-go-01":
		err = os.Mkdir(filepath.Join(f.outside, "gdir"), 0o755)
	case "rt2-curl-01":
		err = f.write("src.txt", "DATA\n", 0o644)
	case "rt2-pip-01":
		err = os.MkdirAll(filepath.Join(f.outside, "piphome"), 0o755)
	case "rt2-cargo-01":
		err = f.crate("cr")
	case "rt2-cargo-04":
		err = f.fakeToolchain()
	}
	f.before = f.outsideFiles()
	return err
}

// outsideFiles lists everything beneath the outside directory.
func (f *proofFixture) outsideFiles() map[string]bool {
	m := map[string]bool{}
	filepath.WalkDir(f.outside, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != f.outside {
			m[p] = true
		}
		return nil
	})
	return m
}

// crate writes a dependency-free binary crate into dir.
func (f *proofFixture) crate(dir string) error {
	if err := os.MkdirAll(filepath.Join(f.work, dir, "src"), 0o755); err != nil {
		return err
	}
	if err := f.write(dir+"/Cargo.toml", "[package]\nname = \"cr\"\nversion = \"0.1.0\"\nedition = \"2021\"\n", 0o644); err != nil {
		return err
	}
	return f.write(dir+"/src/main.rs", "fn main() {}\n", 0o644)
}

// fakeToolchain is rt2-cargo-04's toolchain in the working directory
// (tc/bin/cargo and rustc, which write a marker outside) and a crate.
func (f *proofFixture) fakeToolchain() error {
	if err := os.MkdirAll(filepath.Join(f.work, "tc", "bin"), 0o755); err != nil {
		return err
	}
	script := "#!/bin/sh\ntouch " + f.outside + "/PWNED-cargo-tc-chain\n"
	for _, name := range []string{"cargo", "rustc"} {
		if err := f.write("tc/bin/"+name, script, 0o755); err != nil {
			return err
		}
	}
	return f.crate(".")
}

// gitRepo makes the working directory a repository with one commit.
func (f *proofFixture) gitRepo() error {
	for _, argv := range [][]string{
		{"git", "init", "-q", "-b", "main"},
		{"git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "x"},
	} {
		if err := f.unconfined(argv...); err != nil {
			return err
		}
	}
	return nil
}

// spec builds the run of argv (pipelines and redirections as the server
// passes them) in the fixture, with the row's child environment.
func (f *proofFixture) spec(t *testing.T, r proofRow, argv []string, l *sandbox.Launcher) Spec {
	s := tspec{Dir: pinned(t, f.work), Spec: Spec{Timeout: rowTimeout(r), OutputLimit: 1 << 20, KillGrace: grace, Sandbox: l}}
	stages := testcases.Stages(argv)
	last := stages[len(stages)-1]
	if n := len(last); n >= 2 && (last[n-2] == ">" || last[n-2] == ">>") {
		s.StdoutFile, s.StdoutAppend, last = last[n-1], last[n-2] == ">>", last[:n-2]
		stages[len(stages)-1] = last
	}
	s.Stages = stages
	s.Env = []string{"PATH=" + rowPath, "RUSTUP_HOME=" + rustup}
	for k, v := range r.Env {
		if k == "HOME" || !strings.HasPrefix(k, "MCP_SHELL_") && !strings.HasPrefix(k, "ALLOW") {
			s.Env = append(s.Env, k+"="+f.rewrite(r, v))
		}
	}
	switch r.ID {
	case "rt3-childenv-03":
		s.Env[0] = "PATH=" + f.work + ":" + rowPath // the call's delegated PATH
	case "rt2-pip-01":
		s.Env = append(s.Env, "HOME="+f.outside+"/piphome") // delegated, as the note says
	}
	if l == nil {
		// Unconfined, the server gives no cache directories; these are the
		// ones the sandbox would (Config.CacheDir), so both runs share them.
		s.Env = append(s.Env, "GOCACHE="+f.cache+"/go-build", "GOMODCACHE="+f.cache+"/go-mod", "GOPATH="+f.cache+"/go-path")
	}
	s.Stdin = []byte(f.canary())
	if r.Stdin != "" {
		s.Stdin = []byte(f.rewrite(r, r.Stdin))
	}
	return s.build(t)
}

// rowTimeout bounds a row's run: rt2-go-01 builds cmd/gofmt into an empty
// cache first, a minute or more on the loaded 2-core CI machine; every
// other row ends within a second or is killed by design.
func rowTimeout(r proofRow) time.Duration {
	if r.ID == "rt2-go-01" {
		return 5 * time.Minute
	}
	return 10 * time.Second
}

// run runs the row (and its follow-up) and reports the harm it did.
func (f *proofFixture) run(t *testing.T, r proofRow, l *sandbox.Launcher) (harm string, res Result) {
	for _, argv := range [][]string{r.Argv, followUp[r.ID]} {
		if argv == nil {
			continue
		}
		res, _ = Run(t.Context(), f.spec(t, r, f.rewriteAll(r, argv), l))
	}
	return f.harm(), res
}

// harm says what the run left behind: markers of a program that ran, a
// new file outside, a connection.
func (f *proofFixture) harm() string {
	var found []string
	filepath.WalkDir(f.work, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), "PWNED") {
			found = append(found, p)
		}
		return nil
	})
	for p := range f.outsideFiles() {
		if !f.before[p] {
			found = append(found, p)
		}
	}
	if n := f.accepted.Load(); n > 0 {
		found = append(found, fmt.Sprintf("%d connections", n))
	}
	return strings.Join(found, ", ")
}

// shellRan reports whether a shell read the canary (its builtin ran).
func (f *proofFixture) shellRan() bool {
	_, err := os.Stat(filepath.Join(f.work, "SHELL-RAN"))
	return err == nil
}

// needsTerminal are rows whose harm needs a terminal the test does not
// have (a pager's or editor's ! command).
func needsTerminal(r proofRow) bool {
	return r.Vector == "tty" || r.Interactive
}

// TestProofRecognizerOff runs every row in scope (a fixed sample without
// testenv.Heavy) twice: unconfined, to
// show it does harm here, then under the default sandbox, where it must
// not. Rows whose program is missing, which need a terminal, or which do
// no harm even unconfined are counted apart.
func TestProofRecognizerOff(t *testing.T) {
	requireLandlock(t)
	tempRoot(t)
	cache := t.TempDir()
	all := proofRows(t)
	if len(all) < 60 {
		t.Fatalf("only %d rows in scope; did the corpora change?", len(all))
	}
	rows := testenv.Sample(all)
	counts := map[string]int{}
	var report []string
	for _, r := range rows {
		t.Run(r.ID, func(t *testing.T) {
			outcome := proveRow(t, r, cache)
			counts[r.group+" "+outcome]++
			report = append(report, fmt.Sprintf("%-28s %-7s %-7s %s", r.ID, r.group, r.harm, outcome))
		})
	}
	t.Logf("rows in scope: %d, run: %d\n%s", len(all), len(rows), strings.Join(report, "\n"))
	t.Logf("outcomes by group: %v", counts)
	if demo := counts["leaf contained"] + counts["unknown contained"] + counts["runner contained"]; demo < testenv.Scaled(40) {
		t.Errorf("only %d rows did harm unconfined and were contained (want %d); the proof shows too little", demo, testenv.Scaled(40))
	}
}

// proveRow returns the row's outcome: contained (harm unconfined, none
// confined), "contained, sh ran (in the family's set)", "no harm
// unconfined", "missing program", "needs a terminal", or a failure.
func proveRow(t *testing.T, r proofRow, cache string) string {
	stages := testcases.Stages(r.Argv)
	for _, st := range append(stages, followUp[r.ID]) {
		if st != nil && !strings.Contains(st[0], "/") {
			if _, ok := testenv.Have(t, st[0]); !ok {
				return "missing program " + st[0]
			}
		}
	}
	if needsTerminal(r) && r.ID != "gtfo-git-shell-1" {
		return "needs a terminal"
	}
	off := newProofFixture(t, cache)
	if err := off.setup(r); err != nil {
		t.Fatal(err)
	}
	if harm, res := off.run(t, r, nil); harm == "" {
		t.Logf("unconfined: no harm (%s; stderr %.200q)", summary(res), res.Stderr)
		return "no harm unconfined"
	}
	on := newProofFixture(t, cache)
	if err := on.setup(r); err != nil {
		t.Fatal(err)
	}
	harm, res := on.run(t, r, proofLauncher(t, on.work, cache))
	switch {
	case (harm != "" || on.shellRan()) && knownGaps[r.ID] != "":
		t.Logf("known gap (%s): %s", knownGaps[r.ID], harm)
		return "known gap"
	case harm != "":
		t.Errorf("under the default sandbox the row still did harm: %s (%s; stderr %.300q)", harm, summary(res), res.Stderr)
		return "NOT CONTAINED"
	case on.shellRan():
		if f := argvrules.FamilyOf(path.Base(r.Argv[0])); f == nil || !slices.Contains(f.Exec, "sh") {
			t.Errorf("a shell ran, which this program's family does not execute")
			return "NOT CONTAINED (shell ran)"
		}
		return "contained, sh ran (in the family's set)"
	}
	return "contained"
}

// proofLauncher is the default configuration with work as the allowed
// directory (and, for cargo through rustup, its toolchains readable).
func proofLauncher(t *testing.T, work, cache string) *sandbox.Launcher {
	t.Helper()
	cfg := sandbox.Config{Mode: sandbox.ModeAuto, Network: sandbox.NetworkFamily, WriteDirs: []string{work}, Limits: sandbox.DefaultLimits(), CacheDir: cache,
		ReadDirs: append(append([]string{}, sandbox.DefaultReadDirs...), rustup, cargoBin)}
	l, err := sandbox.NewLauncher(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	if !l.Confined() {
		t.Fatalf("mode auto did not confine (%s)", l.Fallback())
	}
	return l
}
