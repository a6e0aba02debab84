//go:build linux

package day

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// binary is the server, built once.
var binary string

func TestMain(m *testing.M) {
	var remove func()
	binary, remove = testcases.BuildServer("../../cmd/mcp-shell-server")
	code := m.Run()
	remove()
	os.Exit(code)
}

// modes are the two runs of the day: unconfined, then the default.
var modes = []string{"off", "default"}

// TestDay runs the corpus with the sandbox off and under the default
// sandbox, each on a machine of its own built the same way, and requires
// every row to succeed in both. Without MCP_SHELL_TEST_HEAVY=1 it runs
// the rows marked key (the examples and one row per family).
func TestDay(t *testing.T) {
	if abi, err := sandbox.KernelABI(); err != nil || abi < sandbox.ABINetwork {
		if os.Getenv("MCP_SHELL_REQUIRE_LANDLOCK") != "" {
			t.Fatalf("Landlock ABI %d (%v) and MCP_SHELL_REQUIRE_LANDLOCK is set", abi, err)
		}
		t.Skipf("Landlock ABI %d (%v): the default sandbox does not confine here", abi, err)
	}
	for _, p := range []string{"git", "go"} {
		testenv.Program(t, p)
	}
	rows := selected(t)
	results := make([][]outcome, len(modes))
	fixtures := make([]*fixture, len(modes))
	t.Run("modes", func(t *testing.T) {
		for i, m := range modes {
			t.Run(m, func(t *testing.T) {
				t.Parallel()
				f := newFixture(t, m)
				fixtures[i] = f
				for _, x := range rows {
					results[i] = append(results[i], f.call(t, f.expand(x)))
				}
				if m == "default" {
					t.Run("denials", func(t *testing.T) { testDenials(t, f) })
				}
			})
		}
	})
	if len(results[0]) != len(rows) || len(results[1]) != len(rows) {
		t.Fatal("a mode did not run every row")
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-10s %-58s %-8s %s\n", "family", "command", "off", "default")
	for j, x := range rows {
		off, on := results[0][j], results[1][j]
		command := strings.Join(x.argv, " ")
		if x.cold {
			command += " (empty cache)"
		}
		fmt.Fprintf(&table, "%-10s %-58s %-8s %s\n", x.family, clip(command, 58), verdict(off), verdict(on))
		switch {
		case !off.ok:
			t.Errorf("%s: %q fails with the sandbox off (%s), so the row proves nothing:\n%s", x.family, x.argv, off.exit, clip(off.text, 1500))
		case !on.ok:
			t.Errorf("%s: %q succeeds with the sandbox off and fails under the default sandbox (%s):\n%s", x.family, x.argv, on.exit, clip(on.text, 1500))
		}
	}
	t.Logf("the day, family × command (%d rows):\n%s", len(rows), table.String())
	if t.Failed() && fixtures[1] != nil {
		if log, err := os.ReadFile(fixtures[1].serverLog); err == nil {
			t.Logf("default-mode server log:\n%s", clip(string(log), 4000))
		}
	}
}

// selected are the rows this run covers: all of them under Heavy, the
// key rows otherwise; a row whose program is missing is skipped (a
// failure under MCP_SHELL_TEST_REQUIRE_PROGRAMS=1).
func selected(t *testing.T) []row {
	var out []row
	for _, x := range corpus {
		if !testenv.Heavy() && (!x.light || x.heavy) {
			continue
		}
		if missing := missingProgram(x); missing != "" {
			if testenv.RequirePrograms() && !optional[missing] {
				t.Errorf("%s: %q needs %s, and MCP_SHELL_TEST_REQUIRE_PROGRAMS=1 requires it", x.family, x.argv, missing)
			}
			t.Logf("skipped %q: %s not installed", x.argv, missing)
			continue
		}
		out = append(out, x)
	}
	return out
}

// optional are programs CI need not install (clang is large; cargo comes
// from rustup, not Debian; go may come from a distribution's package
// instead of the toolchain's archive in /usr/local/go).
var optional = map[string]bool{"clang": true, "cargo": true, "/usr/local/go/bin/go": true}

func missingProgram(x row) string {
	for _, p := range append(append([]string{}, x.needs...), x.argv[0]) {
		if strings.Contains(p, "{") {
			continue
		}
		if filepath.IsAbs(p) {
			if _, err := os.Stat(p); err != nil {
				return p
			}
		} else if _, err := exec.LookPath(p); err != nil {
			return p
		}
	}
	return ""
}

// expand puts the fixture's allowed directory into the row.
func (f *fixture) expand(x row) row {
	sub := func(s string) string { return strings.ReplaceAll(s, "{work}", f.work) }
	argv := make([]string, len(x.argv))
	for i, a := range x.argv {
		argv[i] = sub(a)
	}
	x.argv = argv
	if x.envs != nil {
		envs := map[string]string{}
		for k, v := range x.envs {
			envs[k] = sub(v)
		}
		x.envs = envs
	}
	return x
}

func verdict(o outcome) string {
	if o.ok {
		return "ok"
	}
	return "FAIL(" + o.exit + ")"
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
