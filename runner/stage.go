package runner

import (
	"context"
	"os"

	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// startStage starts one stage of call c with attr (files, directory,
// environment already set) and is the only place that decides how a stage
// is started (stageAttr: this list on Linux; macOS keeps only Setsid,
// proc_darwin.go; Windows starts it suspended in a new process group for
// lifetime's Job Object, proc_windows.go):
//
//   - Setsid: the stage leads a new session and process group (its pid is
//     both ids), so it has no controlling terminal: /dev/tty fails with
//     ENXIO and nothing it starts can reach the server's terminal. A pipeline
//     is one session per stage (a process cannot join a group in another
//     session), and the runner signals each stage's group.
//   - Pdeathsig SIGKILL: the stage dies with the server, even of SIGKILL.
//     That holds only because lifetime forks on a thread that lives as long
//     as the process (see lifetime/forker.go); a start path that forks
//     elsewhere must keep its forking thread alive until the stage is reaped.
//   - UseCgroupFD/CgroupFD: in lifetime's cgroup mode the stage is created
//     inside the call's cgroup (clone3 CLONE_INTO_CGROUP), so it and all its
//     descendants are in it from the first instruction.
//   - With a sandbox, the launcher starts the stage from its restricted
//     thread (which lives until the stage exits, so the parent-death signal
//     still means the server died) and keeps these attributes.
//   - ctx bounds a sandboxed start (sandbox.Launcher.StartContext): the
//     call's deadline ends a start the launcher cannot finish.
func startStage(ctx context.Context, c *lifetime.Call, st *plan.Stage, attr *os.ProcAttr, l *sandbox.Launcher) (*os.Process, error) {
	if testHookStart != nil {
		if err := testHookStart(ctx, st); err != nil {
			return nil, err
		}
	}
	attr.Sys = stageAttr(c)
	if l != nil {
		return c.StartWith(func() (*os.Process, error) { return l.StartContext(ctx, st, attr) })
	}
	return c.Start(st.Program.ExecPath(), st.Argv, attr)
}

// testHookStart, set only by tests, runs before each stage's start with
// its context; an error ends that start as a launcher's refusal would
// (the fault injection of a start that cannot finish).
var testHookStart func(ctx context.Context, st *plan.Stage) error
