package runner

import (
	"os/exec"
	"testing"
	"time"
)

// BenchmarkRunTrue measures the runner's cost per call on the cheapest
// program; compare with BenchmarkExecTrue (bare os/exec).
func BenchmarkRunTrue(b *testing.B) {
	requirePrograms(b, "/bin/true")
	s := Spec{Stages: [][]string{{"/bin/true"}}, Dir: "/", Env: []string{testPath}, Timeout: 10 * time.Second, OutputLimit: 1 << 20}
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
	s := Spec{Stages: [][]string{{"/bin/true"}, {"/bin/true"}, {"/bin/true"}}, Dir: "/", Env: []string{testPath}, Timeout: 10 * time.Second, OutputLimit: 1 << 20}
	for b.Loop() {
		if _, err := Run(b.Context(), s); err != nil {
			b.Fatal(err)
		}
	}
}
