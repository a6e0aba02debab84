//go:build linux

// The change time of a Linux stat.

package childenv

import "syscall"

func ctime(s *syscall.Stat_t) syscall.Timespec { return s.Ctim }
