package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
const callTimeout = 20 * time.Second

// requireLandlock skips when the kernel cannot enforce the full ruleset.
func requireLandlock(t testing.TB) {
	t.Helper()
	if abi, err := KernelABI(); err != nil || abi < ABINetwork {
		t.Skipf("Landlock ABI >= %d not available (ABI %d, %v)", ABINetwork, abi, err)
	}
}

// lookPath resolves name in testPath, as the runner resolves with the
// child PATH, and skips the test when it is missing.
func lookPath(t testing.TB, name string) string {
	t.Helper()
	if strings.Contains(name, "/") {
		return name
	}
	for _, dir := range filepath.SplitList(strings.TrimPrefix(testPath, "PATH=")) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	t.Skipf("%s not installed", name)
	return ""
}

func requirePrograms(t testing.TB, names ...string) {
	t.Helper()
	for _, n := range names {
		lookPath(t, n)
	}
}

func newLauncher(t testing.TB, cfg Config) *Launcher {
	t.Helper()
	l, err := NewLauncher(cfg)
	if err != nil {
		t.Fatalf("NewLauncher: %v", err)
	}
	return l
}

// call is one launch of a target through a Launcher.
type call struct {
	l     *Launcher
	dir   string
	env   []string // nil means {testPath}
	stdin string
	extra []string // extra writable trees
	cred  *syscall.Credential
	// out, when set, receives stdout and stderr as files (for targets
	// that leave background processes holding the streams).
	out string
}

// outcome is how a launched target ended.
type outcome struct {
	stdout, stderr string
	exit           int // -1 when signalled
	signal         syscall.Signal
	startErr       error // the launcher's status report
}

func (o outcome) String() string {
	return fmt.Sprintf("exit=%d signal=%v stdout=%.300q stderr=%.300q", o.exit, o.signal, o.stdout, o.stderr)
}

// run launches argv (argv[0] resolved with testPath like the runner does)
// and waits for it; the process group is killed afterwards.
func (c call) run(t testing.TB, argv ...string) outcome {
	t.Helper()
	path := lookPath(t, argv[0])
	exe, args := c.l.Command(path, argv, c.extra...)
	env := c.env
	if env == nil {
		env = []string{testPath}
	}
	statusR, statusW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer statusR.Close()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe)
	cmd.Args, cmd.Env, cmd.Dir = args, env, c.dir
	cmd.Stdin = strings.NewReader(c.stdin)
	cmd.ExtraFiles = []*os.File{statusW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: c.cred}
	var stdout, stderr bytes.Buffer
	var outF, errF *os.File
	if c.out != "" {
		outF, errF = create(t, filepath.Join(c.out, "stdout")), create(t, filepath.Join(c.out, "stderr"))
		cmd.Stdout, cmd.Stderr = outF, errF
	} else {
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
	}
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the launcher: %v", err)
	}
	statusW.Close()
	defer syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	o := outcome{startErr: ReadStatus(statusR)}
	err = cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("waiting for the launcher: %v", err)
	}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	o.exit = ws.ExitStatus()
	if ws.Signaled() {
		o.exit, o.signal = -1, ws.Signal()
	}
	if c.out != "" {
		outF.Close()
		errF.Close()
		o.stdout, o.stderr = readFile(t, outF.Name()), readFile(t, errF.Name())
	} else {
		o.stdout, o.stderr = stdout.String(), stderr.String()
	}
	return o
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
