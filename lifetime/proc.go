package lifetime

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// procStat is what the lifetime code reads from /proc/<pid>/stat
// (proc(5)): the fields that identify a process and place it in a tree.
type procStat struct {
	pid   int
	state byte // R, S, D, Z, T, t, X, ...
	ppid  int
	pgrp  int
	sid   int
	// start is field 22, the start time in clock ticks after boot. With
	// the pid it identifies one process: a reused pid has a later start.
	start uint64
}

// dead reports a process that has exited (a zombie or being reaped).
func (s procStat) dead() bool { return s.state == 'Z' || s.state == 'X' || s.state == 'x' }

// readStat reads /proc/<pid>/stat.
func readStat(pid int) (procStat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, err
	}
	return parseStat(b)
}

// parseStat parses a stat line. The command name (field 2) may contain
// spaces and parentheses, so the fields after it are found from the last
// ')'.
func parseStat(b []byte) (procStat, error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 1 || end < open {
		return procStat{}, fmt.Errorf("malformed stat line %q", b)
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil {
		return procStat{}, fmt.Errorf("malformed stat pid: %w", err)
	}
	f := strings.Fields(string(b[end+1:]))
	// f[0] is field 3 (state), so field n is f[n-3].
	if len(f) < 20 || len(f[0]) != 1 {
		return procStat{}, fmt.Errorf("short stat line %q", b)
	}
	s := procStat{pid: pid, state: f[0][0]}
	ints := []*int{&s.ppid, &s.pgrp, &s.sid}
	for i, p := range ints {
		if *p, err = strconv.Atoi(f[1+i]); err != nil {
			return procStat{}, fmt.Errorf("stat field %d: %w", 4+i, err)
		}
	}
	if s.start, err = strconv.ParseUint(f[22-3], 10, 64); err != nil {
		return procStat{}, fmt.Errorf("stat field 22: %w", err)
	}
	return s, nil
}

// children returns the children of every thread of pid, from
// /proc/<pid>/task/<tid>/children (Linux 3.5+, CONFIG_PROC_CHILDREN). A
// child belongs to the thread that forked it, or to the thread an orphan
// was handed to, so every thread is read. The list is a snapshot:
// processes created or re-parented while it is read may be missed, which
// callers make up for by reading again.
func children(pid int) ([]int, error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			if errors.Is(err, os.ErrNotExist) || errors.Is(err, unix.ESRCH) {
				continue // the thread exited meanwhile
			}
			return nil, err
		}
		for _, w := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(w); err == nil {
				out = append(out, n)
			}
		}
	}
	return out, nil
}

// bootTicks is the current time in the unit of procStat.start: clock
// ticks (USER_HZ, 100 on every Linux architecture) since boot.
func bootTicks() uint64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts) != nil {
		return 0
	}
	return uint64(ts.Nano()) / 1e7
}

// pidfdOf opens a pidfd for pid and checks, after opening, that it is still
// the process that started at start: from then on the pidfd cannot reach a
// process that reused the pid. It returns -1 when the process is gone or
// is another one.
func pidfdOf(pid int, start uint64) int {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return -1
	}
	if st, err := readStat(pid); err != nil || st.start != start {
		unix.Close(fd)
		return -1
	}
	return fd
}

// signalPidfd sends sig through fd; errors (the process has exited) are
// ignored.
func signalPidfd(fd int, sig unix.Signal) {
	_ = unix.PidfdSendSignal(fd, sig, nil, 0)
}
