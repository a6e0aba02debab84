//go:build !linux

// Landlock and seccomp are Linux-only: Probe refuses ModeLandlock here
// (ModeAuto falls back), so these stand-ins are never reached by a launch.

package sandbox

// KernelSandbox reports whether this platform has the kernel sandbox
// (Landlock and the seccomp socket filter): Linux only.
const KernelSandbox = false

// heldPaths holds nothing: there is no ruleset to build.
type heldPaths struct{}

var deviceRW, deviceRO []string

func holdPaths(...[]string) *heldPaths { return nil }

func checkRuleset(policy) error { return errNoKernelSandbox }

func restrict(policy, bool) error { return errNoKernelSandbox }

func filterAvailable() bool { return false }

func socketFilter(bool) ([]struct{}, error) { return nil, errNoKernelSandbox }
