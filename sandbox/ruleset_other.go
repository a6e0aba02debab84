//go:build !linux

// Landlock and seccomp are Linux-only: Probe refuses ModeLandlock here
// (ModeAuto falls back), so these stand-ins are never reached by a launch.

package sandbox

// KernelSandbox reports whether this platform has the kernel sandbox
// (Landlock and the seccomp filter): Linux only.
const KernelSandbox = false

// heldPaths holds nothing: there is no ruleset to build.
type heldPaths struct{}

var deviceRW, deviceRO []string

func holdPaths(...[]string) *heldPaths { return nil }

func checkRuleset(policy) error { return errNoKernelSandbox }

func restrict(policy) error { return errNoKernelSandbox }

func filterAvailable() bool { return false }

// filterKind selects a stage's seccomp filter (Linux only).
type filterKind struct {
	network, unixSockets bool
}

func installFilter(filterKind) error { return errNoKernelSandbox }

// dropCapabilities has nothing to drop: capabilities are Linux's.
func dropCapabilities() error { return nil }

func scopeRuleset(int) (int, error) { return -1, errNoKernelSandbox }

func probeReadOnlyWorld() error { return errNoKernelSandbox }

func enterReadOnlyWorld([]string, string) error { return errNoKernelSandbox }
