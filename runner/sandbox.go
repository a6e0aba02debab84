package runner

import (
	"os"
	"slices"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// callSandbox is one call's use of Spec.Sandbox: the launcher and the
// call's private temporary directory ("" when not confined).
type callSandbox struct {
	l   *sandbox.Launcher
	tmp string
}

// newCallSandbox returns nil without Spec.Sandbox. For a confined call it
// creates the private temporary directory and sets TMPDIR in s.Env (a
// copy) unless Env already has it.
func newCallSandbox(s *Spec) (*callSandbox, error) {
	if s.Sandbox == nil {
		return nil, nil
	}
	sb := &callSandbox{l: s.Sandbox}
	if !s.Sandbox.Confined() {
		return sb, nil
	}
	dir, err := s.Sandbox.CallDir()
	if err != nil {
		return nil, &LaunchError{Argv0: s.Stages[0][0], Err: err}
	}
	sb.tmp = dir
	if !slices.ContainsFunc(s.Env, func(kv string) bool { return strings.HasPrefix(kv, "TMPDIR=") }) {
		s.Env = append(slices.Clip(s.Env), "TMPDIR="+dir)
	}
	return sb, nil
}

// start starts one stage through the launcher, with the call's private
// temporary directory writable.
func (sb *callSandbox) start(path string, argv []string, attr *os.ProcAttr) (*os.Process, error) {
	st := sandbox.Stage{Path: path, Argv: argv}
	if sb.tmp != "" {
		st.Writable = []string{sb.tmp}
	}
	return sb.l.Start(st, attr)
}

// cleanup gives the temporary directory back to the launcher, which
// removes it in the background. Every process of the call has been
// killed by then.
func (sb *callSandbox) cleanup() {
	if sb == nil || sb.tmp == "" {
		return
	}
	sb.l.ReleaseCallDir(sb.tmp)
}
