//go:build unix

// The red team's working directory (symlinks to /dev and /proc, a FIFO):
// Unix only; the rows themselves (redteam_test.go) seed the fuzzers
// everywhere.

package argvrules

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// redTeamDir is testDir plus the symlinks and special files of the red
// team's working directory: in -> /dev/stdin, fd0 -> /proc/self/fd/0,
// devdir -> /dev, loop -> loop, link -> sub, usr -> /usr, and the FIFO fifo.
func redTeamDir(t testing.TB) string {
	t.Helper()
	dir := testDir(t)
	for name, target := range map[string]string{
		"in": "/dev/stdin", "fd0": "/proc/self/fd/0", "devdir": "/dev", "loop": "loop", "link": "sub", "usr": "/usr",
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestRedTeam(t *testing.T) {
	ctx := pinCtx(t, redTeamDir(t))
	for _, r := range redTeamRows {
		expectRule(t, ctx, r.argv, r.rule)
	}
}
