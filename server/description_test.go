package server

import (
	"strings"
	"testing"
	"time"
)

// TestDescriptionSaysHowFilesChange: the description names the ways to
// change a file with the programs allowed (sed -i, patch with stdin, ">"
// with stdin where the tool has redirections), and none that is not.
func TestDescriptionSaysHowFilesChange(t *testing.T) {
	t.Parallel()
	o := testOptions(t)
	o.Advertised = Allowlist{Commands: []string{"sed", "patch", "cat", "ls"}}
	s, _ := newServer(t, o)
	shell := s.description("lead", 30*time.Second, true)
	for _, want := range []string{`["sed","-i","s/old/new/","file.txt"]`, `["patch","-p1"] and the diff as stdin`, `["cat",">","file.txt"] and its content as stdin`} {
		if !strings.Contains(shell, want) {
			t.Errorf("description lacks %s:\n%s", want, shell)
		}
	}
	if exec := s.description("lead", 30*time.Second, false); strings.Contains(exec, `">"`) {
		t.Errorf("a tool without redirections advertises one:\n%s", exec)
	}
	o.Advertised = Allowlist{Commands: []string{"ls"}}
	s, _ = newServer(t, o)
	if d := s.description("lead", 30*time.Second, true); strings.Contains(d, "Changing files") {
		t.Errorf("no editing program allowed, yet:\n%s", d)
	}
}
