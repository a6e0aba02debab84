//go:build linux

// Whether a process runs, from /proc (a zombie has exited): Linux.

package main

import (
	"github.com/seed-b63acb1b/mcp-shell-server/internal/procfs"
)

// alive reports whether pid still exists as a process that is not a zombie.
func alive(pid int) bool {
	st, err := procfs.ReadStat(pid)
	return err == nil && !st.Zombie()
}
