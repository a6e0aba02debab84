//go:build linux

// Landlock rulesets: Linux only (ruleset_other.go elsewhere).

package sandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// presets are go-landlock's per-ABI configurations, each handling every
// right its ABI can restrict; presets[n] is ABI n.
var presets = [maxABI + 1]landlock.Config{
	{}, landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5,
	landlock.V6, landlock.V7, landlock.V8, landlock.V9, landlock.V10, landlock.V11,
}

// Filesystem rights (Linux include/uapi/linux/landlock.h). A rule on a
// file that is not a directory may carry only fileRights.
const (
	readRights  = ll.AccessFSReadFile | ll.AccessFSReadDir
	execRights  = readRights | ll.AccessFSExecute
	writeRights = readRights | ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
		ll.AccessFSMakeChar | ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock | ll.AccessFSMakeFifo |
		ll.AccessFSMakeBlock | ll.AccessFSMakeSym | ll.AccessFSRefer
	fileRights = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
)

// deviceRW and deviceRO are device files every stage may use; missing
// ones are skipped. No ioctl right is granted on them.
var (
	deviceRW = []string{"/dev/null", "/dev/zero", "/dev/full"}
	deviceRO = []string{"/dev/random", "/dev/urandom"}
)

// heldPaths are O_PATH descriptors of the paths every ruleset names,
// opened once instead of per launch (an O_PATH open and a stat per rule
// cost more than the rest of a ruleset). A missing path is held as -1.
// The descriptors are close-on-exec and shared by every Launcher of the
// process (heldAll), so they are never closed.
type heldPaths struct {
	fds map[string]heldFD
}

type heldFD struct {
	fd  int // -1: the path was missing
	dir bool
}

// heldAll are the descriptors held so far, by path.
var heldAll = struct {
	sync.Mutex
	fds map[string]heldFD
}{fds: map[string]heldFD{}}

// holdPaths returns held descriptors for every path, opening those not
// held yet; errors other than a missing path leave a path out (it is then
// opened per launch and reports its error there).
func holdPaths(paths ...[]string) *heldPaths {
	heldAll.Lock()
	defer heldAll.Unlock()
	h := &heldPaths{fds: map[string]heldFD{}}
	for _, list := range paths {
		for _, p := range list {
			if held, ok := heldAll.fds[p]; ok {
				h.fds[p] = held
				continue
			}
			fd, dir, err := openPath(p)
			switch {
			case err == nil:
				h.fds[p] = heldFD{fd: fd, dir: dir}
			case errors.Is(err, unix.ENOENT):
				h.fds[p] = heldFD{fd: -1}
			default:
				continue
			}
			heldAll.fds[p] = h.fds[p]
		}
	}
	return h
}

// has reports whether p is held (h may be nil).
func (h *heldPaths) has(p string) bool {
	if h == nil {
		return false
	}
	_, ok := h.fds[p]
	return ok
}

// openPath opens p with O_PATH and reports whether it is a directory.
func openPath(p string) (fd int, dir bool, err error) {
	fd, err = unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, false, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, false, err
	}
	return fd, st.Mode&unix.S_IFMT == unix.S_IFDIR, nil
}

// openTree opens a writable tree (a grant that must exist) without
// following a symlink in its last element: a call that can write the
// directory holding the tree (its own TMPDIR when the temporary directory
// lies inside an allowed directory) could otherwise replace the tree with
// a symlink between two stages, and a later stage's ruleset would grant
// writes to the symlink's target, outside every allowed directory.
func openTree(p string) (fd int, dir bool, err error) {
	fd, err = unix.Open(p, unix.O_PATH|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_DIRECTORY, 0)
	if err != nil {
		return -1, false, err
	}
	return fd, true, nil
}

// grant is one rule: a path and the rights beneath it.
type grant struct {
	path     string
	access   uint64
	optional bool // a missing path is skipped
}

// grants lists p's rules, devices included.
func (p policy) grants() []grant {
	read, write := uint64(readRights), uint64(writeRights)
	if p.Run {
		read, write = execRights, writeRights|ll.AccessFSExecute
	}
	var gs []grant
	add := func(paths []string, access uint64, optional bool) {
		for _, path := range paths {
			gs = append(gs, grant{path: path, access: access, optional: optional})
		}
	}
	add(p.Read, read, true)
	add(p.Exec, execRights, true)
	add(p.Write, write, false)
	add(deviceRW, readRights|ll.AccessFSWriteFile|ll.AccessFSTruncate, true)
	add(deviceRO, readRights, true)
	if p.ABI >= 9 {
		// ABI 9 moved pathname UNIX sockets under the filesystem rights.
		// The network does not imply them (the user's agents and session
		// bus are pathname sockets): an agent's socket, through the
		// directory holding it (gpg's own: ~/.gnupg, /run/user/UID/gnupg;
		// ssh-agent's private one).
		for _, sock := range p.Sockets {
			add([]string{filepath.Dir(sock)}, ll.AccessFSResolveUnix, true)
		}
	}
	return gs
}

// attr returns the ruleset's handled rights at p.ABI: everything the ABI
// can restrict, minus the network when p.Net.
func (p policy) attr() ll.RulesetAttr {
	c := presets[p.ABI]
	a := ll.RulesetAttr{HandledAccessFS: uint64(c.HandledAccessFS), HandledAccessNet: uint64(c.HandledAccessNet), Scoped: uint64(c.Scoped)}
	if p.Net {
		a.HandledAccessNet = 0
	}
	return a
}

// rulesetFD builds p's ruleset without enforcing it; the caller closes
// the descriptor (close-on-exec).
func (p policy) rulesetFD() (int, error) {
	if p.ABI < 1 || p.ABI > maxABI {
		return -1, fmt.Errorf("%w: Landlock ABI %d", ErrUnavailable, p.ABI)
	}
	attr := p.attr()
	fd, err := ll.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return -1, fmt.Errorf("landlock_create_ruleset (ABI %d): %w", p.ABI, err)
	}
	for _, g := range p.grants() {
		if err := p.held.add(fd, g, attr.HandledAccessFS); err != nil {
			unix.Close(fd)
			return -1, err
		}
	}
	return fd, nil
}

// add adds one rule, limited to the handled rights and, on a file that
// is not a directory, to the rights a file can carry. A held descriptor
// is used when there is one (h may be nil).
func (h *heldPaths) add(rulesetFD int, g grant, handled uint64) error {
	var held heldFD
	ok := false
	if h != nil {
		held, ok = h.fds[g.path]
	}
	if !ok {
		open := openPath
		if !g.optional {
			open = openTree
		}
		fd, dir, err := open(g.path)
		if err != nil && !errors.Is(err, unix.ENOENT) || err != nil && !g.optional {
			return fmt.Errorf("building the Landlock ruleset: %s: %w", g.path, err)
		}
		if err == nil {
			defer unix.Close(fd)
		}
		held = heldFD{fd: fd, dir: dir}
	}
	if held.fd < 0 {
		if !g.optional {
			return fmt.Errorf("building the Landlock ruleset: %s: %w", g.path, unix.ENOENT)
		}
		return nil
	}
	access := g.access & handled
	if !held.dir {
		access &= fileRights
	}
	if access == 0 {
		return nil
	}
	if err := ll.LandlockAddPathBeneathRule(rulesetFD, &ll.PathBeneathAttr{AllowedAccess: access, ParentFd: held.fd}, 0); err != nil {
		return fmt.Errorf("landlock_add_rule %s: %w", g.path, err)
	}
	return nil
}

// restrict enforces p on the calling (locked) thread: no_new_privs, then
// the ruleset. Everything the thread starts inherits them.
func restrict(p policy) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fail("no_new_privs", "prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	fd, err := p.rulesetFD()
	if err != nil {
		return fail("landlock", "%w", err)
	}
	err = ll.LandlockRestrictSelf(fd, 0)
	unix.Close(fd)
	if err != nil {
		return fail("landlock", "landlock_restrict_self: %w", err)
	}
	return nil
}

// scopeRuleset builds the ruleset every stage restricts itself with
// inside its thread's domain (confineFromInside), making a domain of its
// own: from ABI 6 it scopes signals and abstract UNIX sockets; before, it
// handles reading files, and ptrace is limited to that domain as in every
// nested domain. It narrows no file right: what it handles it grants
// beneath "/". That includes linking and renaming across directories
// (from ABI 2), which every Landlock domain denies unless a rule grants
// it, handled or not (landlock.h, LANDLOCK_ACCESS_FS_REFER): without the
// grant a stage could not move a file into another directory of its own
// writable trees (git-lfs storing an object, rustc its metadata), which
// the thread's domain allows. The descriptor is the caller's
// (close-on-exec).
func scopeRuleset(abi int) (int, error) {
	attr := ll.RulesetAttr{Scoped: ll.ScopeAbstractUnixSocket | ll.ScopeSignal}
	var fs uint64
	if abi < 6 {
		attr, fs = ll.RulesetAttr{}, ll.AccessFSReadFile
	}
	if abi >= 2 {
		fs |= ll.AccessFSRefer
	}
	attr.HandledAccessFS = fs
	fd, err := ll.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return -1, fmt.Errorf("landlock_create_ruleset (stage scope, ABI %d): %w", abi, err)
	}
	if fs != 0 {
		root, _, err := openPath("/")
		if err == nil {
			err = ll.LandlockAddPathBeneathRule(fd, &ll.PathBeneathAttr{AllowedAccess: fs, ParentFd: root}, 0)
			unix.Close(root)
		}
		if err != nil {
			unix.Close(fd)
			return -1, fmt.Errorf("landlock_add_rule / (stage scope): %w", err)
		}
	}
	return fd, nil
}

// KernelSandbox reports whether this platform has the kernel sandbox
// (Landlock and the seccomp filter): Linux only.
const KernelSandbox = true

// checkRuleset builds p's ruleset once and discards it (Probe).
func checkRuleset(p policy) error {
	fd, err := p.rulesetFD()
	if err != nil {
		return err
	}
	return unix.Close(fd)
}
