//go:build darwin || linux

// Runs POSIX programs (sh and coreutils) through the runner: Linux and macOS.

package runner

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// requireLandlock skips when the kernel cannot enforce the full ruleset,
// or fails when MCP_SHELL_REQUIRE_LANDLOCK is set (CI: the proofs must
// run).
func requireLandlock(t testing.TB) {
	t.Helper()
	if abi, err := sandbox.KernelABI(); err != nil || abi < sandbox.ABINetwork {
		if os.Getenv("MCP_SHELL_REQUIRE_LANDLOCK") != "" {
			t.Fatalf("Landlock ABI >= %d not available (ABI %d, %v) and MCP_SHELL_REQUIRE_LANDLOCK is set", sandbox.ABINetwork, abi, err)
		}
		t.Skipf("Landlock ABI >= %d not available (ABI %d, %v)", sandbox.ABINetwork, abi, err)
	}
}

// tempRoot points os.TempDir(), where the runner creates private
// temporary directories, into the test's own directory.
func tempRoot(t interface {
	TempDir() string
	Setenv(k, v string)
}) {
	t.Setenv("TMPDIR", t.TempDir())
}

// sandboxed returns a spec like newSpec whose stages run through the
// launcher in mode, with the spec's Dir as the only writable tree; sh,
// the harness of many rows, may run programs (MCP_SHELL_SANDBOX_EXEC=sh=*).
func sandboxed(t testing.TB, mode string, stages ...[]string) tspec {
	t.Helper()
	if mode == sandbox.ModeLandlock {
		requireLandlock(t)
	}
	s := newSpec(t, stages...)
	l, err := sandbox.NewLauncher(sandbox.Config{Mode: mode, WriteDirs: []string{s.Dir.Real()}, Limits: sandbox.DefaultLimits(), CacheDir: t.TempDir(),
		Exec: map[string][]string{"sh": {sandbox.ExecAny}}})
	if err != nil {
		t.Fatalf("NewLauncher: %v", err)
	}
	t.Cleanup(l.Close)
	s.Sandbox = l
	return s
}

// TestRunSandboxed repeats the runner's contract through the launcher:
// output, exit status, pipelines, caps, timeouts and redirects behave as
// without it, the environment is exactly Spec.Env (plus TMPDIR when
// confined), and a confined call gets a private TMPDIR that is removed.
func TestRunSandboxed(t *testing.T) {
	tempRoot(t)
	requirePrograms(t, "sh", "cat", "sort", "head", "printf", "env", "sleep", "cp")
	for _, mode := range []string{sandbox.ModeOff, sandbox.ModeLimits, sandbox.ModeLandlock} {
		t.Run(mode, func(t *testing.T) {
			tests := []struct {
				name    string
				stages  [][]string
				mod     func(*tspec)
				outcome Outcome
				stdout  string
				exit    *int
				signal  string
				check   func(t *testing.T, s tspec, r Result)
			}{
				{name: "echo", stages: [][]string{{"echo", "hello"}}, outcome: Success, stdout: "hello\n", exit: intp(0)},
				{name: "exit status", stages: [][]string{sh("exit 3")}, outcome: Success, exit: intp(3)},
				{name: "stdin", stages: [][]string{{"cat"}}, mod: func(s *tspec) { s.Stdin = []byte("in\x00put") }, outcome: Success, stdout: "in\x00put", exit: intp(0)},
				{name: "pipeline", stages: [][]string{{"printf", `b\na\n`}, {"sort"}, {"head", "-1"}}, outcome: Success, stdout: "a\n", exit: intp(0)},
				{name: "env", stages: [][]string{{"env"}}, mod: func(s *tspec) { s.Env = []string{testPath, "A=1", "A=2"} }, outcome: Success,
					check: func(t *testing.T, s tspec, r Result) {
						want := testPath + "\nA=1\nA=2\n"
						if s.Sandbox.Confined() {
							// With the sandbox's TMPDIR the environment is
							// sorted by name, as the policy's always is; a
							// repeated name keeps its order.
							want = "A=1\nA=2\n" + testPath + "\n"
							got, tmp, _ := strings.Cut(string(r.Stdout), "TMPDIR=")
							if got != want || !strings.HasPrefix(tmp, os.TempDir()) {
								t.Errorf("env printed %q, want %q then a private TMPDIR", r.Stdout, want)
							}
							return
						}
						if string(r.Stdout) != want {
							t.Errorf("env printed %q, want exactly %q", r.Stdout, want)
						}
					}},
				{name: "operator TMPDIR kept", stages: [][]string{sh(`echo "$TMPDIR"`)}, mod: func(s *tspec) { s.Env = []string{testPath, "TMPDIR=/var/tmp"} },
					outcome: Success, stdout: "/var/tmp\n", exit: intp(0)},
				{name: "stdout cap", stages: [][]string{{"head", "-c", "5000000", "/dev/zero"}}, outcome: OutputCapped, signal: "SIGTERM"},
				{name: "timeout", stages: [][]string{{"sleep", "100"}}, mod: func(s *tspec) { s.Timeout = 300 * time.Millisecond }, outcome: TimedOut, signal: "SIGTERM"},
				{name: "redirects", stages: [][]string{{"cat"}}, mod: func(s *tspec) {
					os.WriteFile(filepath.Join(s.Dir.Real(), "in.txt"), []byte("old\n"), 0o644)
					s.StdinFile, s.StdoutFile = "in.txt", "out.txt"
				}, outcome: Success, exit: intp(0), check: func(t *testing.T, s tspec, r Result) {
					if b, _ := os.ReadFile(filepath.Join(s.Dir.Real(), "out.txt")); string(b) != "old\n" {
						t.Errorf("out.txt = %q", b)
					}
				}},
				{name: "cp inside", stages: [][]string{sh("echo x > a && cp a b && cat b")}, outcome: Success, stdout: "x\n", exit: intp(0)},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					s := sandboxed(t, mode, tt.stages...)
					if tt.mod != nil {
						tt.mod(&s)
					}
					r, err := Run(t.Context(), s.build(t))
					if err != nil {
						t.Fatalf("Run: %v", err)
					}
					if r.Outcome != tt.outcome || tt.stdout != "" && string(r.Stdout) != tt.stdout || r.Signal != tt.signal ||
						tt.exit != nil && (r.ExitCode == nil || *r.ExitCode != *tt.exit) {
						t.Errorf("got %s stdout %q; want %s stdout %q exit %s signal %q", summary(r), r.Stdout, tt.outcome, tt.stdout, fmtExit(tt.exit), tt.signal)
					}
					if tt.check != nil {
						tt.check(t, s, r)
					}
				})
			}
		})
	}
}

// TestSandboxPrivateTmp: a confined call writes in its own TMPDIR; a
// directory left with files is removed once the caller closes the plan
// after Run (in the background: gone once the launcher's Close returns)
// and the next call gets another one.
func TestSandboxPrivateTmp(t *testing.T) {
	tempRoot(t)
	requirePrograms(t, "sh")
	s := sandboxed(t, sandbox.ModeLandlock, sh(`echo data > "$TMPDIR/f" && mkdir "$TMPDIR/ro" && chmod 0500 "$TMPDIR/ro" && echo "$TMPDIR"`))
	var dirs []string
	work := s.Dir.Real()
	for range 2 {
		s.Dir = pinned(t, work) // the last call's plan closed its own
		spec := s.build(t)
		r, err := Run(t.Context(), spec)
		if err != nil || r.ExitCode == nil || *r.ExitCode != 0 {
			t.Fatalf("Run = %s, %v", summary(r), err)
		}
		dir := strings.TrimSpace(string(r.Stdout))
		spec.Plan.Close() // what the plan's owner does once the call ends
		s.Sandbox.Close()
		if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("private TMPDIR %q still exists after Run (%v)", dir, err)
		}
		dirs = append(dirs, dir)
	}
	if dirs[0] == dirs[1] || !strings.HasPrefix(dirs[0], os.TempDir()) {
		t.Errorf("TMPDIRs %q, want two distinct directories under %s", dirs, os.TempDir())
	}
}

// TestSandboxContainsWrites: under Landlock a stage cannot write outside
// Spec.Dir and its TMPDIR, also through its own operands.
func TestSandboxContainsWrites(t *testing.T) {
	tempRoot(t)
	requirePrograms(t, "cp", "tee", "dd")
	outside := t.TempDir()
	for _, argv := range [][]string{
		{"cp", "in.txt", filepath.Join(outside, "x")},
		{"tee", filepath.Join(outside, "x")},
		{"dd", "if=in.txt", "of=" + filepath.Join(outside, "x")},
	} {
		t.Run(argv[0], func(t *testing.T) {
			s := sandboxed(t, sandbox.ModeLandlock, argv)
			os.WriteFile(filepath.Join(s.Dir.Real(), "in.txt"), []byte("DATA\n"), 0o644)
			s.Stdin = []byte("DATA\n")
			r, err := Run(t.Context(), s.build(t))
			if err != nil {
				t.Fatal(err)
			}
			// EACCES from Landlock, or EROFS where the stage's mounts
			// are read-only outside its writable trees (a root server).
			if r.ExitCode == nil || *r.ExitCode == 0 || !strings.Contains(string(r.Stderr), "Permission denied") && !strings.Contains(string(r.Stderr), "Read-only file system") {
				t.Errorf("got %s, want a failure with EACCES or EROFS", summary(r))
			}
			if _, err := os.Lstat(filepath.Join(outside, "x")); err == nil {
				t.Error("the file outside was written")
			}
		})
	}
}

// TestSandboxLaunchFailure: a target the launcher cannot exec is a
// *LaunchError wrapping the launcher's *sandbox.StartError, started
// stages are killed and reaped, and program lookup still happens in the
// runner with the child PATH.
func TestSandboxLaunchFailure(t *testing.T) {
	tempRoot(t)
	requirePrograms(t, "sleep")
	dir := t.TempDir()
	bad := filepath.Join(dir, "badexec")
	if err := os.WriteFile(bad, []byte("\x00\x01 not an executable format"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{sandbox.ModeOff, sandbox.ModeLandlock} {
		t.Run(mode, func(t *testing.T) {
			s := sandboxed(t, mode, []string{"sleep", "100"}, []string{bad})
			r, err := Run(t.Context(), s.build(t))
			var le *LaunchError
			var se *sandbox.StartError
			if !errors.As(err, &le) || !errors.As(err, &se) || !errors.Is(err, syscall.ENOEXEC) || le.Argv0 != bad {
				t.Fatalf("Run error = %v, want *LaunchError for %s wrapping a StartError with ENOEXEC", err, bad)
			}
			if !strings.HasPrefix(err.Error(), "Failed to create process: exec "+bad) {
				t.Errorf("message %q", err)
			}
			if r.Outcome != ProcessError || r.Stages[0].Signal != "SIGKILL" {
				t.Errorf("got %s, stage 0 %+v; want process_error with the first stage killed", summary(r), r.Stages[0])
			}
			assertNoChildren(t)

			s.Stages = [][]string{{"definitely-not-a-program-7f3a"}}
			if _, err := Run(t.Context(), s.build(t)); !errors.Is(err, exec.ErrNotFound) {
				t.Errorf("missing program: %v, want exec.ErrNotFound", err)
			}
		})
	}
}

// TestSandboxNoLeaks: descriptors, threads' children and private
// directories are released on every path.
func TestSandboxNoLeaks(t *testing.T) {
	tempRoot(t)
	requirePrograms(t, "sh", "sleep", "true")
	requireLandlock(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "badexec")
	os.WriteFile(bad, []byte("\x00\x01"), 0o755)
	tmpBefore := countTmp(t)
	// One launcher, as the server has: what it holds for its life (the
	// descriptors of its trees, its scoping ruleset) is not a leak.
	work := t.TempDir()
	l2, err := sandbox.NewLauncher(sandbox.Config{Mode: sandbox.ModeLandlock, WriteDirs: []string{work}, Limits: sandbox.DefaultLimits(), CacheDir: t.TempDir(),
		Exec: map[string][]string{"sh": {sandbox.ExecAny}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l2.Close)
	batch := func() {
		for _, stages := range [][][]string{
			{{"true"}},
			{{"true"}, {"true"}},
			{{"sleep", "100"}, {bad}},
			{{"no-such-program-7f3a"}},
		} {
			s := tspec{Stages: stages, Dir: pinned(t, work), Env: []string{testPath},
				Spec: Spec{Timeout: 20 * time.Second, OutputLimit: 1 << 20, KillGrace: grace, Sandbox: l2}}
			spec := s.build(t)
			_, _ = Run(t.Context(), spec)
			spec.Plan.Close() // what the server does after the run: the directory and the TMPDIR
			l2.Close()
		}
	}
	batch()
	before := countFDs(t)
	batch()
	// Fewer is fine: under the cgroup mechanism a killed call's cgroup is
	// never reused, so each batch removes one of the empty cgroups (two
	// descriptors each) that earlier calls left for reuse.
	if after := countFDs(t); after > before {
		t.Errorf("open descriptors: %d before, %d after the batch", before, after)
	}
	if after := countTmp(t); after != tmpBefore {
		t.Errorf("%d mcp-shell-call-* directories before, %d after", tmpBefore, after)
	}
	assertNoChildren(t)
}

func countTmp(t *testing.T) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(os.TempDir(), "mcp-shell-call-*"))
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}
