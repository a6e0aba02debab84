package policy

import (
	"slices"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// TestReadableFromConfinement: a recognizer may look where the stage may
// read: everywhere without Landlock; under Landlock only beneath the
// stage's Read and Write trees, and of the allowed directories only
// those.
func TestReadableFromConfinement(t *testing.T) {
	allowed := []string{"/w/a", "/w/b"}
	ll := plan.Confinement{Mode: sandbox.ModeLandlock, Read: []string{"/usr", "/etc"}, Write: []string{"/w/a", "/tmp/call"}}
	if got := readTrees(allowed, ll); !slices.Equal(got, []string{"/w/a"}) {
		t.Errorf("landlock read trees %q, want [/w/a]", got)
	}
	if got := readTrees(allowed, plan.Confinement{Mode: sandbox.ModeOff}); !slices.Equal(got, allowed) {
		t.Errorf("unconfined read trees %q, want %q", got, allowed)
	}
	r := readable(ll)
	for p, want := range map[string]bool{"/usr/local": true, "/etc/x": true, "/w/a/k": true, "/w/b/k": false, "/home/u/.ssh": false} {
		if r(p) != want {
			t.Errorf("landlock readable(%q) = %v, want %v", p, !want, want)
		}
	}
	if !readable(plan.Confinement{Mode: sandbox.ModeLimits})("/home/u/.ssh") {
		t.Error("limits mode: every path is readable by the stage")
	}
}

// TestRecognizerSeesReadTrees: the recognizers get the allowed
// directories and a readability predicate with the stage.
func TestRecognizerSeesReadTrees(t *testing.T) {
	var seen argvrules.Context
	p := testPolicy("fake")
	p.cfg.Recognize = func(_ []string, ctx argvrules.Context) *argvrules.Rejection { seen = ctx; return nil }
	dir := fixture(t)
	if _, err := decideIn(t, p, []string{"fake"}, dir); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(seen.ReadTrees, dir.Real()) || seen.Readable == nil {
		t.Errorf("recognizer context: ReadTrees %q, Readable set %v; want the allowed directory and a predicate", seen.ReadTrees, seen.Readable != nil)
	}
}
