package lifetime

import (
	"runtime"
	"testing"
)

// TestPlatformFallback: without Setup, calls are bound by the platform's
// own mechanism (Session on Linux, Pgroup on macOS, a Job Object on
// Windows), and a call that started nothing begins and ends cleanly.
func TestPlatformFallback(t *testing.T) {
	want := map[string]Mechanism{"linux": Session, "darwin": Pgroup, "windows": Job}[runtime.GOOS]
	m := fallback()
	if m.Mechanism() != want {
		t.Fatalf("fallback mechanism on %s = %q, want %q", runtime.GOOS, m.Mechanism(), want)
	}
	c, err := m.NewCall()
	if err != nil {
		t.Fatalf("NewCall: %v", err)
	}
	if c.Mechanism() != want || c.CgroupFD() != -1 {
		t.Errorf("call mechanism %q, cgroup fd %d; want %q and -1", c.Mechanism(), c.CgroupFD(), want)
	}
	c.Kill()
	c.End()
	c.End() // later calls do nothing
}
