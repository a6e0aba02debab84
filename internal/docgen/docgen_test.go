package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
)

// TestGeneratedDocsAreCurrent fails when a generated part of the
// documentation no longer matches its table: regenerate with
// go run ./internal/docgen.
func TestGeneratedDocsAreCurrent(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	files, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if string(f.old) == string(f.new) {
			continue
		}
		old, new := strings.Split(string(f.old), "\n"), strings.Split(string(f.new), "\n")
		line := 0
		for line < len(old) && line < len(new) && old[line] == new[line] {
			line++
		}
		got, want := "(end of file)", "(end of file)"
		if line < len(old) {
			got = old[line]
		}
		if line < len(new) {
			want = new[line]
		}
		t.Errorf("%s is stale from line %d: run go run ./internal/docgen\n got: %s\nwant: %s", f.path, line+1, got, want)
	}
}

// TestAlsoNotesMatchTheRegistry: every family that covers names by shape
// has those shapes named in docs/rules.md, and only those.
func TestAlsoNotesMatchTheRegistry(t *testing.T) {
	shaped := map[string]bool{}
	for _, f := range argvrules.Registry() {
		if f.Also != nil {
			shaped[f.Name] = true
			if _, ok := alsoShapes[f.Name]; !ok {
				t.Errorf("family %s covers names by shape (Also): name them in alsoShapes", f.Name)
			}
		}
	}
	for name := range alsoShapes {
		if !shaped[name] {
			t.Errorf("alsoShapes names %s, which has no Also", name)
		}
	}
}

func TestFillRegions(t *testing.T) {
	gen := func(string) (string, error) { return "new\n", nil }
	rf := regionFile{path: "x.md", regions: map[string]func(string) (string, error){"a": gen}}
	for _, tt := range []struct{ doc, want, err string }{
		{"x\n<!-- docgen:begin a (note) -->\nold\nlines\n<!-- docgen:end a -->\ny\n", "x\n<!-- docgen:begin a (note) -->\nnew\n<!-- docgen:end a -->\ny\n", ""},
		{"x\n", "", "missing"},
		{"<!-- docgen:begin b -->\n<!-- docgen:end b -->\n", "", "unknown region"},
		{"<!-- docgen:begin a -->\nold\n", "", "not closed"},
		{"<!-- docgen:begin a -->\n<!-- docgen:end a -->\n<!-- docgen:begin a -->\n<!-- docgen:end a -->\n", "", "twice"},
	} {
		got, err := fillRegions("", rf, tt.doc)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%q: err %v, want %q", tt.doc, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%q: %q %v, want %q", tt.doc, got, err, tt.want)
		}
	}
}

// TestCheckWritesNothing: -check reports and leaves the files alone.
func TestCheckWritesNothing(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(root, "deploy", "example.env"))
	if err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	run(true, &out, &errs)
	after, _ := os.ReadFile(filepath.Join(root, "deploy", "example.env"))
	if string(before) != string(after) || errs.Len() > 0 {
		t.Errorf("-check changed a file or failed: %s", errs.String())
	}
}
