// Package procfs reads the parts of /proc (proc(5)) that place a process
// in the process tree: its stat line and its children. Shared by package
// lifetime and the lifetime tests.
package procfs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Stat is what is read from /proc/<pid>/stat.
type Stat struct {
	Pid   int
	State byte // R, S, D, Z, T, t, X, ...
	PPid  int
	Pgrp  int
	Sid   int
	// Start is field 22, the start time in clock ticks after boot. With
	// the pid it identifies one process: a reused pid has a later start.
	Start uint64
}

// Zombie reports a process shown as exited (Z, X). A process whose first
// thread has exited shows Z while its other threads may still run: only a
// pidfd tells when the whole process is gone.
func (s Stat) Zombie() bool { return s.State == 'Z' || s.State == 'X' || s.State == 'x' }

// ReadStat reads /proc/<pid>/stat.
func ReadStat(pid int) (Stat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, err
	}
	return ParseStat(b)
}

// ParseStat parses a stat line. The command name (field 2) may contain
// spaces and parentheses, so the fields after it are found from the last
// ')'.
func ParseStat(b []byte) (Stat, error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 1 || end < open {
		return Stat{}, fmt.Errorf("malformed stat line %q", b)
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil {
		return Stat{}, fmt.Errorf("malformed stat pid: %w", err)
	}
	f := strings.Fields(string(b[end+1:]))
	// f[0] is field 3 (state), so field n is f[n-3].
	if len(f) < 20 || len(f[0]) != 1 {
		return Stat{}, fmt.Errorf("short stat line %q", b)
	}
	s := Stat{Pid: pid, State: f[0][0]}
	for i, p := range []*int{&s.PPid, &s.Pgrp, &s.Sid} {
		if *p, err = strconv.Atoi(f[1+i]); err != nil {
			return Stat{}, fmt.Errorf("stat field %d: %w", 4+i, err)
		}
	}
	if s.Start, err = strconv.ParseUint(f[22-3], 10, 64); err != nil {
		return Stat{}, fmt.Errorf("stat field 22: %w", err)
	}
	return s, nil
}

// Children returns the children of every thread of pid, from
// /proc/<pid>/task/<tid>/children (Linux 3.5+, CONFIG_PROC_CHILDREN). A
// child belongs to the thread that forked it, or to the thread an orphan
// was handed to, so every thread is read. The list is a snapshot:
// processes created or re-parented while it is read may be missed, which
// callers make up for by reading again.
func Children(pid int) ([]int, error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
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
