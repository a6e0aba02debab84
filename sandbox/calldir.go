package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Every confined call gets a private temporary directory. Creating and
// removing one costs more than the rest of a confined start on a
// journaling filesystem (mkdir about 80 µs and rmdir 120 µs of kernel
// time on this project's ext4 CI machine, against 8 µs for both on
// tmpfs), so a directory its call left empty, mode 0700, goes back to a
// free list and serves a later call; the others are removed in the
// background. A directory is used by one call at a time, and every
// process of its call has been killed when it is released; a descendant
// that escaped the call's process group (setsid) keeps the Landlock
// domain that lets it write there, as it keeps the allowed directories.

// callDirPattern names the directories (os.MkdirTemp pattern).
const callDirPattern = "mcp-shell-call-"

// maxFreeCallDirs bounds the free list: the calls running at once, at
// most, come back to it.
const maxFreeCallDirs = 64

// callDirs is the launcher's supply of private temporary directories,
// beneath os.TempDir() as it is when each is created.
type callDirs struct {
	mu      sync.Mutex
	free    []string
	pending sync.WaitGroup // background removals
}

// get returns an empty directory of this user, mode 0700: a free one, or
// a new one. A free one is checked again as it leaves the list: while it
// waited there, a call that can write the temporary directory (one inside
// an allowed directory) may have replaced it, with a symlink to a
// directory outside the allowed ones that the next call's ruleset would
// then grant; such an entry is removed (a symlink itself, not its target).
func (c *callDirs) get() (string, error) {
	for {
		c.mu.Lock()
		n := len(c.free)
		if n == 0 {
			c.mu.Unlock()
			return os.MkdirTemp("", callDirPattern)
		}
		d := c.free[n-1]
		c.free = c.free[:n-1]
		c.mu.Unlock()
		if reusable(d) {
			return d, nil
		}
		c.pending.Go(func() { removeTree(d) })
	}
}

// release takes dir back from its call: to the free list when the call
// left it empty and private, otherwise to a background removal.
func (c *callDirs) release(dir string) {
	if reusable(dir) {
		c.mu.Lock()
		if len(c.free) < maxFreeCallDirs {
			c.free = append(c.free, dir)
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
	}
	c.pending.Go(func() { removeTree(dir) })
}

// close removes the free directories and waits for the background
// removals.
func (c *callDirs) close() {
	c.mu.Lock()
	free := c.free
	c.free = nil
	c.mu.Unlock()
	for _, d := range free {
		removeTree(d)
	}
	c.pending.Wait()
}

// removeTree removes dir. A child may have left directories without
// write permission, so those are opened up and the removal retried once.
func removeTree(dir string) {
	if dir == "" || os.RemoveAll(dir) == nil {
		return
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700) // Chmod does not follow a symlink here: d is a directory
		}
		return nil
	})
	_ = os.RemoveAll(dir)
}
