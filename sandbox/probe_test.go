//go:build linux

// Landlock rulesets and ABIs: Linux only.

package sandbox

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestChooseABI(t *testing.T) {
	denied := Config{Mode: ModeLandlock}
	allowed := Config{Mode: ModeLandlock, Network: NetworkAllow}
	best := Config{Mode: ModeLandlock, BestEffort: true}
	tests := []struct {
		name     string
		cfg      Config
		kernel   int
		queryErr error
		want     int
		wantErr  string // substring; "" means success
	}{
		{name: "no landlock", cfg: denied, queryErr: syscall.ENOSYS, wantErr: "does not offer Landlock"},
		{name: "disabled at boot", cfg: best, queryErr: syscall.EOPNOTSUPP, wantErr: "does not offer Landlock"},
		{name: "ABI 0 even best effort", cfg: best, kernel: 0, wantErr: "does not offer Landlock"},
		{name: "ABI 3 lacks TCP control", cfg: denied, kernel: 3, wantErr: "needs Landlock ABI 4"},
		{name: "ABI 3 enough with network allowed", cfg: allowed, kernel: 3, want: 3},
		{name: "ABI 2 lacks truncate control", cfg: allowed, kernel: 2, wantErr: "needs Landlock ABI 3"},
		{name: "best effort downgrade", cfg: best, kernel: 1, want: 1},
		{name: "ABI 4", cfg: denied, kernel: 4, want: 4},
		{name: "ABI 7", cfg: denied, kernel: 7, want: 7},
		{name: "newer than go-landlock", cfg: denied, kernel: 99, want: maxABI},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := chooseABI(tt.cfg, tt.kernel, tt.queryErr)
			if tt.wantErr != "" {
				if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("chooseABI = %d, %v; want ErrUnavailable mentioning %q", got, err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), "MCP_SHELL_SANDBOX") {
					t.Errorf("message %q names no variable", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("chooseABI = %d, %v; want %d", got, err, tt.want)
			}
		})
	}
}

func TestProbe(t *testing.T) {
	work := t.TempDir()
	kernel, kerr := KernelABI()
	tests := []struct {
		name     string
		cfg      Config
		landlock bool
		want     error // nil: success
		wantText string
	}{
		{name: "off", cfg: Config{}},
		{name: "off explicit", cfg: Config{Mode: ModeOff, WriteDirs: []string{"/nonexistent-7f3a"}}},
		{name: "unknown mode", cfg: Config{Mode: "seccomp"}, want: ErrConfig},
		{name: "relative write dir", cfg: Config{Mode: ModeLandlock, WriteDirs: []string{"rel"}}, want: ErrConfig},
		{name: "unclean read dir", cfg: Config{Mode: ModeLandlock, ReadDirs: []string{"/usr/../etc"}}, want: ErrConfig},
		{name: "invalid UTF-8 path", cfg: Config{Mode: ModeLandlock, WriteDirs: []string{"/tmp/\xff"}}, want: ErrConfig},
		{name: "NUL in path", cfg: Config{Mode: ModeLandlock, WriteDirs: []string{"/tmp\x00x"}}, want: ErrConfig},
		{name: "landlock", cfg: Config{Mode: ModeLandlock, WriteDirs: []string{work}}, landlock: true},
		{name: "missing read dir skipped", cfg: Config{Mode: ModeLandlock, ReadDirs: []string{"/usr", "/nonexistent-7f3a"}, WriteDirs: []string{work}}, landlock: true},
		{name: "missing write dir", cfg: Config{Mode: ModeLandlock, WriteDirs: []string{filepath.Join(work, "missing")}}, landlock: true, wantText: "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.landlock {
				requireLandlock(t)
			}
			abi, err := Probe(tt.cfg)
			switch {
			case tt.want != nil:
				if !errors.Is(err, tt.want) {
					t.Errorf("Probe = %d, %v; want %v", abi, err, tt.want)
				}
			case tt.wantText != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantText) {
					t.Errorf("Probe = %d, %v; want an error mentioning %q", abi, err, tt.wantText)
				}
			case err != nil:
				t.Errorf("Probe: %v", err)
			case tt.landlock && (kerr != nil || abi != min(kernel, maxABI)):
				t.Errorf("Probe ABI = %d, kernel offers %d (%v)", abi, kernel, kerr)
			case !tt.landlock && abi != 0:
				t.Errorf("Probe ABI = %d in mode off, want 0", abi)
			}
		})
	}
}
