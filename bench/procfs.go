package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// procStats is what /proc says about one process (the server, seen from
// outside: the benchmark never asks the server about itself).
type procStats struct {
	RSSKiB   int64 // VmRSS, KiB
	HWMKiB   int64 // VmHWM (peak RSS), KiB
	Threads  int   // OS threads
	FDs      int   // entries in /proc/<pid>/fd
	Children int   // processes whose parent is pid
}

// readProc reads pid's /proc/<pid>/status, fd directory and children.
func readProc(pid int) (procStats, error) {
	status, err := procKeys(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return procStats{}, err
	}
	// The first field of key's value ("VmRSS:	  1234 kB" → 1234), 0 when missing.
	num := func(key string) int64 {
		n, _ := strconv.ParseInt(strings.Fields(status[key] + " 0")[0], 10, 64)
		return n
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return procStats{}, err
	}
	return procStats{RSSKiB: num("VmRSS"), HWMKiB: num("VmHWM"), Threads: int(num("Threads")), FDs: len(fds), Children: countChildren(pid)}, nil
}

// procKeys reads a /proc file of "key: value" lines (status, cpuinfo,
// meminfo) into a map of trimmed keys and values; the first occurrence of
// a key wins (cpuinfo repeats its keys once per CPU).
func procKeys(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for line := range strings.Lines(string(b)) {
		k, v, ok := strings.Cut(line, ":")
		k = strings.TrimSpace(k)
		if _, seen := m[k]; ok && !seen {
			m[k] = strings.TrimSpace(v)
		}
	}
	return m, nil
}

// statFields are the fields of a /proc/<pid>/stat line after the command
// name: the name in parentheses may itself hold spaces and parentheses, so
// fields are counted after the last ')'. Field 0 is the state, 1 the ppid,
// 11 and 12 utime and stime.
func statFields(stat []byte) []string {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(stat[i+1:]))
}

// countChildren scans /proc/*/stat for processes whose ppid is pid
// (zombies included: an unreaped child is a leak too).
func countChildren(pid int) int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return -1
	}
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // exited meanwhile
		}
		if ppidOf(b) == pid {
			n++
		}
	}
	return n
}

// ppidOf is the ppid field of a /proc/<pid>/stat line, -1 if there is none.
func ppidOf(stat []byte) int {
	f := statFields(stat)
	if len(f) < 2 {
		return -1
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return ppid
}

// cpuTime is pid's user+system CPU time from /proc/<pid>/stat (clock ticks
// of 10 ms, the USER_HZ of Linux on every supported architecture).
func cpuTime(pid int) time.Duration {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	f := statFields(b)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}
