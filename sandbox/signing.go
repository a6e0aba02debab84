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
// non-zero when it cannot sign), and any other stage could print it.
func SigningDenials(p *plan.Call, failed func(stage int) bool, stderr []byte) []Denial {
	if p == nil || !gpgFailed.Match(stderr) {
		return nil
	}
	for i, st := range p.Stages {
		if st.Family == "git" && st.Confinement.Mode == ModeLandlock && failed(i) {
			return []Denial{{Kind: DeniedSigning, Target: "gpg", Guess: true}}
		}
	}
	return nil
}
