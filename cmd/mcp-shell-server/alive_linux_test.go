//go:build linux

// Whether a process runs, from /proc (a zombie has exited): Linux.

package main

import (
	"os"
	"strconv"
	"strings"
)

// alive reports whether pid still exists as a process that is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}
