package cli

import (
	"runtime/debug"
	"testing"
)

// TestFormatVersion: the version stamped at build
// time wins, then the module version, then "devel"; the module version
// and the commit are shown when the build recorded them.
func TestFormatVersion(t *testing.T) {
	t.Parallel()
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "c0f8a2a70e4db7c93df82db2c96796016e244e0f"}, {Key: "vcs.time", Value: "2026-12-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}
	info := func(module string, settings ...debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/seed-b63acb1b/mcp-shell-server", Version: module}, Settings: settings}
	}
	for _, tt := range []struct {
		name  string
		stamp string
		bi    *debug.BuildInfo
		want  string
	}{
		{"no build information", "", nil, "devel"},
		{"a source build without VCS stamping", "", info("(devel)"), "devel go1.26.8"},
		{"go install module@version", "", info("v1.2.3"), "v1.2.3 go1.26.8"},
		{"-buildvcs in a clone: go's VCS version and the commit", "", info("v0.0.0-20261201100000-c0f8a2a70e4d+dirty", vcs...),
			"v0.0.0-20261201100000-c0f8a2a70e4d+dirty (commit c0f8a2a70e4d+dirty, 2026-12-01T10:00:00Z) go1.26.8"},
		{"-ldflags stamp without VCS", "v1.2.3-4-gc0f8a2a", info("(devel)"), "v1.2.3-4-gc0f8a2a go1.26.8"},
		{"-ldflags stamp and VCS", "v1.2.3", info("v0.0.0-20261201100000-c0f8a2a70e4d+dirty", vcs...),
			"v1.2.3 (module v0.0.0-20261201100000-c0f8a2a70e4d+dirty, commit c0f8a2a70e4d+dirty, 2026-12-01T10:00:00Z) go1.26.8"},
		{"stamp equal to the module version is not repeated", "v1.2.3", info("v1.2.3"), "v1.2.3 go1.26.8"},
	} {
		if got := formatVersion(tt.stamp, tt.bi); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
