package policy

import (
	"slices"
	"strings"
	"testing"
)

// TestHardeningSafeDirectories: the git configuration every stage gets
// names the policy's allowed directories and the call's directory in
// safe.directory, after a reset, and never "*".
func TestHardeningSafeDirectories(t *testing.T) {
	p := New(Config{AllowedDirs: []string{"/w/a", "/w/b"}})
	env := p.hardening("/w/b/proj/sub")
	vals := map[string]string{}
	for _, e := range env {
		k, v, _ := strings.Cut(e, "=")
		vals[k] = v
	}
	var safe []string
	for k, v := range vals {
		if n, ok := strings.CutPrefix(k, "GIT_CONFIG_KEY_"); ok && v == "safe.directory" {
			safe = append(safe, vals["GIT_CONFIG_VALUE_"+n])
		}
	}
	slices.Sort(safe)
	want := []string{"", "/w/a", "/w/a/*", "/w/b", "/w/b/*", "/w/b/proj", "/w/b/proj/sub"}
	if !slices.Equal(safe, want) {
		t.Errorf("safe.directory values %q, want %q", safe, want)
	}
}
