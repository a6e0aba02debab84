// Package testenv says what a test run must cover and what the machine
// offers, for tests that run real programs (oracles, differential tests,
// end-to-end calls).
//
// Two switches, both set by CI (.ci/run):
//
//   - MCP_SHELL_TEST_REQUIRE_PROGRAMS=1 turns "program not installed: skip"
//     into a failure (mvdan/sh's REQUIRE_SHELLS): an oracle whose program
//     is missing then fails instead of passing unseen.
//   - MCP_SHELL_TEST_HEAVY=1 runs the heavy oracles and soaks in full.
//     Without it (the README's `go test -race ./...` on a newcomer's
//     machine) they run a fixed sample of their rows (Sample), so every
//     package and every oracle is still exercised in minutes.
package testenv

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// RunTimeout bounds one run of a real program that is expected to end:
// a run cut short shows no effect, so an oracle would miss an escape (or
// fail its floor) only because the machine was busy. It is long enough
// for an interpreter's start-up on two loaded cores; a run that reaches
// it is a hang, never a variant's expected outcome.
const RunTimeout = time.Minute

// RequirePrograms reports whether a missing program fails the test
// (MCP_SHELL_TEST_REQUIRE_PROGRAMS=1).
func RequirePrograms() bool { return os.Getenv("MCP_SHELL_TEST_REQUIRE_PROGRAMS") == "1" }

// Heavy reports whether heavy tests run in full (MCP_SHELL_TEST_HEAVY=1).
func Heavy() bool { return os.Getenv("MCP_SHELL_TEST_HEAVY") == "1" }

// Program returns the path of name in the test process's PATH. When it is
// missing the test is skipped, or fails under RequirePrograms.
func Program(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name+" not installed")
	}
	return p
}

// Programs is Program for each name.
func Programs(t testing.TB, names ...string) {
	t.Helper()
	for _, n := range names {
		Program(t, n)
	}
}

// Have returns the path of name in the test process's PATH and whether
// it is installed, for a test that runs whichever of several programs
// the machine has: a missing one is logged, and under RequirePrograms
// fails t without stopping it.
func Have(t testing.TB, name string) (string, bool) {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Absent(t, name+" not installed")
		return "", false
	}
	return p, true
}

// Missing skips t for why, or fails it under RequirePrograms.
func Missing(t testing.TB, why string) {
	t.Helper()
	if RequirePrograms() {
		t.Fatalf("%s, and MCP_SHELL_TEST_REQUIRE_PROGRAMS=1 requires it", why)
	}
	t.Skip(why)
}

// Absent is Missing for a part of a test: it logs why, or under
// RequirePrograms fails t, and lets the test go on with what it has.
func Absent(t testing.TB, why string) {
	t.Helper()
	if RequirePrograms() {
		t.Errorf("%s, and MCP_SHELL_TEST_REQUIRE_PROGRAMS=1 requires it", why)
		return
	}
	t.Log(why + ": skipped")
}

// lightEvery is the sampling step of heavy tests without Heavy: one row in
// lightEvery runs, the first included.
const lightEvery = 6

// Sample returns rows under Heavy, else every lightEvery-th row (the
// first included): a fixed sample, the same on every run.
func Sample[T any](rows []T) []T { return SampleEvery(rows, lightEvery) }

// SampleEvery returns rows under Heavy, else every n-th row (the first
// included), for a short table whose every run is expensive (an
// interpreter's start-up, a build): ordered so that the sample keeps one
// row of each kind the oracle must see.
func SampleEvery[T any](rows []T, n int) []T {
	if Heavy() || len(rows) <= n || n <= 1 {
		return rows
	}
	out := make([]T, 0, len(rows)/n+1)
	for i := 0; i < len(rows); i += n {
		out = append(out, rows[i])
	}
	return out
}

// Saw logs an oracle's summary line, which CI's heavy step shows, and
// fails t when the oracle observed fewer than Scaled(floor) dangerous
// runs: an oracle that cannot see danger proves nothing by seeing none
// get through.
func Saw(t testing.TB, oracle string, runs, dangerous, floor int) {
	t.Helper()
	t.Logf("oracle %s: %d runs, %d dangerous (at least %d required)", oracle, runs, dangerous, Scaled(floor))
	if dangerous < Scaled(floor) {
		t.Errorf("oracle %s: only %d dangerous runs of %d, want at least %d: the oracle is not exercising the program", oracle, dangerous, runs, Scaled(floor))
	}
}

// Scaled is n under Heavy, else n divided by the sampling step (at least
// 1): the least a sampled oracle must observe.
func Scaled(n int) int {
	if Heavy() {
		return n
	}
	return max(1, n/lightEvery)
}
