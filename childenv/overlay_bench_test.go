package childenv

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkOverlay is a stage's environment as the policy builds it: the
// base environment with git's forty hardening entries laid over it, then
// the sandbox's few entries over that.
func BenchmarkOverlay(b *testing.B) {
	base := []string{"HOME=/home/u", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "LOGNAME=u", "PATH=/usr/local/bin:/usr/bin:/bin", "TMPDIR=/tmp/call", "USER=u"}
	var extra []string
	for i := range 20 {
		n := strconv.Itoa(i)
		extra = append(extra, "GIT_CONFIG_KEY_"+n+"=core.key"+n, "GIT_CONFIG_VALUE_"+n+"=value"+n)
	}
	extra = append(extra, "GIT_CONFIG_COUNT=20", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0", "GIT_PROXY_COMMAND=", "PAGER=cat")
	hardened := Overlay(base, extra)
	sandbox := []string{"TMPDIR=/tmp/call-2", "XDG_CACHE_HOME=/cache/xdg", "GOCACHE=/cache/go"}
	for _, bc := range []struct {
		name       string
		env, extra []string
	}{
		{"hardening", base, extra},
		{"sandbox", hardened, sandbox}, // the second layer of every stage
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if len(Overlay(bc.env, bc.extra)) < len(bc.env) {
					b.Fatal("entries lost")
				}
			}
		})
	}
}

// TestOverlayMergeMatchesSort: laying entries over an environment in
// name order (the merge) gives what the stable sort gives, for
// environments in order and out of it, with names replaced, repeated in
// extra, empty and sharing prefixes ("A" and "A_B": '=' sorts below '_').
func TestOverlayMergeMatchesSort(t *testing.T) {
	names := []string{"A", "A_B", "AB", "B", "GIT_PAGER", "GIT_PAGERX", "PATH", "Z"}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(n int) []string {
		var out []string
		for range n {
			out = append(out, names[rng.IntN(len(names))]+"="+strconv.Itoa(rng.IntN(3)))
		}
		return out
	}
	for i := range 2000 {
		env, extra := pick(rng.IntN(8)), pick(rng.IntN(6))
		if i%2 == 0 { // an environment as Build returns it: sorted, unique
			env = sortedUnique(env)
		}
		got := Overlay(env, extra)
		want := overlayBySort(env, extra)
		if !slices.Equal(got, want) {
			t.Fatalf("Overlay(%q, %q) = %q, want %q", env, extra, got, want)
		}
	}
}

// overlayBySort is Overlay's contract written the plain way.
func overlayBySort(env, extra []string) []string {
	name := func(kv string) string { n, _, _ := strings.Cut(kv, "="); return n }
	last := map[string]string{}
	for _, kv := range extra {
		last[name(kv)] = kv
	}
	var out []string
	for _, kv := range env {
		if _, ok := last[name(kv)]; !ok {
			out = append(out, kv)
		}
	}
	for _, kv := range last {
		out = append(out, kv)
	}
	slices.SortStableFunc(out, func(a, b string) int { return strings.Compare(name(a), name(b)) })
	return out
}

func sortedUnique(env []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, kv := range env {
		n, _, _ := strings.Cut(kv, "=")
		if !seen[n] {
			seen[n] = true
			out = append(out, kv)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		an, _, _ := strings.Cut(a, "=")
		bn, _, _ := strings.Cut(b, "=")
		return strings.Compare(an, bn)
	})
	return out
}
