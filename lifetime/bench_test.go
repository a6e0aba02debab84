//go:build linux

// The cgroup mechanism's cost: Linux only.

package lifetime

import "testing"

// BenchmarkCgroupCallOverhead is the cost cgroup mode adds to a call that
// leaves nothing behind: create the call's cgroup, kill it (empty), remove
// it.
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
		c.remove()
	}
}
