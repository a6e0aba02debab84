//go:build darwin || linux

// The runner with proctest helper stages, FIFOs and process groups: Linux and macOS.

package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/proctest"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// testPath is the child PATH of every test spec.
const testPath = "PATH=/usr/local/bin:/usr/bin:/bin"

func requirePrograms(t testing.TB, names ...string) {
	t.Helper()
	testenv.Programs(t, names...)
}

func newSpec(t testing.TB, stages ...[]string) tspec {
	return tspec{
		Stages: stages,
		Dir:    pinned(t, t.TempDir()),
		Env:    []string{testPath},
		Spec:   Spec{Timeout: 20 * time.Second, OutputLimit: 1 << 20, KillGrace: grace},
	}
}

func sh(script string) []string { return []string{"sh", "-c", script} }

func intp(n int) *int { return &n }

// stage is a stage running the proctest helper's steps (its REPORT
// argument os.DevNull): the runner's tests need no shell or coreutils.
func stage(t testing.TB, steps ...string) []string {
	t.Helper()
	return append([]string{proctest.Helper(t), os.DevNull}, steps...)
}

// treeStage is a stage that spawns a grandchild sharing its stdout and
// stderr, which reports its pid to report (in the call's directory) and
// sleeps, then prints "started" and runs then.
func treeStage(t testing.TB, report string, then ...string) []string {
	t.Helper()
	argv := append([]string{proctest.Helper(t), report}, strings.Fields("spawn [ report ready sleep ] say started")...)
	return append(argv, then...)
}

// TestRun covers the runner's contract with helper stages: argv passed
// verbatim, exit status and signal, the environment exactly as given,
// stdin, pipelines, output caps and the timeout's escalation.
func TestRun(t *testing.T) {
	h := func(steps ...string) []string { return stage(t, steps...) }
	big := bytes.Repeat([]byte("0123456789abcdef"), 2<<20/16) // 2 MiB
	tests := []struct {
		name    string
		stages  [][]string
		mod     func(*tspec)
		outcome Outcome
		stdout  string
		stderr  string
		exit    *int
		signal  string
		check   func(t *testing.T, r Result)
	}{
		{name: "echo", stages: [][]string{h("say", "hello $(x) ; `y`")}, outcome: Success, stdout: "hello $(x) ; `y`\n", exit: intp(0)},
		{name: "exit status", stages: [][]string{h("exit", "3")}, outcome: Success, exit: intp(3)},
		{name: "stderr", stages: [][]string{h("say", "out", "stderr", "say", "err")}, outcome: Success, stdout: "out\n", stderr: "err\n", exit: intp(0)},
		{name: "signal", stages: [][]string{h("kill-self")}, outcome: Success, signal: "SIGTERM"},
		{name: "no stdin is EOF", stages: [][]string{h("cat")}, outcome: Success, exit: intp(0)},
		{name: "env is exactly Spec.Env", stages: [][]string{h("env")}, outcome: Success,
			stdout: testPath + "\n", exit: intp(0)},
		{name: "nil env is empty, not inherited", stages: [][]string{h("env")},
			mod: func(s *tspec) { s.Env = nil }, outcome: Success, stdout: "", exit: intp(0)},
		{name: "stdin echoed", stages: [][]string{h("cat")}, mod: func(s *tspec) { s.Stdin = []byte("in\x00put") },
			outcome: Success, stdout: "in\x00put", exit: intp(0)},
		{name: "large stdin through cat", stages: [][]string{h("cat")}, mod: func(s *tspec) { s.Stdin = big; s.OutputLimit = 4 << 20 },
			outcome: Success, exit: intp(0), check: func(t *testing.T, r Result) {
				if !bytes.Equal(r.Stdout, big) {
					t.Errorf("cat returned %d bytes, want the %d bytes of stdin", len(r.Stdout), len(big))
				}
			}},
		{name: "unread stdin is no error", stages: [][]string{h("exit", "0")}, mod: func(s *tspec) { s.Stdin = big },
			outcome: Success, exit: intp(0)},
		{name: "pipeline", stages: [][]string{h("say", "b", "say", "a"), h("sort"), h("head", "1")}, outcome: Success, stdout: "a\n", exit: intp(0),
			check: func(t *testing.T, r Result) {
				for i, st := range r.Stages {
					if st.ExitCode == nil || *st.ExitCode != 0 {
						t.Errorf("stage %d %+v, want exit 0", i, st)
					}
				}
			}},
		{name: "yes | head 1", stages: [][]string{h("yes"), h("head", "1")}, outcome: Success, stdout: "y\n", exit: intp(0),
			check: func(t *testing.T, r Result) {
				if r.Stages[0].Signal != "SIGPIPE" {
					t.Errorf("yes ended %+v, want SIGPIPE", r.Stages[0])
				}
			}},
		{name: "pipeline last stage status", stages: [][]string{h("exit", "5"), h("cat", "exit", "7")}, outcome: Success, exit: intp(7)},
		{name: "stdout cap", stages: [][]string{h("zeros", "5000000")}, outcome: OutputCapped, signal: "SIGTERM",
			check: capped("stdout", 1<<20)},
		{name: "stderr cap", stages: [][]string{h("stderr", "zeros", "5000000")}, outcome: OutputCapped, signal: "SIGTERM",
			check: capped("stderr", 1<<20)},
		{name: "endless output capped", stages: [][]string{h("yes")}, outcome: OutputCapped, signal: "SIGTERM",
			check: capped("stdout", 1<<20)},
		{name: "exactly at the cap", stages: [][]string{h("zeros", "1048576")}, outcome: Success, exit: intp(0),
			check: func(t *testing.T, r Result) {
				if r.StdoutTruncated || len(r.Stdout) != 1<<20 {
					t.Errorf("truncated=%v len=%d, want full 1 MiB untruncated", r.StdoutTruncated, len(r.Stdout))
				}
			}},
		{name: "drain past limit", stages: [][]string{h("zeros", strconv.Itoa(64<<20))}, mod: func(s *tspec) { s.DrainPastLimit = true },
			outcome: Success, exit: intp(0), check: func(t *testing.T, r Result) {
				if r.StdoutBytes != 64<<20 || len(r.Stdout) != 1<<20 || !r.StdoutTruncated || cap(r.Stdout) > 1<<20 {
					t.Errorf("bytes=%d len=%d cap=%d truncated=%v; want 64 MiB counted, 1 MiB kept",
						r.StdoutBytes, len(r.Stdout), cap(r.Stdout), r.StdoutTruncated)
				}
			}},
		{name: "TERM ignored escalates to KILL", stages: [][]string{h("ignore-term", "sleep")},
			mod: func(s *tspec) { s.Timeout = 300 * time.Millisecond }, outcome: TimedOut, signal: "SIGKILL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSpec(t, tt.stages...)
			if tt.mod != nil {
				tt.mod(&s)
			}
			r, err := Run(t.Context(), s.build(t))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if r.Outcome != tt.outcome {
				t.Errorf("Outcome = %q, want %q (result %+v)", r.Outcome, tt.outcome, summary(r))
			}
			if tt.outcome != OutputCapped && tt.check == nil || tt.stdout != "" {
				if string(r.Stdout) != tt.stdout {
					t.Errorf("Stdout = %q, want %q", r.Stdout, tt.stdout)
				}
			}
			if string(r.Stderr) != tt.stderr && tt.outcome != OutputCapped {
				t.Errorf("Stderr = %q, want %q", r.Stderr, tt.stderr)
			}
			if tt.exit != nil && (r.ExitCode == nil || *r.ExitCode != *tt.exit) {
				t.Errorf("ExitCode = %v, want %d", fmtExit(r.ExitCode), *tt.exit)
			}
			if r.Signal != tt.signal {
				t.Errorf("Signal = %q, want %q", r.Signal, tt.signal)
			}
			if len(r.Stages) != len(tt.stages) {
				t.Errorf("%d stage statuses for %d stages", len(r.Stages), len(tt.stages))
			}
			if tt.check != nil {
				tt.check(t, r)
			}
		})
	}
}

func capped(stream string, limit int) func(*testing.T, Result) {
	return func(t *testing.T, r Result) {
		t.Helper()
		buf, n, trunc := r.Stdout, r.StdoutBytes, r.StdoutTruncated
		if stream == "stderr" {
			buf, n, trunc = r.Stderr, r.StderrBytes, r.StderrTruncated
		}
		if r.LimitStream != stream || !trunc || len(buf) != limit || cap(buf) > limit || n <= int64(limit) {
			t.Errorf("LimitStream=%q truncated=%v len=%d cap=%d bytes=%d; want %s capped at %d",
				r.LimitStream, trunc, len(buf), cap(buf), n, stream, limit)
		}
	}
}

func fmtExit(p *int) string {
	if p == nil {
		return "nil"
	}
	return strconv.Itoa(*p)
}

func summary(r Result) string {
	return "outcome=" + string(r.Outcome) + " exit=" + fmtExit(r.ExitCode) + " signal=" + r.Signal +
		" stdout=" + strconv.Itoa(len(r.Stdout)) + " stderr=" + strconv.Quote(string(r.Stderr)) + " d=" + r.Duration.String()
}

// TestTimeoutKillsTree: a timeout kills the whole group, including a
// grandchild that holds the stdout pipe, and the call does not wait for
// that grandchild to end on its own.
func TestTimeoutKillsTree(t *testing.T) {
	s := newSpec(t, treeStage(t, "gc.pid", "sleep"))
	s.Timeout = 300 * time.Millisecond
	r, err := Run(t.Context(), s.build(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != TimedOut || string(r.Stdout) != "started\n" {
		t.Errorf("got %s stdout %q, want timeout with 'started'", summary(r), r.Stdout)
	}
	notWaitedFor(t, r)
	assertGone(t, filepath.Join(s.Dir.Real(), "gc.pid"))
}

// TestBackgroundGrandchildAfterExit: the direct child exits at once but a
// background grandchild keeps stdout open (bugreport br-16); Run returns
// once the grace period is over, with the output, a success, and no
// survivor.
func TestBackgroundGrandchildAfterExit(t *testing.T) {
	s := newSpec(t, treeStage(t, "gc.pid"))
	r, err := Run(t.Context(), s.build(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != Success || string(r.Stdout) != "started\n" || r.ExitCode == nil || *r.ExitCode != 0 {
		t.Errorf("got %s stdout %q, want success with 'started'", summary(r), r.Stdout)
	}
	notWaitedFor(t, r)
	assertGone(t, filepath.Join(s.Dir.Real(), "gc.pid"))
}

// TestCancel: cancelling ctx mid-run ends the call with Outcome Cancelled
// (SIGTERM) after the cancellation, without waiting for the stage to end
// on its own. The stage signals that it runs by opening a FIFO.
func TestCancel(t *testing.T) {
	s := newSpec(t, stage(t, "write", "ready.fifo", "ready", "sleep"))
	fifo := filepath.Join(s.Dir.Real(), "ready.fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cancelled := make(chan struct{})
	go func() {
		b, _ := os.ReadFile(fifo) // blocks until the stage has written
		_ = b
		close(cancelled)
		cancel()
	}()
	r, err := Run(ctx, s.build(t))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-cancelled:
	default:
		t.Errorf("Run returned before the cancellation")
	}
	if r.Outcome != Cancelled || r.Signal != "SIGTERM" {
		t.Errorf("got %s, want cancelled by SIGTERM", summary(r))
	}
	notWaitedFor(t, r)
}

func TestAlreadyCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	s := newSpec(t, stage(t, "write", "created", "x"))
	r, err := Run(ctx, s.build(t))
	if err != nil || r.Outcome != Cancelled {
		t.Fatalf("Run = %s, %v; want Cancelled", summary(r), err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir.Real(), "created")); err == nil {
		t.Error("a process ran although ctx was already cancelled")
	}
}

func TestLaunchFailure(t *testing.T) {
	sleep := stage(t, "sleep")
	dir := t.TempDir()
	bad := filepath.Join(dir, "badexec")
	if err := os.WriteFile(bad, []byte("\x00\x01 not an executable format"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		stages   [][]string
		notFound bool
		started  int // stages that ran and must have been reaped
	}{
		{name: "missing program", stages: [][]string{{"definitely-not-a-program-7f3a"}}, notFound: true},
		{name: "missing in later stage", stages: [][]string{sleep, {"definitely-not-a-program-7f3a"}}, notFound: true},
		{name: "relative path missing", stages: [][]string{{"./nothing-here"}}, notFound: true},
		{name: "exec format error after first stage started", stages: [][]string{sleep, {bad}}, started: 1},
		{name: "NUL in argument", stages: [][]string{stage(t, "say", "1\x00")}},
		{name: "empty argv", stages: [][]string{{}}},
		{name: "no stages", stages: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSpec(t, tt.stages...)
			s.Dir = pinned(t, dir)
			r, err := Run(t.Context(), s.build(t))
			var le *LaunchError
			if !errors.As(err, &le) {
				t.Fatalf("Run error = %v, want *LaunchError", err)
			}
			if !strings.HasPrefix(err.Error(), "Failed to create process: ") {
				t.Errorf("message %q lacks the catalogue prefix", err)
			}
			if errors.Is(err, exec.ErrNotFound) != tt.notFound {
				t.Errorf("errors.Is(%v, exec.ErrNotFound) = %v, want %v", err, !tt.notFound, tt.notFound)
			}
			if r.Outcome != ProcessError {
				t.Errorf("Outcome = %q, want process_error", r.Outcome)
			}
			notWaitedFor(t, r) // the started stage is killed, not waited for
			for i := range tt.started {
				if r.Stages[i].Signal != "SIGKILL" {
					t.Errorf("started stage %d ended %+v, want SIGKILL", i, r.Stages[i])
				}
			}
			assertNoChildren(t)
		})
	}
}

func TestRedirects(t *testing.T) {
	h := func(steps ...string) []string { return stage(t, steps...) }
	tests := []struct {
		name      string
		stages    [][]string
		stdinFile string
		outFile   string
		append    bool
		fileLimit int64
		drain     bool
		outcome   Outcome
		errCode   refusal.Code
		wantFile  string
		check     func(t *testing.T, r Result, dir string)
	}{
		{name: "stdin file", stages: [][]string{h("cat")}, stdinFile: "in.txt", outcome: Success,
			check: func(t *testing.T, r Result, _ string) {
				if string(r.Stdout) != "old\n" {
					t.Errorf("Stdout = %q", r.Stdout)
				}
			}},
		{name: "stdout file", stages: [][]string{h("say", "hi")}, outFile: "out.txt", outcome: Success, wantFile: "hi\n",
			check: func(t *testing.T, r Result, _ string) {
				if len(r.Stdout) != 0 || r.StdoutBytes != 3 {
					t.Errorf("Stdout = %q, StdoutBytes = %d; want empty, 3", r.Stdout, r.StdoutBytes)
				}
			}},
		{name: "truncate existing", stages: [][]string{h("say", "new")}, outFile: "in.txt", outcome: Success, wantFile: "new\n"},
		{name: "append", stages: [][]string{h("say", "more")}, outFile: "in.txt", append: true, outcome: Success, wantFile: "old\nmore\n"},
		{name: "stdin and stdout file in a pipeline", stages: [][]string{h("cat"), h("cat")}, stdinFile: "in.txt", outFile: "copy.txt",
			outcome: Success, wantFile: "old\n"},
		{name: "redirected output counts toward the cap", stages: [][]string{h("zeros", "5000000")}, outFile: "zero.bin",
			outcome: OutputCapped, check: func(t *testing.T, r Result, dir string) {
				fi, err := os.Stat(filepath.Join(dir, "zero.bin"))
				if err != nil || fi.Size() != 1<<20 || r.LimitStream != "file" || len(r.Stdout) != 0 {
					t.Errorf("file %v %v, LimitStream %q, Stdout %d bytes; want a 1 MiB file", fi.Size(), err, r.LimitStream, len(r.Stdout))
				}
			}},
		{name: "the file's own limit", stages: [][]string{h("zeros", "5000000")}, outFile: "zero.bin", fileLimit: 3000,
			outcome: OutputCapped, check: func(t *testing.T, r Result, dir string) {
				fi, err := os.Stat(filepath.Join(dir, "zero.bin"))
				if err != nil || fi.Size() != 3000 || r.LimitStream != "file" {
					t.Errorf("file %v %v, LimitStream %q; want a 3000-byte file", fi.Size(), err, r.LimitStream)
				}
			}},
		{name: "a file past its limit is never drained", stages: [][]string{h("zeros", "5000000")}, outFile: "zero.bin", fileLimit: 3000, drain: true,
			outcome: OutputCapped, check: func(t *testing.T, r Result, dir string) {
				fi, err := os.Stat(filepath.Join(dir, "zero.bin"))
				if err != nil || fi.Size() != 3000 || r.LimitStream != "file" {
					t.Errorf("file %v %v, LimitStream %q; want a 3000-byte file", fi.Size(), err, r.LimitStream)
				}
			}},
		{name: "a file within its limit, past the stream cap", stages: [][]string{h("zeros", "2000000")}, outFile: "zero.bin", fileLimit: 4 << 20,
			outcome: Success, check: func(t *testing.T, r Result, dir string) {
				if fi, err := os.Stat(filepath.Join(dir, "zero.bin")); err != nil || fi.Size() != 2000000 {
					t.Errorf("file %v %v; want all 2000000 bytes", fi, err)
				}
			}},
		{name: "escaping output refused", stages: [][]string{h("say", "x")}, outFile: "link_out", errCode: redirect.CodeEscape},
		{name: "parent traversal refused", stages: [][]string{h("say", "x")}, outFile: "../x", errCode: redirect.CodeParent},
		{name: "missing input", stages: [][]string{h("cat")}, stdinFile: "nope", errCode: redirect.CodeInput},
		{name: "fifo input refused", stages: [][]string{h("cat")}, stdinFile: "fifo", errCode: redirect.CodeNotRegular},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSpec(t, tt.stages...)
			if err := os.WriteFile(filepath.Join(s.Dir.Real(), "in.txt"), []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("/etc/hostname", filepath.Join(s.Dir.Real(), "link_out")); err != nil {
				t.Fatal(err)
			}
			if err := unix.Mkfifo(filepath.Join(s.Dir.Real(), "fifo"), 0o644); err != nil {
				t.Fatal(err)
			}
			s.StdinFile, s.StdoutFile, s.StdoutAppend = tt.stdinFile, tt.outFile, tt.append
			s.FileLimit, s.DrainPastLimit = tt.fileLimit, tt.drain
			r, err := Run(t.Context(), s.build(t))
			if tt.errCode != "" {
				if re := refusal.As(err); re == nil || re.Code != tt.errCode || r.Outcome != ProcessError {
					t.Fatalf("Run = %s, %v; want a %s refusal", summary(r), err, tt.errCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Outcome != tt.outcome {
				t.Errorf("Outcome = %q, want %q", r.Outcome, tt.outcome)
			}
			if tt.wantFile != "" {
				if b, _ := os.ReadFile(filepath.Join(s.Dir.Real(), tt.outFile)); string(b) != tt.wantFile {
					t.Errorf("%s = %q, want %q", tt.outFile, b, tt.wantFile)
				}
			}
			if tt.check != nil {
				tt.check(t, r, s.Dir.Real())
			}
		})
	}
}

// TestNoLeaks runs a batch covering every ending (normal, timeout, cap,
// cancel, launch failure, redirect failure, background grandchild) and
// checks that no descriptor and no child process is left behind.
func TestNoLeaks(t *testing.T) {
	ctx := t.Context()
	h := func(steps ...string) []string { return stage(t, steps...) }
	batch := func() {
		for _, mod := range []func(*tspec){
			func(s *tspec) { s.Stages = [][]string{h("exit", "0")} },
			func(s *tspec) { s.Stages = [][]string{h("yes"), h("head", "1")}; s.Stdin = []byte("x") },
			func(s *tspec) { s.Stages = [][]string{h("sleep")}; s.Timeout = 50 * time.Millisecond },
			func(s *tspec) { s.Stages = [][]string{h("yes")} },
			func(s *tspec) {
				s.Stages = [][]string{treeStage(t, os.DevNull)}
				s.KillGrace = 50 * time.Millisecond
			},
			func(s *tspec) { s.Stages = [][]string{{"no-such-program-7f3a"}} },
			func(s *tspec) { s.Stages = [][]string{h("sleep"), {"./no-such-program"}} },
			func(s *tspec) { s.Stages = [][]string{h("exit", "0")}; s.StdoutFile = "../x" },
			func(s *tspec) { s.Stages = [][]string{h("exit", "0")}; s.StdoutFile = "out"; s.StdinFile = "missing" },
			func(s *tspec) { s.Stages = [][]string{h("exit", "0")}; s.StdoutFile = "out" },
		} {
			s := newSpec(t, h("exit", "0"))
			mod(&s)
			_, _ = Run(ctx, s.build(t))
			s.Dir.Close() // the spec's own handle, not the runner's
		}
		cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		s := newSpec(t, h("sleep"))
		_, _ = Run(cctx, s.build(t))
		s.Dir.Close()
		cancel()
	}
	batch() // warm up lazily opened runtime descriptors (epoll, pidfd probe)
	before := countFDs(t)
	for range 3 {
		batch()
	}
	// Fewer is fine: under the cgroup mechanism a killed call's cgroup is
	// never reused, so each batch removes one of the empty cgroups (two
	// descriptors each) that earlier calls left for reuse.
	if after := countFDs(t); after > before {
		t.Errorf("open descriptors: %d before, %d after the batch", before, after)
	}
	assertNoChildren(t)
}

// countFDs counts the open descriptors. In subreaper mode it leaves out
// files under /proc and pidfds: the lifetime tracker opens both briefly in
// the background (walks on SIGCHLD and every 50 ms, the check of an orphan
// that outlived its call), which would make the count race.
func countFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	if lifetime.Default().Mechanism() != lifetime.Subreaper {
		return len(ents)
	}
	n := 0
	for _, e := range ents {
		target, _ := os.Readlink("/proc/self/fd/" + e.Name())
		if !strings.HasPrefix(target, "/proc/") && target != "anon_inode:[pidfd]" {
			n++
		}
	}
	return n
}

// TestJoinGroupOfExitedLeader pins the kernel behaviour start relies on: a
// later stage can join the group of a first stage that has already exited,
// as long as the first stage has not been reaped.
func TestJoinGroupOfExitedLeader(t *testing.T) {
	exit0 := stage(t, "exit", "0")
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	files := []*os.File{null, null, null}
	p0, err := os.StartProcess(exit0[0], exit0, &os.ProcAttr{Files: files, Sys: &syscall.SysProcAttr{Setpgid: true}})
	if err != nil {
		t.Fatal(err)
	}
	waitExited(p0.Pid)
	p1, err := os.StartProcess(exit0[0], exit0,
		&os.ProcAttr{Files: files, Sys: &syscall.SysProcAttr{Setpgid: true, Pgid: p0.Pid}})
	if err != nil {
		t.Errorf("joining the group of an exited, unreaped leader failed: %v", err)
	} else {
		_, _ = p1.Wait()
	}
	_, _ = p0.Wait()
}

// TestDiscardStderr: with DiscardStderr no stage's standard error is
// read or counted, so a flood of it neither reaches the result nor the
// cap, and stdout is whole.
func TestDiscardStderr(t *testing.T) {
	requirePrograms(t, "sh", "head")
	s := newSpec(t, sh("head -c 300000 /dev/zero >&2; echo out"), []string{"sh", "-c", "cat; echo err >&2"})
	s.OutputLimit, s.DiscardStderr = 1000, true
	r, err := Run(t.Context(), s.build(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != Success || string(r.Stdout) != "out\n" || len(r.Stderr) != 0 || r.StderrBytes != 0 || r.StderrTruncated {
		t.Errorf("Run = %s, stdout %q, stderr %d bytes (%d read)", summary(r), r.Stdout, len(r.Stderr), r.StderrBytes)
	}
}

// TestDiscardStdout: with DiscardStdout the last stage writes to
// /dev/null, so nothing is read or counted, while a ">" file still gets
// the output.
func TestDiscardStdout(t *testing.T) {
	requirePrograms(t, "sh", "head")
	s := newSpec(t, sh("head -c 300000 /dev/zero"))
	s.OutputLimit, s.DiscardStdout, s.DiscardStderr = 1000, true, true
	r, err := Run(t.Context(), s.build(t))
	if err != nil || r.Outcome != Success || len(r.Stdout) != 0 || r.StdoutBytes != 0 || r.StdoutTruncated {
		t.Errorf("Run = %s, %v: stdout %d bytes (%d read)", summary(r), err, len(r.Stdout), r.StdoutBytes)
	}
	s = newSpec(t, sh("echo kept"))
	s.DiscardStdout, s.StdoutFile = true, "out.txt"
	if r, err := Run(t.Context(), s.build(t)); err != nil || r.Outcome != Success {
		t.Fatalf("Run = %s, %v", summary(r), err)
	}
	if b, err := os.ReadFile(filepath.Join(s.Dir.Real(), "out.txt")); string(b) != "kept\n" {
		t.Errorf("out.txt = %q, %v", b, err)
	}
}
