//go:build linux

// A read-only view of the file system for the thread that starts stages:
// Linux only (mount namespaces).

package sandbox

import (
	"fmt"
	"os"
	"runtime"
	"slices"

	"golang.org/x/sys/unix"
)

// Landlock has no right for a file's metadata: a stage may change the
// timestamps, mode and extended attributes of any file it can name and
// owns, and a root stage owns most of the system (chmod needs ownership,
// not a capability). Where the server may (CAP_SYS_ADMIN: a root server
// outside a restricted container), the restricted thread therefore moves
// into a mount namespace of its own in which every mount is read-only but
// the stage's writable trees, which it bind-mounts back read-write: a
// metadata change outside them fails with EROFS. Propagation from the
// namespace is cut first (MS_SLAVE), so nothing the thread does reaches
// the server's mounts. Device files keep working on a read-only mount
// (writing /dev/null needs no writable mount), and Landlock still decides
// what may be written at all.

// readOnlyWorld gives the calling (locked) thread the read-only mount
// namespace described above. Each writable tree is cloned before the
// rest turns read-only and attached over its own path; a tree that is no
// longer the file held open at start-up (held, by device and inode) is
// left read-only rather than bound from where its path now leads.
func readOnlyWorld(write []string, held *heldPaths) error {
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return fmt.Errorf("unshare(CLONE_NEWNS): %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_SLAVE, ""); err != nil {
		return fmt.Errorf("making the mounts private: %w", err)
	}
	trees := slices.Clone(write)
	slices.SortFunc(trees, func(a, b string) int { return len(a) - len(b) }) // parents first
	var clones []int
	defer func() {
		for _, fd := range clones {
			unix.Close(fd)
		}
	}()
	var targets []string
	for _, w := range slices.Compact(trees) {
		fd, err := unix.OpenTree(unix.AT_FDCWD, w, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_SYMLINK_NOFOLLOW)
		if err != nil {
			return fmt.Errorf("cloning the writable tree %s: %w", w, err)
		}
		if !held.same(w, fd) {
			unix.Close(fd)
			continue
		}
		clones, targets = append(clones, fd), append(targets, w)
	}
	if err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("making the mounts read-only: %w", err)
	}
	for i, fd := range clones {
		if err := unix.MoveMount(fd, "", unix.AT_FDCWD, targets[i], unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return fmt.Errorf("mounting the writable tree %s: %w", targets[i], err)
		}
	}
	return nil
}

// same reports whether fd is the file held for path at start-up (by
// device and inode); a path held nowhere (a call's temporary directory,
// opened per launch) is compared with a fresh lstat, which is what its
// ruleset was built from.
func (h *heldPaths) same(path string, fd int) bool {
	var got, want unix.Stat_t
	if unix.Fstat(fd, &got) != nil {
		return false
	}
	var hf heldFD
	ok := false
	if h != nil {
		hf, ok = h.fds[path]
	}
	if ok && hf.fd >= 0 {
		if unix.Fstat(hf.fd, &want) != nil {
			return false
		}
	} else if unix.Lstat(path, &want) != nil {
		return false
	}
	return got.Dev == want.Dev && got.Ino == want.Ino
}

// dirInWorld opens real, the path of the working directory pinned as
// pinned (a /proc/self/fd link into the server's mount namespace), in the
// calling thread's own namespace: a stage whose working directory were
// the pinned one would hold a directory of the server's namespace, from
// which ".." climbs the server's writable mounts. It fails unless both
// are the same directory (device and inode).
func dirInWorld(pinned, real string) (*os.File, error) {
	fd, err := unix.Open(real, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("opening the working directory %s in the read-only namespace: %w", real, err)
	}
	var got, want unix.Stat_t
	err = unix.Fstat(fd, &got)
	if err == nil {
		err = unix.Stat(pinned, &want)
	}
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("comparing the working directory %s with the one the call pinned: %w", real, err)
	}
	if got.Dev != want.Dev || got.Ino != want.Ino {
		unix.Close(fd)
		return nil, fmt.Errorf("the working directory %s is no longer the directory the call pinned", real)
	}
	return os.NewFile(uintptr(fd), real), nil
}

// enterReadOnlyWorld is readOnlyWorld for the re-executed launcher,
// which then changes into its working directory (dir) as the new
// namespace sees it.
func enterReadOnlyWorld(write []string, dir string) error {
	if err := readOnlyWorld(write, nil); err != nil {
		return err
	}
	f, err := dirInWorld(".", dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Fchdir(int(f.Fd()))
}

// probeReadOnlyWorld reports whether this process can give a thread a
// read-only world, trying it on a throwaway thread (which then exits: a
// goroutine that returns while locked ends its thread).
func probeReadOnlyWorld() error {
	if !canRemount() {
		return fmt.Errorf("the server lacks CAP_SYS_ADMIN")
	}
	done := make(chan error)
	go func() {
		runtime.LockOSThread()
		done <- readOnlyWorld(nil, nil)
	}()
	return <-done
}

// canRemount reports whether the calling thread may build a read-only
// world (CAP_SYS_ADMIN in its user namespace).
func canRemount() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if unix.Capget(&hdr, &data[0]) != nil {
		return false
	}
	return data[unix.CAP_SYS_ADMIN/32].Effective&(1<<(unix.CAP_SYS_ADMIN%32)) != 0
}
