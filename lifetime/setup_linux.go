//go:build linux

// Linux offers the cgroup and subreaper mechanisms; without them it falls
// back to Session (mech_other.go: macOS and Windows have neither).

package lifetime

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// platformMechanism is the mechanism when neither Cgroup nor Subreaper
// is in force, and without Setup.
const platformMechanism = Session

// setupCgroup creates the server's cgroup subtree and starts the watchdog
// inside it, which proves that children can be placed in it.
func (m *Manager) setupCgroup(exe string) error {
	if exe == "" {
		return errors.New("no server binary for the watchdog")
	}
	t, err := newCgroupTree()
	if err != nil {
		return err
	}
	fd, err := unix.Open(t.watchdogDir(), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.remove()
		return err
	}
	wd, err := m.startWatchdog(exe, fd, "cgroup", t.root, t.own)
	unix.Close(fd)
	if err != nil {
		t.remove()
		return fmt.Errorf("placing a process in %s: %w", t.watchdogDir(), err)
	}
	m.mech, m.cg, m.wd = Cgroup, t, wd
	return nil
}

// setupSubreaper makes the server a child subreaper and starts the
// watchdog fed with the tracker's records. Without a watchdog (wdErr) the
// mechanism still holds while the server lives.
func (m *Manager) setupSubreaper(exe string) (wdErr, err error) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return nil, fmt.Errorf("prctl(PR_SET_CHILD_SUBREAPER): %w", err)
	}
	m.mech = Subreaper
	m.tr = newTracker(&m.forkMu, m.isOwned, m.log)
	if exe == "" {
		return errors.New("no server binary"), nil
	}
	wd, err := m.startWatchdog(exe, -1, "subreaper")
	if err != nil {
		return err, nil
	}
	m.wd = wd
	m.tr.feed = wd.send
	return nil, nil
}
