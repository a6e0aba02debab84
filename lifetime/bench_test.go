//go:build linux

// The cgroup mechanism's cost: Linux only.

package lifetime

import "testing"

// BenchmarkCgroupCallOverhead is the cost cgroup mode adds to a call that
// leaves nothing behind: take the call's cgroup, kill it (empty), release
// it (kept for the next call).
func BenchmarkCgroupCallOverhead(b *testing.B) {
	tree, err := newCgroupTree()
	if err != nil {
		b.Skipf("no writable cgroup v2: %v", err)
	}
	defer tree.remove()
	for b.Loop() {
		c, err := tree.newCall()
		if err != nil {
			b.Fatal(err)
		}
		if err := c.kill(); err != nil {
			b.Fatal(err)
		}
		tree.release(c)
	}
}
