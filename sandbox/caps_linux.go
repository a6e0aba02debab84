//go:build linux

// Capabilities are per thread on Linux: the thread that starts stages
// (and the re-executed launcher) gives up all of its own.

package sandbox

import (
	"errors"

	"golang.org/x/sys/unix"
)

// Securebits (linux/securebits.h): without SECBIT_NOROOT, execve by uid 0
// gives the new program every capability of the bounding set; the
// _LOCKED bits keep a stage from turning them off again.
const (
	secbitNoroot            = 1 << 0
	secbitNorootLocked      = 1 << 1
	secbitNoSetuidFixup     = 1 << 2
	secbitNoSetuidFixupLock = 1 << 3
	secbitKeepCapsLocked    = 1 << 5
	secbitNoCapAmbientRaise = 1 << 6
	secbitNoCapAmbientLock  = 1 << 7
	stageSecurebits         = secbitNoroot | secbitNorootLocked | secbitNoSetuidFixup | secbitNoSetuidFixupLock |
		secbitKeepCapsLocked | secbitNoCapAmbientRaise | secbitNoCapAmbientLock
)

// dropCapabilities empties the calling thread's capability sets, its
// bounding set (so that no execve, even by uid 0, gives one back) and its
// ambient set, and, where it may (CAP_SETPCAP: a root server), locks the
// securebits that make uid 0 an ordinary user for execve
// (capabilities(7), "Capabilities and execution of programs by root").
// A server without CAP_SETPCAP has no capabilities to give up but its
// bounding set, which no_new_privs already keeps it from using: file
// capabilities and set-user-ID bits are ignored.
func dropCapabilities() error {
	var hdr unix.CapUserHeader
	hdr.Version = unix.LINUX_CAPABILITY_VERSION_3
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fail("capabilities", "capget: %w", err)
	}
	setpcap := data[0].Effective&(1<<unix.CAP_SETPCAP) != 0
	if setpcap {
		if err := unix.Prctl(unix.PR_SET_SECUREBITS, stageSecurebits, 0, 0, 0); err != nil {
			return fail("capabilities", "prctl(PR_SET_SECUREBITS): %w", err)
		}
		for c := 0; c <= unix.CAP_LAST_CAP; c++ {
			if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
				return fail("capabilities", "prctl(PR_CAPBSET_DROP, %d): %w", c, err)
			}
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fail("capabilities", "prctl(PR_CAP_AMBIENT_CLEAR_ALL): %w", err)
	}
	data = [2]unix.CapUserData{}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fail("capabilities", "capset: %w", err)
	}
	return nil
}
