package sandbox

import (
	"fmt"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// presets are go-landlock's per-ABI configurations, each handling every
// right its ABI can restrict; presets[n] is ABI n.
var presets = [maxABI + 1]landlock.Config{
	{}, landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5,
	landlock.V6, landlock.V7, landlock.V8, landlock.V9, landlock.V10, landlock.V11,
}

// policy is what one launch enforces: the ruleset's handled rights and the
// rules granting exceptions. extraRead are single files (the target
// program); extraWrite are trees (the call's temporary directory).
type policy struct {
	abi        int
	network    bool
	readDirs   []string
	writeDirs  []string
	extraRead  []string
	extraWrite []string
}

// config returns the handled rights at p.abi: everything the ABI can
// restrict, minus the network when p.network.
func (p policy) config() landlock.Config {
	c := presets[p.abi]
	if p.network {
		c.HandledAccessNet = 0
	}
	return c
}

// rules returns the exceptions. Rights the ABI does not handle are
// dropped by go-landlock for RODirs/RWDirs-style rules; "refer" and
// "resolve unix" are added only where the ABI handles them, because
// go-landlock rejects a rule with an unhandled right outside best-effort
// mode.
func (p policy) rules() []landlock.Rule {
	write := landlock.RWDirs(append(append([]string{}, p.writeDirs...), p.extraWrite...)...)
	if p.abi >= 2 {
		write = write.WithRefer() // mv and ln between the writable trees
	}
	rules := []landlock.Rule{
		landlock.RODirs(p.readDirs...).IgnoreIfMissing(),
		write,
		landlock.RWFiles(deviceRW...).IgnoreIfMissing(),
		landlock.ROFiles(deviceRO...).IgnoreIfMissing(),
	}
	if len(p.extraRead) > 0 {
		rules = append(rules, landlock.ROFiles(p.extraRead...))
	}
	if p.network && p.abi >= 9 {
		// ABI 9 moved pathname UNIX sockets under the filesystem rights;
		// an operator who allows the network allows them too.
		rules = append(rules, landlock.PathAccess(ll.AccessFSResolveUnix, "/"))
	}
	return rules
}

// rulesetFD builds the ruleset without enforcing it; the caller closes
// the descriptor (close-on-exec). flags are the restrict-self flags.
func (p policy) rulesetFD() (fd int, flags uint32, err error) {
	if p.abi < 1 || p.abi > maxABI {
		return -1, 0, fmt.Errorf("%w: Landlock ABI %d", ErrUnavailable, p.abi)
	}
	fd, flags, err = p.config().NewRulesetFD(p.rules()...)
	if err != nil {
		return -1, 0, fmt.Errorf("building the Landlock ruleset (ABI %d): %w", p.abi, err)
	}
	if fd < 0 {
		return -1, 0, fmt.Errorf("%w: empty Landlock ruleset at ABI %d", ErrUnavailable, p.abi)
	}
	return fd, flags, nil
}
