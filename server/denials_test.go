package server

import (
	"fmt"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// TestSigningDenialNeedsFailedGit: git's gpg message in a pipeline's
// shared stderr is a signing denial only when a confined git stage
// failed; printed by another stage beside a git that succeeded (git
// --version | make, the recipe echoing it) it puts no denial into the
// result or the audit record.
func TestSigningDenialNeedsFailedGit(t *testing.T) {
	confined := plan.Confinement{Mode: sandbox.ModeLandlock}
	p := &plan.Call{Stages: []plan.Stage{{Family: "git", Confinement: confined}, {Family: "make", Confinement: confined}}}
	code := func(n int) *int { return &n }
	stderr := []byte("error: gpg failed to sign the data\nmake: *** [Makefile:2: forge] Error 1\n")
	for _, tc := range []struct {
		name   string
		stages []runner.StageStatus
		want   bool
	}{
		{"git succeeded, make printed it", []runner.StageStatus{{Argv0: "git", ExitCode: code(0)}, {Argv0: "make", ExitCode: code(2)}}, false},
		{"git failed", []runner.StageStatus{{Argv0: "git", ExitCode: code(128)}, {Argv0: "make", ExitCode: code(0)}}, true},
		{"git killed", []runner.StageStatus{{Argv0: "git", Signal: "SIGKILL"}, {Argv0: "make", ExitCode: code(2)}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			last := tc.stages[len(tc.stages)-1].ExitCode
			if last != nil && *last == 0 {
				last = code(128) // the pipeline fails with its failing stage
			}
			o := outcome{kind: ran, plan: p, run: runner.Result{Outcome: runner.Success, ExitCode: last, Stages: tc.stages}}
			got := false
			for _, d := range denialsIn(o, stderr) {
				got = got || d.Kind == sandbox.DeniedSigning
			}
			if got != tc.want {
				t.Errorf("signing denial %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDenialsCapped: a call reports at most sandbox.MaxDenials, and a
// signing denial read from git's own message keeps its place when the
// guessed lines fill the cap (a stderr of eight denied-looking lines
// and git's gpg failure reported nine, the signing one last).
func TestDenialsCapped(t *testing.T) {
	confined := plan.Confinement{Mode: sandbox.ModeLandlock}
	p := &plan.Call{Stages: []plan.Stage{{Family: "git", Confinement: confined}}}
	code := 128
	var stderr []byte
	for i := range 3 * sandbox.MaxDenials {
		stderr = fmt.Appendf(stderr, "cannot open /x/%d: Permission denied\n", i)
	}
	stderr = append(stderr, "error: gpg failed to sign the data\n"...)
	o := outcome{kind: ran, plan: p, run: runner.Result{Outcome: runner.Success, ExitCode: &code,
		Stages: []runner.StageStatus{{Argv0: "git", ExitCode: &code}}}}
	ds := denialsIn(o, stderr)
	if len(ds) != sandbox.MaxDenials {
		t.Fatalf("%d denials, want the cap %d", len(ds), sandbox.MaxDenials)
	}
	if last := ds[len(ds)-1]; last.Kind != sandbox.DeniedSigning {
		t.Errorf("last denial %v, want the signing one", last)
	}
}

// TestCredentialDenialNeedsFailedStage: a registry's 401 printed by
// another stage beside an npm that succeeded (npm --version | make, the
// recipe echoing "npm error code E401") is no credential denial: it
// would advise granting npm the real tokens.
func TestCredentialDenialNeedsFailedStage(t *testing.T) {
	confined := plan.Confinement{Mode: sandbox.ModeLandlock}
	npm := plan.Stage{Family: "npm", Confinement: confined, Env: []string{"npm_config_userconfig=/tmp/c/.config-copies/npmrc"}}
	p := &plan.Call{Stages: []plan.Stage{npm, {Family: "make", Confinement: confined}}}
	ok, bad := 0, 2
	for _, tc := range []struct {
		name      string
		npm, make int
		want      bool
	}{
		{"npm succeeded, make printed it", ok, bad, false},
		{"npm failed", bad, ok, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status := tc.make
			if status == ok {
				status = tc.npm
			}
			o := outcome{kind: ran, plan: p, run: runner.Result{Outcome: runner.Success, ExitCode: &status,
				Stages: []runner.StageStatus{{Argv0: "npm", ExitCode: &tc.npm}, {Argv0: "make", ExitCode: &tc.make}}}}
			got := false
			for _, d := range denialsIn(o, []byte("npm error code E401\n")) {
				got = got || d.Kind == sandbox.DeniedCredentials
			}
			if got != tc.want {
				t.Errorf("credential denial %v, want %v", got, tc.want)
			}
		})
	}
}
