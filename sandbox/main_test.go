//go:build darwin || linux

// Launches POSIX programs through the launcher: Linux and macOS (Landlock parts skip off Linux).

package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// TestMain lets the test binary serve as the launcher, as the server
// binary does: Launcher.Command re-executes os.Executable().
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == LauncherArg {
		os.Exit(RunLauncher(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// testPath is the PATH of every launched target.
const testPath = "PATH=/usr/local/bin:/usr/bin:/bin"

// callTimeout bounds every launched program; the tests' programs finish
// in milliseconds.
const callTimeout = buildTimeout

// requireLandlock skips when the kernel cannot enforce the full ruleset,
// or fails when MCP_SHELL_REQUIRE_LANDLOCK is set (CI: the proofs must
// run).
func requireLandlock(t testing.TB) {
	t.Helper()
	if abi, err := KernelABI(); err != nil || abi < ABINetwork {
		if os.Getenv("MCP_SHELL_REQUIRE_LANDLOCK") != "" {
			t.Fatalf("Landlock ABI >= %d not available (ABI %d, %v) and MCP_SHELL_REQUIRE_LANDLOCK is set", ABINetwork, abi, err)
		}
		t.Skipf("Landlock ABI >= %d not available (ABI %d, %v)", ABINetwork, abi, err)
	}
}

// lookPath resolves name in testPath, as the runner resolves with the
// child PATH, and skips the test when it is missing.
func lookPath(t testing.TB, name string) string {
	t.Helper()
	return lookPathIn(t, name, strings.TrimPrefix(testPath, "PATH="), "/")
}

// lookPathIn resolves name in pathList, or against dir when it has a
// slash, and skips the test when it is missing.
func lookPathIn(t testing.TB, name, pathList, dir string) string {
	t.Helper()
	switch {
	case filepath.IsAbs(name):
		return name
	case strings.Contains(name, "/"):
		return filepath.Join(dir, name)
	}
	for _, dir := range filepath.SplitList(pathList) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	testenv.Missing(t, name+" not installed")
	return ""
}

func requirePrograms(t testing.TB, names ...string) {
	t.Helper()
	for _, n := range names {
		lookPath(t, n)
	}
}

// methods are the two ways a Launcher starts stages: from a restricted
// thread of the server, or through the re-executed launcher (where
// ptrace is unavailable).
var methods = []struct {
	name   string
	reexec bool
}{{"thread", false}, {"reexec", true}}

// newLauncherMethod is newLauncher with the start method fixed.
func newLauncherMethod(t testing.TB, cfg Config, reexec bool) *Launcher {
	t.Helper()
	l := newLauncher(t, cfg)
	l.setMethod(reexec)
	return l
}

// shAny lets sh, the tests' harness, execute like a family that runs
// programs (what MCP_SHELL_SANDBOX_EXEC=sh=* does).
var shAny = map[string][]string{"sh": {ExecAny}}

// newLauncher is NewLauncher, closed with the test, with the caches in
// the test's temporary directory unless cfg names them.
func newLauncher(t testing.TB, cfg Config) *Launcher {
	t.Helper()
	if cfg.CacheDir == "" {
		cfg.CacheDir = t.TempDir()
	}
	l, err := NewLauncher(cfg)
	if err != nil {
		t.Fatalf("NewLauncher: %v", err)
	}
	t.Cleanup(l.Close)
	return l
}

// call is one launch of a target through a Launcher.
type call struct {
	l     *Launcher
	dir   string
	env   []string // nil means {testPath}
	stdin string
	extra []string // extra writable trees
	temp  string   // the call's private temporary directory ("": none)
	cred  *syscall.Credential
	// out, when set, receives stdout and stderr as files (for targets
	// that leave background processes holding the streams).
	out string
}

// stageOf is argv's plan stage as the policy builds it: argv[0] resolved
// with env's PATH (against dir when relative; the test is skipped when it
// is missing), its family selected, env with the rules' entries, and the
// extra trees writable (as a call's temporary directory is). A file the
// resolution refuses (not executable) is taken as it is, for the tests of
// the launcher's own failures. The test cannot use the policy itself,
// which imports this package.
func stageOf(t testing.TB, r *Rules, dir string, env, extra []string, argv ...string) *plan.Stage {
	t.Helper()
	return stageIn(t, r, dir, "", env, extra, argv...)
}

// stageIn is stageOf for a call whose private temporary directory is
// tempDir (writable, and where the rules write the stage's configuration
// copies).
func stageIn(t testing.TB, r *Rules, dir, tempDir string, env, extra []string, argv ...string) *plan.Stage {
	t.Helper()
	pathList, _ := childenv.Lookup(env, "PATH")
	path := lookPathIn(t, argv[0], pathList, dir) // skips a missing program
	res, err := childenv.Resolve(argv[0], pathList, dir)
	if err != nil { // a file that cannot start: the launcher must say why
		res = childenv.Resolution{Found: path, Real: path}
	}
	sel := argvrules.Select(argv[0], argvrules.Program{Path: res.Found, Links: res.Links})
	conf, add := r.Stage(StageRequest{Argv: argv, Family: sel.Family, Program: res, Env: env, TempDir: tempDir, Subcommands: sel.Family.Subcommands(argv)})
	if conf.Mode == ModeLandlock {
		conf.Write = append(conf.Write, extra...)
	}
	st := &plan.Stage{Argv: argv, Program: plan.Program{Resolution: res}, Env: env, Confinement: conf}
	if len(add) > 0 {
		st.Env = childenv.Overlay(env, add)
	}
	if sel.Family != nil {
		st.Family = sel.Family.Name
	}
	return st
}

// outcome is how a launched target ended.
type outcome struct {
	stdout, stderr string
	exit           int // -1 when signalled
	signal         syscall.Signal
	startErr       error // the launcher's refusal
}

func (o outcome) String() string {
	return fmt.Sprintf("exit=%d signal=%v stdout=%.300q stderr=%.300q start=%v", o.exit, o.signal, o.stdout, o.stderr, o.startErr)
}

// run launches argv (argv[0] resolved with testPath like the runner does)
// and waits for it; the process group is killed afterwards.
func (c call) run(t testing.TB, argv ...string) outcome {
	t.Helper()
	env := c.env
	if env == nil {
		env = []string{testPath}
	}
	st := stageIn(t, c.l.Rules, c.dir, c.temp, env, c.extra, argv...)
	io := newStreams(t, c.stdin, c.out)
	attr := &os.ProcAttr{Dir: c.dir, Env: st.Env, Files: io.child[:], Sys: &syscall.SysProcAttr{Setpgid: true, Credential: c.cred}}
	p, err := c.l.Start(st, attr)
	io.closeChild()
	if err != nil {
		io.wait()
		return outcome{startErr: err, exit: -2}
	}
	defer syscall.Kill(-p.Pid, syscall.SIGKILL)
	timer := time.AfterFunc(callTimeout, func() { syscall.Kill(-p.Pid, syscall.SIGKILL) })
	ps, err := p.Wait()
	timer.Stop()
	if err != nil {
		t.Fatalf("waiting for the target: %v", err)
	}
	syscall.Kill(-p.Pid, syscall.SIGKILL) // background processes holding the pipes
	o := outcome{exit: ps.ExitCode()}
	if ws := ps.Sys().(syscall.WaitStatus); ws.Signaled() {
		o.exit, o.signal = -1, ws.Signal()
	}
	o.stdout, o.stderr = io.wait()
	return o
}

// streams are a target's stdin, stdout and stderr: pipes read and written
// by the test, or files beneath out.
type streams struct {
	t      testing.TB
	child  [3]*os.File
	done   chan struct{}
	stdout bytes.Buffer
	stderr bytes.Buffer
	out    string
}

func newStreams(t testing.TB, stdin, out string) *streams {
	t.Helper()
	s := &streams{t: t, done: make(chan struct{}), out: out}
	inR, inW := pipe(t)
	s.child[0] = inR
	go func() { inW.WriteString(stdin); inW.Close() }()
	if out != "" {
		s.child[1], s.child[2] = create(t, filepath.Join(out, "stdout")), create(t, filepath.Join(out, "stderr"))
		close(s.done)
		return s
	}
	outR, outW := pipe(t)
	errR, errW := pipe(t)
	s.child[1], s.child[2] = outW, errW
	var readers sync.WaitGroup
	readers.Go(func() { s.stdout.ReadFrom(outR) })
	readers.Go(func() { s.stderr.ReadFrom(errR) })
	go func() {
		readers.Wait()
		close(s.done)
	}()
	return s
}

func (s *streams) closeChild() {
	for _, f := range s.child {
		f.Close()
	}
}

// wait returns what the target wrote, once its streams closed.
func (s *streams) wait() (string, string) {
	<-s.done
	if s.out != "" {
		return readFile(s.t, filepath.Join(s.out, "stdout")), readFile(s.t, filepath.Join(s.out, "stderr"))
	}
	return s.stdout.String(), s.stderr.String()
}

func pipe(t testing.TB) (*os.File, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

func create(t testing.TB, name string) *os.File {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func readFile(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t testing.TB, name, data string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(name, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

// exists reports whether name exists (without following a last symlink).
func exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}

// setMethod fixes how stages start (tests of both methods).
func (l *Launcher) setMethod(reexec bool) {
	<-l.decideMethod() // the check's own answer must not come after this one
	l.reexec.Store(reexec)
}
