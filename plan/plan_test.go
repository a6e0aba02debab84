package plan

import (
	"slices"
	"testing"
)

// TestEnvNames: the audit's child_env lists the names every stage got,
// sorted and once each, across the stages.
func TestEnvNames(t *testing.T) {
	for _, tt := range []struct {
		stages []Stage
		want   []string
	}{
		{nil, nil},
		{[]Stage{{Env: []string{"PATH=/usr/bin", "HOME=/h", "LANG=C", "GIT_CONFIG_KEY_0=core.pager", "TMPDIR=/t"}},
			{Env: []string{"PATH=/usr/bin", "GOCACHE=/c", "HOME=/h2"}}},
			[]string{"GIT_CONFIG_KEY_0", "GOCACHE", "HOME", "LANG", "PATH", "TMPDIR"}},
	} {
		c := &Call{Stages: tt.stages}
		if got := c.EnvNames(); !slices.Equal(got, tt.want) {
			t.Errorf("EnvNames(%v) = %q, want %q", tt.stages, got, tt.want)
		}
	}
}

// TestCloseReleasesOnce: Close gives the temporary directory back once,
// however often it is called, and a nil Call is a no-op.
func TestCloseReleasesOnce(t *testing.T) {
	var released []string
	c := &Call{}
	c.SetTempDir("/tmp/x", func(d string) { released = append(released, d) })
	c.Close()
	c.Close()
	if !slices.Equal(released, []string{"/tmp/x"}) {
		t.Errorf("released %q, want /tmp/x once", released)
	}
	(*Call)(nil).Close()
}
