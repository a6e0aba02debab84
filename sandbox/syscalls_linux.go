//go:build linux

// The system calls a confined stage may make: Linux only, like seccomp.

package sandbox

import "golang.org/x/sys/unix"

// syscallGroup is one group of the stage allowlist: the calls, what
// they are for, and where the choice comes from.
type syscallGroup struct {
	what string
	nrs  []uintptr
}

// stageSyscalls is the allowlist every confined stage runs under
// (syscallFilter): what text tools, compilers, build tools, package
// managers and their test suites use. It started from Docker's default
// profile (moby profiles/seccomp/default.json, the list allowed without
// any capability) and differs where a stage is narrower than a
// container (syscallFilter applies it): io_uring (it performs socket, connect and file operations
// that neither seccomp nor, for sockets, Landlock sees; answered ENOSYS so
// runtimes fall back), name_to_handle_at, the NUMA policy calls and
// process_madvise are left out; clone3 is answered ENOSYS (it can place
// the child in another cgroup with CLONE_INTO_CGROUP; glibc and Go fall
// back to clone); clone is allowed without namespace flags, socket and
// socketpair by family (syscallFilter), personality for the values Docker
// allows. Everything not listed is refused with EPERM: bpf,
// perf_event_open, userfaultfd, the kernel keyrings (keyctl, add_key,
// request_key), every mount and namespace call (mount, umount2,
// pivot_root, chroot, move_mount, open_tree, fsopen, fsconfig, fsmount,
// fspick, mount_setattr, unshare, setns), kexec, modules, reboot, swap,
// acct, quotactl, syslog, setting the clocks or the host name, vhangup,
// fanotify, open_by_handle_at, iopl, ioperm and the obsolete calls. The
// calls newer than the profile (fchmodat2, futex2, mseal, cachestat,
// the *xattrat family, file_getattr/file_setattr, statmount/listmount,
// map_shadow_stack, lsm_get_self_attr) are the new spellings of allowed
// operations and are allowed.
var stageSyscalls = []syscallGroup{
	{"file and directory I/O", []uintptr{
		unix.SYS_READ, unix.SYS_WRITE, unix.SYS_READV, unix.SYS_WRITEV, unix.SYS_PREAD64, unix.SYS_PWRITE64,
		unix.SYS_PREADV, unix.SYS_PWRITEV, unix.SYS_PREADV2, unix.SYS_PWRITEV2, unix.SYS_LSEEK,
		unix.SYS_OPENAT, unix.SYS_OPENAT2, unix.SYS_CLOSE, unix.SYS_CLOSE_RANGE, unix.SYS_DUP, unix.SYS_DUP3,
		unix.SYS_FCNTL, unix.SYS_FLOCK, unix.SYS_FSYNC, unix.SYS_FDATASYNC, unix.SYS_SYNC, unix.SYS_SYNCFS,
		unix.SYS_SYNC_FILE_RANGE, unix.SYS_FALLOCATE, unix.SYS_FTRUNCATE, unix.SYS_TRUNCATE, unix.SYS_FADVISE64,
		unix.SYS_READAHEAD, unix.SYS_GETDENTS64, unix.SYS_GETCWD, unix.SYS_CHDIR, unix.SYS_FCHDIR,
		unix.SYS_MKDIRAT, unix.SYS_MKNODAT, unix.SYS_UNLINKAT, unix.SYS_RENAMEAT2, unix.SYS_LINKAT,
		unix.SYS_SYMLINKAT, unix.SYS_READLINKAT, unix.SYS_FACCESSAT, unix.SYS_FACCESSAT2,
		unix.SYS_FCHMOD, unix.SYS_FCHMODAT, unix.SYS_FCHMODAT2, unix.SYS_FCHOWN, unix.SYS_FCHOWNAT,
		unix.SYS_NEWFSTATAT, unix.SYS_FSTAT, unix.SYS_STATX, unix.SYS_STATFS, unix.SYS_FSTATFS,
		unix.SYS_UTIMENSAT, unix.SYS_UMASK, unix.SYS_CACHESTAT, unix.SYS_FILE_GETATTR, unix.SYS_FILE_SETATTR,
		unix.SYS_GETXATTR, unix.SYS_LGETXATTR, unix.SYS_FGETXATTR, unix.SYS_GETXATTRAT,
		unix.SYS_LISTXATTR, unix.SYS_LLISTXATTR, unix.SYS_FLISTXATTR, unix.SYS_LISTXATTRAT,
		unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR, unix.SYS_SETXATTRAT,
		unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR, unix.SYS_REMOVEXATTRAT,
		unix.SYS_COPY_FILE_RANGE, unix.SYS_SENDFILE, unix.SYS_SPLICE, unix.SYS_TEE, unix.SYS_VMSPLICE,
		unix.SYS_INOTIFY_INIT1, unix.SYS_INOTIFY_ADD_WATCH, unix.SYS_INOTIFY_RM_WATCH,
		unix.SYS_MEMFD_CREATE, unix.SYS_PIPE2, unix.SYS_IOCTL, unix.SYS_STATMOUNT, unix.SYS_LISTMOUNT,
	}},
	{"waiting for descriptors and events", []uintptr{
		unix.SYS_EPOLL_CREATE1, unix.SYS_EPOLL_CTL, unix.SYS_EPOLL_PWAIT, unix.SYS_EPOLL_PWAIT2,
		unix.SYS_PPOLL, unix.SYS_PSELECT6, unix.SYS_EVENTFD2, unix.SYS_SIGNALFD4,
		unix.SYS_TIMERFD_CREATE, unix.SYS_TIMERFD_SETTIME, unix.SYS_TIMERFD_GETTIME,
		unix.SYS_IO_SETUP, unix.SYS_IO_DESTROY, unix.SYS_IO_SUBMIT, unix.SYS_IO_CANCEL, unix.SYS_IO_GETEVENTS, unix.SYS_IO_PGETEVENTS,
	}},
	{"memory", []uintptr{
		unix.SYS_BRK, unix.SYS_MMAP, unix.SYS_MUNMAP, unix.SYS_MREMAP, unix.SYS_MPROTECT, unix.SYS_MADVISE,
		unix.SYS_MLOCK, unix.SYS_MLOCK2, unix.SYS_MUNLOCK, unix.SYS_MLOCKALL, unix.SYS_MUNLOCKALL,
		unix.SYS_MINCORE, unix.SYS_MSYNC, unix.SYS_REMAP_FILE_PAGES, unix.SYS_MEMBARRIER, unix.SYS_MEMFD_SECRET,
		unix.SYS_PKEY_ALLOC, unix.SYS_PKEY_FREE, unix.SYS_PKEY_MPROTECT, unix.SYS_MSEAL, unix.SYS_MAP_SHADOW_STACK,
		unix.SYS_PROCESS_MRELEASE,
	}},
	{"processes and threads (clone, checked by its flags, is not listed)", []uintptr{
		unix.SYS_EXECVE, unix.SYS_EXECVEAT, unix.SYS_EXIT, unix.SYS_EXIT_GROUP, unix.SYS_WAIT4, unix.SYS_WAITID,
		unix.SYS_KILL, unix.SYS_TKILL, unix.SYS_TGKILL, unix.SYS_GETPID, unix.SYS_GETPPID, unix.SYS_GETTID,
		unix.SYS_GETPGID, unix.SYS_SETPGID, unix.SYS_GETSID, unix.SYS_SETSID,
		unix.SYS_GETUID, unix.SYS_GETEUID, unix.SYS_GETGID, unix.SYS_GETEGID, unix.SYS_GETRESUID, unix.SYS_GETRESGID,
		unix.SYS_GETGROUPS, unix.SYS_SETUID, unix.SYS_SETGID, unix.SYS_SETREUID, unix.SYS_SETREGID,
		unix.SYS_SETRESUID, unix.SYS_SETRESGID, unix.SYS_SETGROUPS, unix.SYS_SETFSUID, unix.SYS_SETFSGID,
		unix.SYS_CAPGET, unix.SYS_CAPSET, unix.SYS_PRCTL, unix.SYS_SET_TID_ADDRESS,
		unix.SYS_SET_ROBUST_LIST, unix.SYS_GET_ROBUST_LIST, unix.SYS_RSEQ,
		unix.SYS_FUTEX, unix.SYS_FUTEX_WAITV, unix.SYS_FUTEX_WAKE, unix.SYS_FUTEX_WAIT, unix.SYS_FUTEX_REQUEUE,
		unix.SYS_SCHED_YIELD, unix.SYS_SCHED_GETAFFINITY, unix.SYS_SCHED_SETAFFINITY, unix.SYS_SCHED_GETATTR,
		unix.SYS_SCHED_SETATTR, unix.SYS_SCHED_GETPARAM, unix.SYS_SCHED_SETPARAM, unix.SYS_SCHED_GETSCHEDULER,
		unix.SYS_SCHED_SETSCHEDULER, unix.SYS_SCHED_GET_PRIORITY_MAX, unix.SYS_SCHED_GET_PRIORITY_MIN,
		unix.SYS_SCHED_RR_GET_INTERVAL, unix.SYS_GETPRIORITY, unix.SYS_SETPRIORITY, unix.SYS_IOPRIO_GET, unix.SYS_IOPRIO_SET,
		unix.SYS_GETRLIMIT, unix.SYS_SETRLIMIT, unix.SYS_PRLIMIT64, unix.SYS_GETRUSAGE, unix.SYS_TIMES, unix.SYS_SYSINFO,
		unix.SYS_UNAME, unix.SYS_GETCPU, unix.SYS_GETRANDOM, unix.SYS_LSM_GET_SELF_ATTR,
		unix.SYS_PIDFD_OPEN, unix.SYS_PIDFD_SEND_SIGNAL, unix.SYS_PIDFD_GETFD,
	}},
	{"tracing and inspecting the stage's own processes: Landlock lets a stage reach only processes of its own domain, its own tree", []uintptr{
		unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_KCMP,
	}},
	{"signals, timers and clocks", []uintptr{
		unix.SYS_RT_SIGACTION, unix.SYS_RT_SIGPROCMASK, unix.SYS_RT_SIGRETURN, unix.SYS_RT_SIGPENDING,
		unix.SYS_RT_SIGSUSPEND, unix.SYS_RT_SIGTIMEDWAIT, unix.SYS_RT_SIGQUEUEINFO, unix.SYS_RT_TGSIGQUEUEINFO,
		unix.SYS_SIGALTSTACK, unix.SYS_GETITIMER, unix.SYS_SETITIMER, unix.SYS_TIMER_CREATE, unix.SYS_TIMER_SETTIME,
		unix.SYS_TIMER_GETTIME, unix.SYS_TIMER_GETOVERRUN, unix.SYS_TIMER_DELETE, unix.SYS_RESTART_SYSCALL,
		unix.SYS_CLOCK_GETTIME, unix.SYS_CLOCK_GETRES, unix.SYS_CLOCK_NANOSLEEP, unix.SYS_NANOSLEEP,
		unix.SYS_GETTIMEOFDAY, unix.SYS_ADJTIMEX, unix.SYS_CLOCK_ADJTIME,
	}},
	{"System V and POSIX IPC", []uintptr{
		unix.SYS_MSGGET, unix.SYS_MSGSND, unix.SYS_MSGRCV, unix.SYS_MSGCTL, unix.SYS_SEMGET, unix.SYS_SEMOP,
		unix.SYS_SEMTIMEDOP, unix.SYS_SEMCTL, unix.SYS_SHMGET, unix.SYS_SHMAT, unix.SYS_SHMDT, unix.SYS_SHMCTL,
		unix.SYS_MQ_OPEN, unix.SYS_MQ_UNLINK, unix.SYS_MQ_TIMEDSEND, unix.SYS_MQ_TIMEDRECEIVE, unix.SYS_MQ_NOTIFY, unix.SYS_MQ_GETSETATTR,
	}},
	{"operations on sockets (creating one is checked by socketRules)", []uintptr{
		unix.SYS_BIND, unix.SYS_CONNECT, unix.SYS_LISTEN, unix.SYS_ACCEPT, unix.SYS_ACCEPT4,
		unix.SYS_GETSOCKNAME, unix.SYS_GETPEERNAME, unix.SYS_SENDTO, unix.SYS_RECVFROM, unix.SYS_SENDMSG,
		unix.SYS_RECVMSG, unix.SYS_SENDMMSG, unix.SYS_RECVMMSG, unix.SYS_SHUTDOWN, unix.SYS_SETSOCKOPT, unix.SYS_GETSOCKOPT,
	}},
	{"sandboxing itself further", []uintptr{
		unix.SYS_LANDLOCK_CREATE_RULESET, unix.SYS_LANDLOCK_ADD_RULE, unix.SYS_LANDLOCK_RESTRICT_SELF, unix.SYS_SECCOMP,
	}},
	{"this architecture's own calls", archSyscalls},
}

// enosysSyscalls are answered ENOSYS, as a kernel without them would:
// programs fall back (glibc and Go from clone3 to clone, liburing users
// to plain I/O).
var enosysSyscalls = []uintptr{unix.SYS_CLONE3, unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER}

// namespaceFlags are clone's flags that create namespaces
// (CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
// CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET; Docker's default profile
// refuses the same mask without CAP_SYS_ADMIN).
const namespaceFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// personalities are the personality(2) values allowed (Docker's:
// PER_LINUX, UNAME26, PER_LINUX32, UNAME26|PER_LINUX32 and the query
// 0xffffffff); others turn on READ_IMPLIES_EXEC or ADDR_NO_RANDOMIZE.
var personalities = []uint32{0x0, 0x8, 0x20000, 0x20008, 0xffffffff}
