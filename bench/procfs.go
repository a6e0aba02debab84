package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
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
	var s procStats
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		fields := strings.Fields(val)
		if len(fields) == 0 {
			continue
		}
		n, _ := strconv.ParseInt(fields[0], 10, 64)
		switch key {
		case "VmRSS":
			s.RSSKiB = n
		case "VmHWM":
			s.HWMKiB = n
		case "Threads":
			s.Threads = int(n)
		}
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return s, err
	}
	s.FDs = len(fds)
	s.Children = countChildren(pid)
	return s, sc.Err()
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

// ppidOf parses the ppid field of a /proc/<pid>/stat line; the command
// name in parentheses may itself hold spaces and parentheses, so fields are
// counted after the last ')'.
func ppidOf(stat []byte) int {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 2 {
		return -1
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return ppid
}
