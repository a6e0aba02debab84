//go:build darwin

// The change time of a macOS stat.

package childenv

import "syscall"

func ctime(s *syscall.Stat_t) syscall.Timespec { return s.Ctimespec }
