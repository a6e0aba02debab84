package main

import (
	"os"
	"strings"
	"testing"
)

// TestMissReasonAnchors: every reason links to a heading that exists in
// bench/README.md (GitHub's anchor of it), so a renamed section fails here
// rather than leaving BENCHMARKS.md with a dead link.
func TestMissReasonAnchors(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	keep := func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		if r == ' ' {
			return '-'
		}
		return -1
	}
	for _, line := range strings.Split(string(readme), "\n") {
		if h, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") {
			anchors[strings.Map(keep, strings.ToLower(h))] = true
		}
	}
	for _, r := range missReasons {
		if !anchors[r.anchor] {
			t.Errorf("reason for %q links to #%s, which is no heading of bench/README.md", r.prefix, r.anchor)
		}
	}
}

// TestWriteMisses: a missed goal gets its reason, an unexplained one says
// so, and met or unjudged goals are not listed.
func TestWriteMisses(t *testing.T) {
	yes, no := true, false
	var w strings.Builder
	writeMisses(&w, []goal{
		{name: "HTTP `true`, 4 clients", met: &no},
		{name: "HTTP `true`, 16 clients", met: &no},
		{name: "a goal nobody profiled", met: &no},
		{name: "sandbox cost per stage", met: &yes},
		{name: "start-up vs peer"},
	})
	out := w.String()
	for _, want := range []string{"**HTTP `true`, 4 clients**: not serialised", "#" + smallCalls, "**a goal nobody profiled**: no profile yet.", "**HTTP `true`, 16 clients**: as **HTTP `true`, 4 clients**."} {
		if !strings.Contains(out, want) {
			t.Errorf("misses section lacks %q:\n%s", want, out)
		}
	}
	for _, unwanted := range []string{"sandbox cost per stage", "start-up vs peer"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("misses section lists %q, which was not missed:\n%s", unwanted, out)
		}
	}
}
