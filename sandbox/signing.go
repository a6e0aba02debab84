package sandbox

import (
	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// gpgFailed is git's message when gpg.program exits non-zero or prints
// no signature (git 2.39–2.53 gpg-interface.c sign_buffer_gpg); gpg's
// own stderr, which would name the lock or the agent, is not shown.
var gpgFailed = lazyre.New(`(?m)^error: gpg failed to sign the data$`)

// SigningDenials is the signing denial of p's confined git stages when
// stderr shows git's gpg failure. failed(i) says whether stage i ended
// other than with status 0: a pipeline's stages share one stderr, so the
// message proves nothing about a git stage that succeeded (git exits
// non-zero when it cannot sign), and any other stage could print it;
// nor about a git stage whose subcommand makes nothing to sign (git
// status --bogus | make, the recipe echoing it).
func SigningDenials(p *plan.Call, failed func(stage int) bool, stderr []byte) []Denial {
	if p == nil || !gpgFailed.Match(stderr) {
		return nil
	}
	for i, st := range p.Stages {
		if st.Family == "git" && st.Confinement.Mode == ModeLandlock && failed(i) && maySign(st.Subcommands) {
			return []Denial{{Kind: DeniedSigning, Target: "gpg", Guess: true}}
		}
	}
	return nil
}

// signingSubcommands are git's commands that make a commit, tag or push
// certificate, which commit.gpgSign, tag.gpgSign, push.gpgSign or -S can
// make signed (git-config(1)); stash and notes commit too.
var signingSubcommands = map[string]bool{
	"commit": true, "commit-tree": true, "tag": true, "merge": true, "pull": true, "rebase": true, "am": true,
	"cherry-pick": true, "revert": true, "push": true, "stash": true, "notes": true, "replace": true,
}

// maySign reports whether a git stage running subs can sign: a stage
// whose subcommand the grammar did not name may.
func maySign(subs []string) bool {
	if len(subs) == 0 {
		return true
	}
	for _, s := range subs {
		if signingSubcommands[s] {
			return true
		}
	}
	return false
}
