package sandbox

import (
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// TestSigningDenials: git's gpg failure in a confined git stage is a
// signing denial whose hint names what signs confined (lock-never, ssh
// signing) and that ~/.gnupg stays read-only; the same message from an
// unconfined stage, or another family's, or beside a git stage that
// succeeded (another stage of the pipeline printed it), is none.
func TestSigningDenials(t *testing.T) {
	git := func(mode string) *plan.Call {
		return &plan.Call{Stages: []plan.Stage{{Family: "git", Confinement: plan.Confinement{Mode: mode}}}}
	}
	stderr := []byte("error: gpg failed to sign the data\nfatal: failed to write commit object\n")
	pipeline := &plan.Call{Stages: []plan.Stage{
		{Family: "git", Confinement: plan.Confinement{Mode: ModeLandlock}},
		{Family: "make", Confinement: plan.Confinement{Mode: ModeLandlock}},
	}}
	// sub is p with its first stage running the git subcommand name.
	sub := func(p *plan.Call, name string) *plan.Call {
		c := &plan.Call{Stages: append([]plan.Stage{}, p.Stages...)}
		c.Stages[0].Subcommands = []string{name}
		return c
	}
	for _, tc := range []struct {
		name   string
		p      *plan.Call
		failed []bool // per stage; nil: every stage failed
		stderr []byte
		want   int
	}{
		{"confined git commit -S", git(ModeLandlock), nil, stderr, 1},
		{"unconfined", git(ModeOff), nil, stderr, 0},
		{"another message", git(ModeLandlock), nil, []byte("fatal: not a git repository\n"), 0},
		{"not git", &plan.Call{Stages: []plan.Stage{{Family: "make", Confinement: plan.Confinement{Mode: ModeLandlock}}}}, nil, stderr, 0},
		{"no plan", nil, nil, stderr, 0},
		{"git succeeded, the next stage printed it", pipeline, []bool{false, true}, stderr, 0},
		{"git failed in a pipeline", pipeline, []bool{true, false}, stderr, 1},
		// git status --bogus | make, the recipe echoing git's message:
		// a git that failed but cannot sign
		{"git status failed, the next stage printed it", sub(pipeline, "status"), nil, stderr, 0},
		{"git commit failed in a pipeline", sub(pipeline, "commit"), []bool{true, false}, stderr, 1},
		{"git tag", sub(git(ModeLandlock), "tag"), nil, stderr, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			failed := func(i int) bool { return tc.failed == nil || tc.failed[i] }
			ds := SigningDenials(tc.p, failed, tc.stderr)
			if len(ds) != tc.want {
				t.Fatalf("%d denials, want %d: %+v", len(ds), tc.want, ds)
			}
			if tc.want == 0 {
				return
			}
			h := Hint(ds, DefaultReadDirs)
			for _, want := range []string{"a guess", "gpg's signature", "lock-never", "gpg.format=ssh", "gpg-agent", "read-only", "MCP_SHELL_SANDBOX=off"} {
				if !strings.Contains(h, want) {
					t.Errorf("hint %q lacks %q", h, want)
				}
			}
			if strings.Contains(h, "\n") {
				t.Errorf("hint %q is more than one line", h)
			}
		})
	}
}
