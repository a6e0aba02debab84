//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
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
