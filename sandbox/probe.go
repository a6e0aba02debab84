package sandbox

import (
	"errors"
	"fmt"
	"runtime"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// KernelABI returns the Landlock ABI version the running kernel offers
// (landlock_create_ruleset with LANDLOCK_CREATE_RULESET_VERSION), or 0
// with the error when Landlock is not built in or not enabled at boot.
// An ABI of 6 or more without erratum 2 (signals between threads of one
// process; security/landlock/errata/abi-6.h) counts as ABI 5, as
// go-landlock's internal/abi.go does: the launcher restricts single
// threads of the server, whose runtime signals its other threads.
func KernelABI() (int, error) {
	v, err := ll.LandlockGetABIVersion()
	if err != nil {
		return 0, err
	}
	if v >= 6 {
		if errata, err := ll.LandlockGetErrata(); err != nil || errata&0x2 == 0 {
			v = 5
		}
	}
	return v, nil
}

// Probe validates cfg and checks that this kernel can enforce its
// Landlock part. It returns the Landlock ABI the launcher will apply (the
// kernel's, capped at the newest go-landlock knows; 0 when cfg asks for
// no Landlock), for logs and audit records.
//
// Errors (fail closed): ErrConfig for an invalid cfg; ErrUnavailable when
// the kernel has no Landlock, or offers less than cfg.RequiredABI() and
// cfg.BestEffort is false, or the seccomp filter is missing for this
// architecture; otherwise the error of building the ruleset (for example
// a WriteDirs entry that does not exist). The message names the variable
// to change.
func Probe(cfg Config) (abi int, err error) {
	if err := cfg.validate(); err != nil {
		return 0, err
	}
	if !cfg.wantsLandlock() {
		return 0, nil
	}
	kernel, err := KernelABI()
	abi, err = chooseABI(cfg, kernel, err)
	if err != nil {
		return 0, err
	}
	if !filterAvailable() && !cfg.BestEffort {
		return 0, fmt.Errorf("%w: no seccomp filter for this architecture (%s); set MCP_SHELL_SANDBOX_BEST_EFFORT=1 to run without one", ErrUnavailable, runtime.GOARCH)
	}
	p := policy{ABI: abi, Read: cfg.readDirs(), Write: cfg.WriteDirs}
	if err := checkRuleset(p); err != nil {
		return 0, err
	}
	return abi, nil
}

// errNoKernelSandbox is the refusal off Linux (KernelSandbox false).
var errNoKernelSandbox = errors.New("the kernel sandbox (Landlock, seccomp) is Linux-only, not available on " + runtime.GOOS)

// chooseABI decides, from the kernel's ABI (or the error querying it),
// which ABI to apply: the kernel's capped at maxABI, or an
// ErrUnavailable refusal.
func chooseABI(cfg Config, kernel int, queryErr error) (int, error) {
	if !KernelSandbox {
		return 0, fmt.Errorf("%w: MCP_SHELL_SANDBOX=%s but %w", ErrUnavailable, cfg.Mode, errNoKernelSandbox)
	}
	if queryErr != nil || kernel < 1 {
		if queryErr == nil {
			queryErr = fmt.Errorf("ABI %d", kernel)
		}
		return 0, fmt.Errorf("%w: MCP_SHELL_SANDBOX=%s but this kernel does not offer Landlock (%v); "+
			"it must be built with CONFIG_SECURITY_LANDLOCK and enabled (listed in /sys/kernel/security/lsm, or lsm= on the kernel command line)",
			ErrUnavailable, cfg.Mode, queryErr)
	}
	if need := cfg.RequiredABI(); kernel < need && !cfg.BestEffort {
		return 0, fmt.Errorf("%w: MCP_SHELL_SANDBOX=%s needs Landlock ABI %d (%s) but this kernel offers ABI %d; "+
			"upgrade the kernel, or set MCP_SHELL_SANDBOX_BEST_EFFORT=1 to accept what ABI %d enforces",
			ErrUnavailable, cfg.Mode, need, abiFeature(need), kernel, kernel)
	}
	return min(kernel, maxABI), nil
}

// abiFeature names what the needed ABI adds, for the refusal message.
func abiFeature(abi int) string {
	if abi >= ABINetwork {
		return "TCP bind/connect control, Linux 6.7"
	}
	return "truncate control, Linux 6.2"
}
