//go:build linux

// Landlock rulesets and ABIs: Linux only.

package sandbox

import (
	"strings"
	"syscall"
	"testing"
)

// FuzzParseArgs: any launcher argv decodes to a configuration or an
// error, never a panic; a decoded one has a known mode and a target.
func FuzzParseArgs(f *testing.F) {
	l := &Launcher{exe: "/x", Rules: &Rules{cfg: Config{Mode: ModeLandlock, WriteDirs: []string{"/w"}, Limits: DefaultLimits()}, abi: 7, mode: ModeLandlock}}
	pl := applied{landlock: true, filter: &filterKind{}, policy: policy{ABI: 7, Read: []string{"/usr"}, Exec: []string{"/bin/true"}, Write: []string{"/w", "/tmp/t"}}}
	_, args := l.Command("/bin/true", []string{"true", "a"}, pl)
	f.Add(strings.Join(args[2:], "\x00"))
	f.Add("{}\x00--\x00/bin/true\x00true")
	f.Add(`{"mode":"landlock","policy":{"abi":99}}` + "\x00--\x00/p\x00p")
	f.Add("{\x00--")
	f.Fuzz(func(t *testing.T, joined string) {
		w, path, argv, err := parseArgs(strings.Split(joined, "\x00"))
		if err != nil {
			return
		}
		if w.Mode != ModeLimits && w.Mode != ModeLandlock || len(argv) == 0 {
			t.Errorf("accepted %q as mode %q path %q argv %q", joined, w.Mode, path, argv)
		}
		if w.Policy.ABI < 1 || w.Policy.ABI > maxABI {
			// An out-of-range ABI must fail closed, not index presets.
			if fd, err := (policy{ABI: w.Policy.ABI}).rulesetFD(); err == nil {
				syscall.Close(fd)
				t.Errorf("ABI %d accepted", w.Policy.ABI)
			}
		}
	})
}
