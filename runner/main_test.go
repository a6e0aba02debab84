package runner

import (
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/plantest"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/proctest"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// TestMain lets the test binary serve as the sandbox launcher and the
// lifetime watchdog, as the server binary does (both re-execute
// os.Executable()), as the programs of the tests' stages (runHelper), and
// as the small server of the lifetime tests (runHarness). With lifetimeEnv set it installs that lifetime mechanism
// before the tests run (see TestLifetimeMechanisms).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case sandbox.LauncherArg:
			os.Exit(sandbox.RunLauncher(os.Args[2:]))
		case lifetime.WatchdogArg:
			os.Exit(lifetime.RunWatchdog(os.Args[2:]))
		case helperArg:
			// syscall.Exit, not os.Exit: under -race, os.Exit sleeps a
			// second (GORACE atexit_sleep_ms) so that late race reports
			// get printed, which would make every helper stage slow.
			syscall.Exit(runHelper(os.Args[2:]))
		}
		runHarnessMode(os.Args[1:])
	}
	lt := setupLifetimeMode()
	code := checkHelpersUsed(m.Run())
	if lt != nil {
		lt.Close()
	}
	proctest.Cleanup()
	os.Exit(code)
}

// exitWithin is how long a test waits for a process that was killed to
// exit (the waits return as soon as it has): far more than a kill takes,
// so that a loaded machine cannot fail the test.
const exitWithin = 10 * time.Second

// grace is the KillGrace of the test specs: short, to keep tests quick.
const grace = 200 * time.Millisecond

// pinned opens dir as a call's working directory, closed with the test.
var pinned = testcases.Pin

// tspec is a Spec as the tests write it: each stage an argv, one
// environment for every stage, the redirections. build makes its plan the
// way the policy would (plantest), confined by the rules of the Spec's
// launcher, with a private temporary directory when the launcher confines
// (released with the test); the policy itself is not used, since the
// tests run harness programs it refuses (sh, sleep).
type tspec struct {
	Spec
	Stages                [][]string
	Dir                   *workdir.Dir
	Env                   []string
	StdinFile, StdoutFile string
	StdoutAppend          bool
}

func (ts tspec) build(t testing.TB) Spec {
	t.Helper()
	tmp := ""
	l := ts.Sandbox
	if l != nil && l.Confined() {
		var err error
		if tmp, err = l.CallDir(); err != nil {
			t.Fatal(err)
		}
	}
	s := ts.withTemp(tmp)
	if tmp != "" {
		release := sync.OnceFunc(func() { l.ReleaseCallDir(tmp) })
		s.Plan.SetTempDir(tmp, func(string) { release() })
		t.Cleanup(release) // unless the test closed the plan first
	}
	return s
}

// withTemp is build with tmp as the call's temporary directory ("": none),
// for the harness processes, which have no testing.TB.
func (ts tspec) withTemp(tmp string) Spec {
	s := ts.Spec
	var confine plantest.Confine
	if l := s.Sandbox; l != nil {
		confine = func(argv []string, fam *argvrules.Family, prog childenv.Resolution, env []string) (plan.Confinement, []string) {
			return l.Stage(sandbox.StageRequest{Argv: argv, Family: fam, Program: prog, Env: env, TempDir: tmp, Subcommands: fam.Subcommands(argv)})
		}
	}
	c := plantest.Call(ts.Dir, confine, ts.Env, ts.Stages...)
	c.StdinFile, c.StdoutFile, c.StdoutAppend, c.TempDir = ts.StdinFile, ts.StdoutFile, ts.StdoutAppend, tmp
	s.Plan = c
	return s
}
