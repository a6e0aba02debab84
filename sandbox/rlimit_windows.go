//go:build windows

// Windows has no rlimits: ModeLimits is refused, and ModeAuto falls back
// to ModeOff (the call's Job Object still bounds its process tree).

package sandbox

import "errors"

// rlimit is never built on Windows.
type rlimit struct{}

func rlimits(Limits) ([]rlimit, error) { return nil, nil }

// limitsAvailable says why ModeLimits cannot apply.
func limitsAvailable() error {
	return errors.New("rlimits do not exist on windows")
}
