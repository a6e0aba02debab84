//go:build darwin || linux

// Launches POSIX programs through the launcher: Linux and macOS (Landlock parts skip off Linux).

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
)

// outsidePrefix is where the corpus rows write outside the working
// directory; the test substitutes a directory of its own so that nothing
// is written outside t.TempDir() even if containment failed.
const outsidePrefix = "/tmp/outside"

// interactive programs wait for a terminal the test cannot give them.
var interactive = []string{"nano"}

// TestCorpusDelegatedWritesContained runs every `delegated` row of
// gtfobins.jsonl and bugreports.jsonl that writes outside the working
// directory, first unconfined (mode off) to show the row really writes
// there, then under Landlock, where the write must not happen.
func TestCorpusDelegatedWritesContained(t *testing.T) {
	requireLandlock(t)
	var rows []testcases.Case
	for _, name := range []string{"gtfobins", "bugreports"} {
		for _, c := range testcases.Load(t, name) {
			if c.Expect == "delegated" && slices.ContainsFunc(c.Argv, func(a string) bool { return strings.Contains(a, outsidePrefix) }) {
				rows = append(rows, c)
			}
		}
	}
	if len(rows) == 0 {
		t.Fatal("no delegated rows writing outside the working directory; did the corpus change?")
	}
	demonstrated := 0
	for _, row := range rows {
		t.Run(row.ID, func(t *testing.T) {
			if slices.Contains(interactive, row.Argv[0]) {
				t.Skipf("%s needs a terminal", row.Argv[0])
			}
			requirePrograms(t, row.Argv[0])
			work, outside := t.TempDir(), t.TempDir()
			argv := make([]string, len(row.Argv))
			for i, a := range row.Argv {
				argv[i] = strings.ReplaceAll(a, outsidePrefix, outside)
			}
			stdin := row.Stdin
			if stdin == "" {
				stdin = "DATA\n"
			}
			off := call{l: newLauncher(t, Config{Mode: ModeOff}), dir: work, stdin: stdin}
			if off.run(t, argv...); dirEmpty(t, outside) {
				t.Logf("unconfined, %v wrote nothing outside; containment not demonstrated for this row", row.Argv)
			} else {
				demonstrated++
				if err := os.RemoveAll(outside); err != nil {
					t.Fatal(err)
				}
				if err := os.Mkdir(outside, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			l := newLauncher(t, Config{Mode: ModeLandlock, WriteDirs: []string{work}, Limits: DefaultLimits()})
			o := call{l: l, dir: work, stdin: stdin}.run(t, argv...)
			if !dirEmpty(t, outside) {
				t.Errorf("under Landlock %v wrote outside the working directory (%v)", row.Argv, o)
			}
		})
	}
	if demonstrated == 0 {
		t.Error("no row wrote outside when unconfined; the containment checks proved nothing")
	}
}

func dirEmpty(t *testing.T, dir string) bool {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) > 0 {
		t.Logf("%s holds %s", dir, filepath.Join(dir, ents[0].Name()))
	}
	return len(ents) == 0
}
