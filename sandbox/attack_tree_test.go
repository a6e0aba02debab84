//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttackWriteTreeSwappedForSymlink shows the escape openTree closes:
// a pipeline whose first stages rename the call's own TMPDIR and put a
// symlink to an outside directory in its place ("mv $D x | ln -s /out $D
// | cat | ... | touch /out/f", with the temporary directory inside an
// allowed directory) got a later stage whose ruleset, opened by path,
// granted writes to /out (reproduced through the server). A writable
// tree's last element is now opened without following a symlink, so the
// ruleset cannot be built and the stage does not start.
func TestAttackWriteTreeSwappedForSymlink(t *testing.T) {
	requireLandlock(t)
	abi, _ := KernelABI()
	outside, base := t.TempDir(), t.TempDir()
	link := filepath.Join(base, "mcp-shell-call-1")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if err := checkRuleset(policy{ABI: abi, Write: []string{link}}); err == nil {
		t.Fatalf("a ruleset granting writes beneath the symlink %s (to %s) was built", link, outside)
	}
	if err := checkRuleset(policy{ABI: abi, Write: []string{outside}}); err != nil {
		t.Fatalf("a real directory: %v", err)
	}
}

// TestAttackNestedAllowedDirectorySwapped: with nested allowed
// directories (nest and nest/a/src), a stage renamed nest/a and put a
// symlink to an outside directory in its place, so that the next ruleset,
// built from the path nest/a/src, granted writes outside. Rulesets are
// built from the descriptors opened when the launcher started, so the
// grant stays on the directory it was (now nest/b/src) and the write
// through the symlink fails.
func TestAttackNestedAllowedDirectorySwapped(t *testing.T) {
	requireLandlock(t)
	requirePrograms(t, "sh")
	nest, outside := t.TempDir(), t.TempDir()
	src := filepath.Join(nest, "a", "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(outside, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	l := newLauncher(t, Config{Mode: ModeLandlock, WriteDirs: []string{nest, src}, Limits: DefaultLimits(), Exec: shAny})
	if err := os.Rename(filepath.Join(nest, "a"), filepath.Join(nest, "b")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(nest, "a")); err != nil {
		t.Fatal(err)
	}
	o := call{l: l, dir: filepath.Join(nest, "b")}.run(t, "sh", "-c", "echo x > "+filepath.Join(src, "pwned"))
	if _, err := os.Stat(filepath.Join(outside, "src", "pwned")); err == nil {
		t.Errorf("the write through the swapped path landed outside: %v", o)
	}
	if o := (call{l: l, dir: filepath.Join(nest, "b")}).run(t, "sh", "-c", "echo x > src/ok"); o.exit != 0 {
		t.Errorf("the renamed tree is no longer writable: %v", o)
	}
}

// TestReadOnlyMounts: where the server may build it (root), a stage sees
// every mount read-only but its writable trees, so what Landlock does not
// cover, a file's timestamps and mode, cannot change outside them, by an
// absolute path or by climbing out of the working directory, while inside
// they can; under both start methods.
func TestReadOnlyMounts(t *testing.T) {
	requireLandlock(t)
	requirePrograms(t, "sh", "touch", "chmod")
	if err := probeReadOnlyWorld(); err != nil {
		t.Skipf("no read-only mounts here: %v", err)
	}
	outside := t.TempDir()
	canary := filepath.Join(outside, "canary")
	if err := os.WriteFile(canary, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(canary)
	for _, m := range methods {
		t.Run(m.name, func(t *testing.T) {
			work := t.TempDir()
			rel, _ := filepath.Rel(work, canary)
			l := newLauncherMethod(t, Config{Mode: ModeLandlock, WriteDirs: []string{work}, Limits: DefaultLimits(), Exec: shAny}, m.reexec)
			c := call{l: l, dir: work}
			for _, script := range []string{"touch -c -d @1 " + canary, "chmod 0666 " + canary, "touch -c -d @1 " + rel} {
				if o := c.run(t, "sh", "-c", script); o.exit == 0 || !strings.Contains(o.stderr, "Read-only file system") {
					t.Errorf("%s: %v, want EROFS", script, o)
				}
			}
			if o := c.run(t, "sh", "-c", "touch f && touch -d @1 f && chmod 0600 f"); o.exit != 0 {
				t.Errorf("metadata inside the writable tree: %v", o)
			}
		})
	}
	if after, _ := os.Stat(canary); !after.ModTime().Equal(before.ModTime()) || after.Mode() != before.Mode() {
		t.Errorf("the canary changed: %v %v", after.ModTime(), after.Mode())
	}
}
