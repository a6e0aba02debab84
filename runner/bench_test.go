//go:build darwin || linux

// Runs POSIX programs (sh and coreutils) through the runner: Linux and macOS.

package runner

import (
	"os/exec"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// BenchmarkRunTrue measures the runner's cost per call on the cheapest
// program; compare with BenchmarkExecTrue (bare os/exec).
func BenchmarkRunTrue(b *testing.B) {
	requirePrograms(b, "/bin/true")
	s := tspec{Stages: [][]string{{"/bin/true"}}, Dir: pinned(b, "/"), Env: []string{testPath}, Spec: Spec{Timeout: 10 * time.Second, OutputLimit: 1 << 20}}.build(b)
	for b.Loop() {
		r, err := Run(b.Context(), s)
		if err != nil || r.Outcome != Success {
			b.Fatalf("Run: %v %v", r.Outcome, err)
		}
	}
}

// BenchmarkExecTrue is the baseline: exec.Command("/bin/true").Run().
func BenchmarkExecTrue(b *testing.B) {
	requirePrograms(b, "/bin/true")
	for b.Loop() {
		if err := exec.Command("/bin/true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunPipeline3 is a three-stage pipeline, for scale.
func BenchmarkRunPipeline3(b *testing.B) {
	requirePrograms(b, "/bin/true")
	s := tspec{Stages: [][]string{{"/bin/true"}, {"/bin/true"}, {"/bin/true"}}, Dir: pinned(b, "/"), Env: []string{testPath}, Spec: Spec{Timeout: 10 * time.Second, OutputLimit: 1 << 20}}.build(b)
	for b.Loop() {
		if _, err := Run(b.Context(), s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunTrueLauncher is BenchmarkRunTrue through the sandbox
// launcher in mode limits (rlimits and no_new_privs only): the difference
// is the launcher's cost per stage.
func BenchmarkRunTrueLauncher(b *testing.B) {
	benchLauncher(b, sandbox.ModeLimits)
}

// BenchmarkRunTrueLandlock adds the Landlock ruleset and the per-call
// private temporary directory.
func BenchmarkRunTrueLandlock(b *testing.B) {
	requireLandlock(b)
	benchLauncher(b, sandbox.ModeLandlock)
}

func benchLauncher(b *testing.B, mode string) {
	requirePrograms(b, "/bin/true")
	tempRoot(b)
	dir := b.TempDir()
	l, err := sandbox.NewLauncher(sandbox.Config{Mode: mode, WriteDirs: []string{dir}, Limits: sandbox.DefaultLimits(), CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	s := tspec{Stages: [][]string{{"/bin/true"}}, Dir: pinned(b, dir), Env: []string{testPath}, Spec: Spec{Timeout: 10 * time.Second, OutputLimit: 1 << 20, Sandbox: l}}.build(b)
	for b.Loop() {
		r, err := Run(b.Context(), s)
		if err != nil || r.Outcome != Success || r.ExitCode == nil || *r.ExitCode != 0 {
			b.Fatalf("Run: %v %v", summary(r), err)
		}
	}
}
