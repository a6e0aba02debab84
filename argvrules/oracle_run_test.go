//go:build unix

package argvrules

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Helpers of the oracles that run a real program in a fresh working
// directory "w" beside an "outside" directory and look at what changed.

// oracleRunTimeout bounds one run of a real program: a program that waits
// for input it will not get is stopped, not waited for; Python programs
// (hg, pygmentize) start slowly on a loaded machine.
const oracleRunTimeout = 30 * time.Second

// requireProgram skips, or fails when MCP_SHELL_REQUIRE_PROGRAMS is set (CI
// installs every program the oracles run).
func requireProgram(t *testing.T, name string) {
	t.Helper()
	if os.Getenv("MCP_SHELL_REQUIRE_PROGRAMS") != "" {
		t.Fatalf("%s is not installed and MCP_SHELL_REQUIRE_PROGRAMS is set", name)
	}
	t.Skipf("%s not installed", name)
}

// runResult is what one run printed and how it ended.
type runResult struct {
	exit           int
	stdout, stderr string
}

// runIn runs exe with args in dir under env (nothing else of the test's
// environment), with no standard input.
func runIn(t *testing.T, exe, dir string, env []string, args ...string) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), oracleRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := runResult{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.exit = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %q: %v", exe, args, err)
	}
	return r
}

func mkdirs(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFiles(t *testing.T, files map[string]string) {
	t.Helper()
	for p, body := range files {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// treeSnapshot maps every path below base (relative) to a digest of its
// content or link target.
func treeSnapshot(t *testing.T, base string) map[string]string {
	m := map[string]string{}
	filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == base {
			return nil
		}
		rel, _ := filepath.Rel(base, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			m[rel] = "link:" + target
		case d.IsDir():
			m[rel] = "dir"
		default:
			b, _ := os.ReadFile(p)
			m[rel] = string(sha256.New().Sum(b))
		}
		return nil
	})
	return m
}

// changedOutside lists what changed between two snapshots of the base
// outside its working directory "w".
func changedOutside(before, after map[string]string) []string {
	var out []string
	for p, h := range after {
		if before[p] != h && !strings.HasPrefix(p, "w/") {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok && !strings.HasPrefix(p, "w/") {
			out = append(out, p+" (removed)")
		}
	}
	return out
}
