//go:build !linux

// Off Linux there is no kernel sandbox: an explicit landlock is refused
// with a reason naming the platform, and auto falls back (to limits on
// macOS, to off on Windows, which has no rlimits either).

package sandbox

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

func TestNoKernelSandbox(t *testing.T) {
	if _, err := Probe(Config{Mode: ModeLandlock}); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), runtime.GOOS) {
		t.Errorf("Probe(landlock) = %v, want ErrUnavailable naming %s", err, runtime.GOOS)
	}
	if _, err := NewLauncher(Config{Mode: ModeLandlock, CacheDir: t.TempDir()}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("NewLauncher(landlock) = %v, want ErrUnavailable", err)
	}
	l, err := NewLauncher(Config{Mode: ModeAuto, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatalf("NewLauncher(auto): %v", err)
	}
	want := ModeLimits
	if runtime.GOOS == "windows" {
		want = ModeOff
	}
	if l.Mode() != want || l.Confined() || !strings.Contains(l.Fallback(), "Linux-only") {
		t.Errorf("auto gave mode %q confined=%v fallback %q, want %q and a Linux-only reason", l.Mode(), l.Confined(), l.Fallback(), want)
	}
}
