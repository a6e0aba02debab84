//go:build linux

// The runner under each Linux lifetime mechanism (cgroup, subreaper): Linux only.

package runner

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/proctest"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// lifetimeEnv, in a child test process, names the lifetime mechanism
// TestMain installs before the tests run.
const lifetimeEnv = "RUNNER_TEST_LIFETIME"

// skipMarker is what a child test process prints when the mechanism it
// was asked for is not available here; the parent then skips.
const skipMarker = "LIFETIME-UNAVAILABLE:"

// harnessArg is os.Args[1] of the test binary acting as a small server.
const harnessArg = "__runner-test-harness"

// underEveryMechanism are the tests TestLifetimeMechanisms re-runs under
// each mechanism: the descendant scenarios and the runner's contract.
var underEveryMechanism = []string{
	"TestDescendants", "TestRun", "TestTimeoutKillsTree", "TestBackgroundGrandchildAfterExit",
	"TestCancel", "TestNoLeaks", "TestRunSandboxed", "TestSandboxNoLeaks",
}

// TestLifetimeMechanisms re-runs underEveryMechanism in a child test
// process under each lifetime mechanism; the parent process itself runs
// them in Session mode (no Setup), where TestDescendants checks that the
// escapes it guards against are real. A mechanism this machine cannot
// offer (no writable cgroup2 for cgroup) is skipped with the reason.
func TestLifetimeMechanisms(t *testing.T) {
	if os.Getenv(lifetimeEnv) != "" {
		t.Skip("already running under a mechanism")
	}
	for _, mode := range []lifetime.Mechanism{lifetime.Cgroup, lifetime.Subreaper} {
		t.Run(string(mode), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^("+strings.Join(underEveryMechanism, "|")+")$", "-test.count=1", "-test.v", "-test.timeout=5m")
			cmd.Env = append(os.Environ(), lifetimeEnv+"="+string(mode))
			out, err := cmd.CombinedOutput()
			if i := bytes.Index(out, []byte(skipMarker)); i >= 0 {
				proctest.Unavailable(t, string(mode), "%s", bytes.TrimSpace(out[i:]))
			}
			if err != nil {
				t.Fatalf("under %s: %v\n%s", mode, err, out)
			}
			for line := range strings.Lines(string(out)) {
				if strings.Contains(line, "figures:") {
					t.Log(strings.TrimSpace(line))
				}
			}
		})
	}
}

// steps splits a helper step list written as one string.
func steps(s string) []string { return strings.Fields(s) }

// TestDescendants runs programs that leave descendants behind the ways
// real programs do. Under Cgroup and Subreaper none survives its call and
// the call ends as its stage did: a success when the stage exits on its
// own (the descendants, which block forever, are not waited for), a
// timeout when it blocks. Under Session the ones that left the stage's
// session survive: the test can see a survivor. The call's durations are
// logged as figures, not judged (a loaded machine stretches them).
func TestDescendants(t *testing.T) {
	helper := proctest.Helper(t)
	mech := lifetime.Default().Mechanism()
	const timeout = time.Second
	tests := []struct {
		name          string
		steps         []string
		timedOut      bool
		stdout        string
		reports       int
		leavesSession bool // escapes a Session-mode kill
	}{
		{name: "setsid grandchild", steps: steps("spawn [ setsid null-stdio report ready sleep ] say spawned"),
			stdout: "spawned\n", reports: 1, leavesSession: true},
		{name: "double fork", steps: steps("spawn [ setsid spawn [ null-stdio report ready sleep ] ] say spawned"),
			stdout: "spawned\n", reports: 1, leavesSession: true},
		{name: "grandchild holds stdout after setsid", steps: steps("spawn [ setsid report say held ready sleep ] say spawned"),
			stdout: "held\nspawned\n", reports: 1, leavesSession: true},
		{name: "grandchild ignores SIGTERM", steps: steps("ignore-term spawn [ ignore-term setsid null-stdio report ready sleep ] report sleep"),
			timedOut: true, reports: 2, leavesSession: true},
		{name: "grandchild in the session ignores SIGTERM", steps: steps("ignore-term spawn [ ignore-term report ready sleep ] report sleep"),
			timedOut: true, reports: 2},
		{name: "orphan in the session", steps: steps("spawn [ spawn [ null-stdio report ready sleep ] ] say spawned"),
			stdout: "spawned\n", reports: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSpec(t)
			report := filepath.Join(t.TempDir(), "reports")
			s.Stages = [][]string{append([]string{helper, report}, tc.steps...)}
			s.Timeout = timeout
			r, err := Run(t.Context(), s.build(t))
			if err != nil {
				t.Fatal(err)
			}
			procs := proctest.ReadReports(t, report)
			// Session mode kills the stages' groups without waiting for
			// the processes in them: give the killed ones time to exit
			// (Survivors returns as soon as they have), unless one is
			// expected to survive anyway, which is all that is checked
			// then. The other mechanisms have waited for every process
			// before Run returns.
			within := time.Duration(0)
			switch {
			case mech == lifetime.Session && tc.leavesSession:
				within = time.Second
			case mech == lifetime.Session:
				within = exitWithin
			}
			survivors := proctest.Survivors(procs, within)
			proctest.Kill(survivors)

			want := Success
			if tc.timedOut {
				want = TimedOut
			}
			if r.Outcome != want || string(r.Stdout) != tc.stdout {
				t.Errorf("got %s stdout %q, want %s with %q", summary(r), r.Stdout, want, tc.stdout)
			}
			if len(procs) != tc.reports {
				t.Fatalf("%d processes reported, want %d: %v", len(procs), tc.reports, procs)
			}
			switch {
			case mech != lifetime.Session && len(survivors) > 0:
				t.Errorf("%d of %d processes survived the call: %v", len(survivors), len(procs), survivors)
			case mech == lifetime.Session && tc.leavesSession && len(survivors) == 0:
				t.Errorf("Session mode: the descendant that left the session did not survive; the test cannot see an escape")
			case mech == lifetime.Session && !tc.leavesSession && len(survivors) > 0:
				t.Errorf("Session mode: %d processes in the stage's session survived: %v", len(survivors), survivors)
			}
			t.Logf("figures: mechanism=%s %q: call %v (timeout %v, grace %v), %d/%d survivors", mech, tc.name, r.Duration.Round(time.Millisecond), timeout, grace, len(survivors), len(procs))
		})
	}
}

// ttyChildEnv marks the child of TestNoControllingTerminal that owns a
// pseudo-terminal.
const ttyChildEnv = "RUNNER_TEST_TTY_CHILD"

// TestNoControllingTerminal: a stage has no controlling terminal even when
// the server has one, so opening /dev/tty fails with ENXIO and a pager or
// prompt has nothing to talk to. The test re-runs itself in a child whose
// controlling terminal is a new pseudo-terminal; there it first checks
// that /dev/tty opens for itself and for a program started in its own
// session (as stages were before), so the ENXIO is the stage's new
// session's doing.
func TestNoControllingTerminal(t *testing.T) {
	if os.Getenv(ttyChildEnv) == "" {
		master, slave := openPTY(t)
		defer master.Close()
		defer slave.Close()
		cmd := exec.Command(os.Args[0], "-test.run=^TestNoControllingTerminal$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), ttyChildEnv+"=1")
		var out bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, &out, &out
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
		if err := cmd.Run(); err != nil || !strings.Contains(out.String(), "--- PASS: TestNoControllingTerminal") {
			t.Fatalf("child: %v\n%s", err, out.String())
		}
		for line := range strings.Lines(out.String()) {
			if strings.Contains(line, "figures:") {
				t.Log(strings.TrimSpace(line))
			}
		}
		return
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("setup: the child has no controlling terminal: %v", err)
	}
	tty.Close()
	helper := proctest.Helper(t)
	same, err := exec.Command(helper, os.DevNull, "tty").Output()
	if err != nil || string(same) != "tty: ok\n" {
		t.Fatalf("a program in the test's session: %q %v, want tty: ok (the check could not see a terminal)", same, err)
	}
	for _, sb := range []string{"direct", "launcher"} {
		s := newSpec(t, []string{helper, os.DevNull, "tty"})
		if sb == "launcher" {
			s = sandboxed(t, sandbox.ModeOff, []string{helper, os.DevNull, "tty"})
		}
		r, err := Run(t.Context(), s.build(t))
		if err != nil {
			t.Fatal(err)
		}
		if string(r.Stdout) != "tty: ENXIO\n" {
			t.Errorf("%s: a stage opening /dev/tty: %q, want tty: ENXIO", sb, r.Stdout)
		}
		t.Logf("figures: %s stage: %s (the test's own session: %s)", sb, bytes.TrimSpace(r.Stdout), bytes.TrimSpace(same))
	}
}

// openPTY opens a new pseudo-terminal pair, or skips.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		proctest.Unavailable(t, "pty", "/dev/ptmx: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		proctest.Unavailable(t, "pty", "unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		proctest.Unavailable(t, "pty", "ptsname: %v", err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		proctest.Unavailable(t, "pty", "opening the terminal: %v", err)
	}
	return m, s
}

// harnessCalls is how many calls the killed-server test keeps running: a
// busy server's worth.
const harnessCalls = 16

// TestServerKilled: SIGKILL of a server with 16 calls running leaves no
// process of any call. Half the calls run through the sandbox
// launcher; each stage has a grandchild, in the stage's session for some,
// setsid for the others. Under Session (no mechanism) only the stages die,
// of their parent-death signal, which shows that signal working (through
// the launcher too) and that the grandchildren are a real risk.
func TestServerKilled(t *testing.T) {
	helper := proctest.Helper(t)
	for _, mode := range []lifetime.Mechanism{lifetime.Cgroup, lifetime.Subreaper, lifetime.Session} {
		t.Run(string(mode), func(t *testing.T) {
			dir := t.TempDir()
			col := proctest.NewCollector(t, dir)
			cmd := exec.Command(os.Args[0], harnessArg, string(mode), "calls", dir, helper, col.Path, strconv.Itoa(harnessCalls))
			cmd.Stderr = os.Stderr
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			lines := bufio.NewScanner(stdout)
			if !lines.Scan() {
				_ = cmd.Wait()
				t.Fatal("the harness said nothing")
			}
			if l := lines.Text(); strings.HasPrefix(l, skipMarker) {
				_ = cmd.Wait()
				proctest.Unavailable(t, string(mode), "%s", l)
			}
			procs := col.Wait(t, 2*harnessCalls, 30*time.Second)
			// Every process has reported: have the tracker record them
			// all (its own walk runs every 50 ms) before the kill.
			fmt.Fprintln(stdin, "refresh")
			if !lines.Scan() || lines.Text() != "ready" {
				t.Fatalf("harness: %q", lines.Text())
			}
			killed := time.Now()
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			stages, grandchildren := proctest.Tagged(procs, "stage"), proctest.Tagged(procs, "grandchild")
			// Every stage must exit: wait for it as long as a loaded
			// machine may need. Under Session grandchildren survive (the
			// test's proof that it can see them), so waiting for them
			// longer changes nothing but the test's time.
			survivors := proctest.Survivors(stages, exitWithin)
			within := exitWithin
			if mode == lifetime.Session {
				within = time.Second
			}
			survivors = append(survivors, proctest.Survivors(grandchildren, within)...)
			gone := time.Since(killed)
			proctest.Kill(survivors)
			var s, g int
			for _, p := range survivors {
				if p.Tag == "stage" {
					s++
				} else {
					g++
				}
			}
			if s > 0 {
				t.Errorf("%d of %d stages survived the server by %v: the parent-death signal did not fire", s, len(stages), exitWithin)
			}
			switch {
			case mode != lifetime.Session && g > 0:
				t.Errorf("%d of %d grandchildren survived the server by %v", g, len(grandchildren), exitWithin)
			case mode == lifetime.Session && g == 0:
				t.Errorf("Session mode: no grandchild survived; the test cannot see survivors")
			}
			t.Logf("figures: mechanism=%s kill -9 with %d calls: %d/%d processes survive after %v", mode, harnessCalls, len(survivors), len(procs), gone.Round(time.Millisecond))
		})
	}
}

// harnessTimeout is the timeout of the harness's calls: long enough to
// still run when the test kills the harness.
const harnessTimeout = 2 * time.Minute

// runHarness is the test binary acting as a small server:
//
//	MODE calls DIR HELPER FIFO N: N concurrent calls, each a stage with a
//	    grandchild, all reporting to FIFO; on "refresh" on stdin it walks
//	    the trees and answers "ready", then waits to be killed.
//	MODE orphans DIR HELPER N: N calls that leave orphans (one exits at
//	    once, one sleeps until its call is killed); prints "zombies Z pid1
//	    P" with Z the zombie children left once the calls have ended.
//
// MODE is a lifetime mechanism, or "none" for no Setup at all. A
// mechanism that is not available prints skipMarker.
func runHarness(args []string) int {
	if len(args) < 4 {
		fmt.Fprintln(os.Stderr, "harness: bad arguments", args)
		return 2
	}
	mode, task, dir, helper := args[0], args[1], args[2], args[3]
	if mode != "none" {
		m, err := lifetime.Setup(lifetime.Options{Mechanism: lifetime.Mechanism(mode)})
		if err != nil {
			fmt.Println(skipMarker, err)
			return 0
		}
		defer m.Close()
	}
	wd, err := workdir.Open(dir, []string{"/"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		return 2
	}
	defer wd.Close()
	launcher, err := sandbox.NewLauncher(sandbox.Config{Mode: sandbox.ModeOff, Limits: sandbox.DefaultLimits()})
	if err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		return 2
	}
	spec := func(argv []string, viaLauncher bool) tspec {
		s := tspec{Stages: [][]string{argv}, Dir: wd, Env: []string{testPath}, Spec: Spec{Timeout: harnessTimeout, OutputLimit: 1 << 20, KillGrace: grace}}
		if viaLauncher {
			s.Sandbox = launcher
		}
		return s
	}
	switch {
	case task == "calls" && len(args) == 6:
		n, _ := strconv.Atoi(args[5])
		fmt.Println("started")
		for i := range n {
			grandchild := "spawn [ tag grandchild null-stdio report ready sleep ]"
			if i%2 == 1 {
				grandchild = "spawn [ tag grandchild setsid null-stdio report ready sleep ]"
			}
			argv := append([]string{helper, args[4]}, steps("tag stage "+grandchild+" report sleep")...)
			go func() { _, _ = Run(context.Background(), spec(argv, i < n/2).withTemp("")) }()
		}
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			if in.Text() == "refresh" {
				lifetime.Default().Refresh()
				fmt.Println("ready")
			}
		}
		select {} // until killed
	case task == "orphans" && len(args) == 5:
		n, _ := strconv.Atoi(args[4])
		argv := append([]string{helper, os.DevNull}, steps("spawn [ spawn [ ready wait-parent ] ] spawn [ setsid null-stdio ready sleep ]")...)
		var wg sync.WaitGroup
		sem := make(chan struct{}, harnessCalls)
		failed := 0
		var mu sync.Mutex
		for i := range n {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				s := spec(argv, i%2 == 0)
				s.Timeout = 10 * time.Second
				if r, err := Run(context.Background(), s.withTemp("")); err != nil || r.Outcome != Success {
					mu.Lock()
					failed++
					mu.Unlock()
					fmt.Fprintln(os.Stderr, "harness call:", summary(r), err)
				}
			})
		}
		wg.Wait()
		// The reaper works on SIGCHLD; give it what time it needs, up to
		// exitWithin, before counting. Without a Setup nothing
		// reaps: count at once.
		settle := exitWithin
		if mode == "none" {
			settle = 0
		}
		var z []int
		for deadline := time.Now().Add(settle); ; {
			z, err = proctest.Zombies(os.Getpid())
			if err != nil || len(z) == 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "harness:", err)
			return 2
		}
		fmt.Printf("zombies %d pid1 %v failed %d\n", len(z), os.Getpid() == 1, failed)
		return 0
	}
	fmt.Fprintln(os.Stderr, "harness: bad arguments", args)
	return 2
}

// TestPID1NoZombies: as PID 1 of a PID namespace (as in a container
// without --init) the server reaps every orphan of its calls: after 100
// calls (testenv.Scaled) that each leave two, no zombie is left. Without
// the lifetime Setup they accumulate, which shows the test can see them.
func TestPID1NoZombies(t *testing.T) {
	if err := exec.Command("unshare", "-p", "-f", "--mount-proc", "true").Run(); err != nil {
		proctest.Unavailable(t, "pidns", "unshare -p -f --mount-proc (needs root): %v", err)
	}
	helper := proctest.Helper(t)
	calls := testenv.Scaled(100)
	for _, mode := range []string{string(lifetime.Cgroup), string(lifetime.Subreaper), string(lifetime.Session), "none"} {
		t.Run(mode, func(t *testing.T) {
			start := time.Now()
			out, err := exec.Command("unshare", "-p", "-f", "--mount-proc", "--", os.Args[0], harnessArg, mode, "orphans", t.TempDir(), helper, strconv.Itoa(calls)).Output()
			if bytes.HasPrefix(out, []byte(skipMarker)) {
				proctest.Unavailable(t, mode, "%s", bytes.TrimSpace(out))
			}
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) {
				t.Fatalf("harness: %v\n%s%s", err, out, exitErr.Stderr)
			}
			var zombies, failed int
			var pid1 bool
			if _, err := fmt.Sscanf(string(out), "zombies %d pid1 %t failed %d", &zombies, &pid1, &failed); err != nil {
				t.Fatalf("harness said %q: %v", out, err)
			}
			if !pid1 {
				t.Fatal("the harness was not PID 1 of its namespace")
			}
			if failed > 0 {
				t.Errorf("%d of %d calls failed", failed, calls)
			}
			switch {
			case mode != "none" && zombies > 0:
				t.Errorf("%d zombies after %d calls as PID 1", zombies, calls)
			case mode == "none" && zombies == 0:
				t.Errorf("without the lifetime Setup no zombie accumulated; the test cannot see them")
			}
			t.Logf("figures: mode=%s as PID 1: %d calls, %d zombies left, %v", mode, calls, zombies, time.Since(start).Round(time.Millisecond))
		})
	}
}
