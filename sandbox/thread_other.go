//go:build !linux

// Without Linux there is no per-thread restriction to start a stage
// from (no no_new_privs, Landlock or seccomp) and no traced start: the
// rlimits go through the re-executed launcher (launch_unix.go) and a
// stage without rlimits starts directly.

package sandbox

import (
	"context"
	"os"
)

// injectSupported is false: stages are confined from inside on Linux
// only.
const injectSupported = false

// traceWorks is false: PTRACE_TRACEME with prlimit(2) is Linux-only.
func traceWorks() bool { return false }

// threadPool has no threads to keep off Linux.
type threadPool struct{}

// start starts the stage directly: pl carries no per-thread restriction
// off Linux (Probe refuses Landlock there).
func (*threadPool) start(_ context.Context, path string, argv []string, attr *os.ProcAttr, _ applied) (*os.Process, error) {
	p, err := os.StartProcess(path, argv, attr)
	if err != nil {
		return nil, execError(path, err)
	}
	return p, nil
}
