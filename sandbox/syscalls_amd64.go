//go:build linux && amd64

// The amd64-only system calls of the stage allowlist: the older
// spellings of allowed operations, which the amd64 ABI keeps.

package sandbox

import "golang.org/x/sys/unix"

var archSyscalls = []uintptr{
	unix.SYS_OPEN, unix.SYS_CREAT, unix.SYS_STAT, unix.SYS_LSTAT, unix.SYS_ACCESS, unix.SYS_PIPE, unix.SYS_POLL,
	unix.SYS_SELECT, unix.SYS_DUP2, unix.SYS_GETDENTS, unix.SYS_MKDIR, unix.SYS_RMDIR, unix.SYS_RENAME,
	unix.SYS_RENAMEAT, unix.SYS_LINK, unix.SYS_UNLINK, unix.SYS_SYMLINK, unix.SYS_READLINK, unix.SYS_CHMOD,
	unix.SYS_CHOWN, unix.SYS_LCHOWN, unix.SYS_UTIME, unix.SYS_UTIMES, unix.SYS_FUTIMESAT, unix.SYS_MKNOD,
	unix.SYS_FORK, unix.SYS_VFORK, unix.SYS_EPOLL_CREATE, unix.SYS_EPOLL_WAIT, unix.SYS_INOTIFY_INIT,
	unix.SYS_EVENTFD, unix.SYS_SIGNALFD, unix.SYS_GETPGRP, unix.SYS_PAUSE, unix.SYS_ALARM, unix.SYS_TIME,
	unix.SYS_ARCH_PRCTL, unix.SYS_MODIFY_LDT, unix.SYS_GET_THREAD_AREA, unix.SYS_SET_THREAD_AREA,
}
