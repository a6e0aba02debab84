//go:build windows

// Windows binds a call's processes with a Job Object instead of cgroups
// or process groups: created per call with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
// every stage is assigned to it while still suspended, so all its
// descendants are in it from their first instruction; Kill is
// TerminateJobObject, and closing the last handle (End, or the server's
// exit however it exits) kills whatever is left. Windows has no SIGTERM
// for other processes, so Signal does nothing and there is no grace.
//
// Written against the Win32 documentation of CreateJobObjectW,
// SetInformationJobObject, AssignProcessToJobObject, TerminateJobObject,
// CreateToolhelp32Snapshot/Thread32First/Thread32Next and ResumeThread;
// not run by this project's CI (which cross-compiles and vets it only).

package lifetime

import (
	"errors"
	"fmt"
	"os"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// killedExitCode is the exit code TerminateJobObject gives the call's
// processes: 137, the shell's code for a SIGKILLed process, so a killed
// stage reads the same on every platform.
const killedExitCode = 137

// jobWait bounds Kill's wait for the job to empty: the processes of a
// terminated job exit asynchronously, within milliseconds unless one is
// stuck in a driver (cgroupWait's reason on Linux).
const jobWait = 5 * time.Second

// jobPoll is how often Kill looks at the job's process count: Windows
// reports an empty job only through a completion port, which one short
// wait per kill does not justify.
const jobPoll = 5 * time.Millisecond

// callOS is the call's Job Object (0 before open).
type callOS struct{ job windows.Handle }

// basicAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION (winnt.h),
// which x/sys/windows does not declare.
type basicAccounting struct {
	TotalUserTime, TotalKernelTime                       int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime   int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses uint32
	TotalTerminatedProcesses                             uint32
}

// open creates the call's job, killed when its last handle closes.
func (o *callOS) open() error {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("creating the call's job object: %w", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(h)
		return fmt.Errorf("setting JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: %w", err)
	}
	o.job = h
	return nil
}

// bind wraps start: the new process (created with CREATE_SUSPENDED by
// the runner, runner/proc_windows.go) is assigned to the job, then its
// thread is resumed. A process that cannot be assigned is killed and
// reaped, and start fails: it must not run outside the job.
func (o *callOS) bind(start func() (*os.Process, error)) func() (*os.Process, error) {
	return func() (*os.Process, error) {
		p, err := start()
		if err != nil {
			return nil, err
		}
		if err := o.assign(uint32(p.Pid)); err != nil {
			_ = p.Kill()
			_, _ = p.Wait()
			return nil, fmt.Errorf("placing the process in the call's job object: %w", err)
		}
		return p, nil
	}
}

// assign puts pid in the job and resumes it. The os.Process the caller
// holds keeps its handle open, so pid cannot name another process yet.
func (o *callOS) assign(pid uint32) error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		return fmt.Errorf("OpenProcess: %w", err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(o.job, h); err != nil {
		return fmt.Errorf("AssignProcessToJobObject: %w", err)
	}
	return resumeThreads(pid)
}

// resumeThreads resumes every thread of pid: a process created suspended
// has exactly one, its initial thread, whose handle os.StartProcess does
// not return. ResumeThread on a thread that is not suspended does
// nothing.
func resumeThreads(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("CreateToolhelp32Snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		if rerr := resumeThread(te.ThreadID); rerr != nil {
			return rerr
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("Thread32Next: %w", err)
	}
	if resumed == 0 {
		return errors.New("the process has no thread to resume")
	}
	return nil
}

func resumeThread(tid uint32) error {
	th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, tid)
	if err != nil {
		return fmt.Errorf("OpenThread: %w", err)
	}
	defer windows.CloseHandle(th)
	if _, err := windows.ResumeThread(th); err != nil {
		return fmt.Errorf("ResumeThread: %w", err)
	}
	return nil
}

// kill terminates every process of the job and waits, up to jobWait, for
// none to be left.
func (o *callOS) kill() {
	if o.job == 0 {
		return
	}
	_ = windows.TerminateJobObject(o.job, killedExitCode) // fails only on a bad handle
	deadline := time.Now().Add(jobWait)
	for o.active() > 0 && time.Now().Before(deadline) {
		time.Sleep(jobPoll)
	}
}

// active is the job's count of live processes (0 when the query fails).
func (o *callOS) active() uint32 {
	var info basicAccounting
	if err := windows.QueryInformationJobObject(o.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return 0
	}
	return info.ActiveProcesses
}

// close releases the job; KILL_ON_JOB_CLOSE ends anything still in it.
func (o *callOS) close() {
	if o.job != 0 {
		windows.CloseHandle(o.job)
		o.job = 0
	}
}
