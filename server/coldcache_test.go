package server

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// TestColdCache: a stage whose build cache no build has completed into
// yet (no trim.txt) makes the call cold, for its own family and for a
// family that starts go (make); a warm cache, a stage of no such family,
// or a cache the environment does not name does not, and only a call
// that asked for no timeout gets the maximum.
func TestColdCache(t *testing.T) {
	cold, warm := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(warm, "trim.txt"), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stage := func(family string, env ...string) plan.Stage { return plan.Stage{Family: family, Env: env} }
	ten := 10 * time.Second
	for _, tc := range []struct {
		name    string
		stage   plan.Stage
		timeout *time.Duration
		want    time.Duration
	}{
		{"go, empty cache", stage("go", "GOCACHE="+cold), nil, 300 * time.Second},
		{"go, missing cache", stage("go", "GOCACHE="+filepath.Join(cold, "none")), nil, 300 * time.Second},
		{"make starting go, empty cache", stage("make", "GOCACHE="+cold), nil, 300 * time.Second},
		{"go, empty cache, timeout asked for", stage("go", "GOCACHE="+cold), &ten, ten},
		{"go, warm cache", stage("go", "GOCACHE="+warm), nil, 30 * time.Second},
		{"go, no GOCACHE (sandbox off)", stage("go", "HOME="+cold), nil, 30 * time.Second},
		{"go, relative GOCACHE", stage("go", "GOCACHE=cache"), nil, 30 * time.Second},
		{"leaf with GOCACHE", stage("", "GOCACHE="+cold), nil, 30 * time.Second},
		{"cat with GOCACHE", stage("cat", "GOCACHE="+cold), nil, 30 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Server{opts: Options{Limits: Limits{DefaultTimeout: 30 * time.Second, MaxTimeout: 300 * time.Second}}}
			spec := s.spec(call{timeout: tc.timeout}, &plan.Call{Stages: []plan.Stage{tc.stage}})
			if spec.Timeout != tc.want {
				t.Errorf("timeout %v, want %v (cold cache %q)", spec.Timeout, tc.want, coldCache(&plan.Call{Stages: []plan.Stage{tc.stage}}))
			}
		})
	}
}

// TestColdCacheStaysWarm: once a cache was seen warm, deleting its marker
// (which any stage writing the cache can do) does not make it cold again,
// so no call can turn later calls' default timeout into the maximum.
func TestColdCacheStaysWarm(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "trim.txt")
	pl := &plan.Call{Stages: []plan.Stage{{Family: "go", Env: []string{"GOCACHE=" + dir}}}}
	if got := coldCache(pl); got == "" {
		t.Fatal("an empty cache is not cold")
	}
	if err := os.WriteFile(marker, []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := coldCache(pl); got != "" {
		t.Fatalf("a warm cache is cold: %q", got)
	}
	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}
	if got := coldCache(pl); got != "" {
		t.Fatalf("a cache seen warm is cold again after its marker was deleted: %q", got)
	}
}

// TestWarmCachesBounded: warm caches named by calls (a per-call GOCACHE)
// are remembered up to maxWarmCaches, not one more per call for the
// server's life; a cache past the bound is still judged by its marker.
func TestWarmCachesBounded(t *testing.T) {
	base := t.TempDir()
	for i := range maxWarmCaches + 64 {
		dir := filepath.Join(base, fmt.Sprint(i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "trim.txt"), []byte("1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := coldCache(&plan.Call{Stages: []plan.Stage{{Family: "go", Env: []string{"GOCACHE=" + dir}}}}); got != "" {
			t.Fatalf("warm cache %d is cold: %q", i, got)
		}
	}
	n := 0
	warmCaches.Range(func(any, any) bool { n++; return true })
	if n > maxWarmCaches {
		t.Errorf("%d warm caches remembered, bound %d", n, maxWarmCaches)
	}
	cold := filepath.Join(base, "cold")
	if got := coldCache(&plan.Call{Stages: []plan.Stage{{Family: "go", Env: []string{"GOCACHE=" + cold}}}}); got == "" {
		t.Error("past the bound, an empty cache is not cold")
	}
}
