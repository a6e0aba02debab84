//go:build windows

// Windows stages: created suspended in a new process group, without a
// console window, and resumed by lifetime once they are in the call's Job
// Object; there are no signals to send, so the whole tree is killed with
// TerminateJobObject (lifetime Call.Kill) and a stage's exit is observed
// on its process handle.

package runner

import (
	"syscall"

	"golang.org/x/sys/windows"

	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
)

// canTerminate is false: Windows has no SIGTERM for another process, so
// the grace period is skipped and terminate kills the job at once.
const canTerminate = false

// stageAttr is the SysProcAttr of a stage: CREATE_SUSPENDED so that it
// runs no instruction before lifetime has put it in the call's job (no
// window in which a descendant could escape it); CREATE_NEW_PROCESS_GROUP
// so that a Ctrl+C or Ctrl+Break for the server's console does not reach
// it; CREATE_NO_WINDOW so that a server started without a console (a
// desktop client) does not open one per stage.
func stageAttr(*lifetime.Call) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_NO_WINDOW,
	}
}

// waitExited blocks until pid has exited, without releasing it: the
// caller's os.Process holds a handle, so the pid is not reused before
// Wait.
func waitExited(pid int) {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return // gone already
	}
	defer windows.CloseHandle(h)
	_, _ = windows.WaitForSingleObject(h, windows.INFINITE)
}

// signalGroups does nothing: there are no process-group signals. killAll
// still kills every stage (os.Process.Kill, TerminateProcess) and the
// call's job.
func (g *group) signalGroups(syscall.Signal) {}

// signalName is never needed (a Windows wait status never reports a
// signal), but keeps status portable.
func signalName(sig syscall.Signal) string { return sig.String() }
