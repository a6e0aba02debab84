//go:build linux

package server

import (
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// TestLibraryDenialNeedsStatus127: the loader's message is a library
// denial only when a confined stage exited 127 and the read list leaves
// the library's directory out.
func TestLibraryDenialNeedsStatus127(t *testing.T) {
	narrow := []string{t.TempDir()}
	if len(sandbox.LibraryDenials(narrow, []byte("ls: error while loading shared libraries: libc.so.6: cannot open shared object file: No such file or directory\n"))) == 0 {
		t.Skip("no libc.so.6 in the library directories")
	}
	p := &plan.Call{Stages: []plan.Stage{{Argv: []string{"ls"}, Confinement: plan.Confinement{Mode: sandbox.ModeLandlock}}}}
	stderr := []byte("ls: error while loading shared libraries: libc.so.6: cannot open shared object file: No such file or directory\n")
	code := func(n int) *int { return &n }
	for _, tc := range []struct {
		name     string
		status   int
		readDirs []string
		want     bool
	}{
		{"127, narrowed", 127, narrow, true},
		{"127, default list", 127, nil, false},
		{"1, narrowed", 1, narrow, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := outcome{kind: ran, plan: p, readDirs: tc.readDirs,
				run: runner.Result{Outcome: runner.Success, ExitCode: code(tc.status), Stages: []runner.StageStatus{{Argv0: "ls", ExitCode: code(tc.status)}}}}
			got := false
			for _, d := range denialsIn(o, stderr) {
				got = got || d.Kind == sandbox.DeniedLibrary
			}
			if got != tc.want {
				t.Errorf("library denial %v, want %v", got, tc.want)
			}
		})
	}
}
