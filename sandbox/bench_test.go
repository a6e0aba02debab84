package sandbox

import (
	"syscall"
	"testing"
)

// BenchmarkRulesetFD is the launcher's Landlock work per launch apart
// from the final landlock_restrict_self: building the default ruleset
// (one O_PATH open and landlock_add_rule per tree).
func BenchmarkRulesetFD(b *testing.B) {
	requireLandlock(b)
	abi, err := KernelABI()
	if err != nil {
		b.Fatal(err)
	}
	p := policy{abi: min(abi, maxABI), readDirs: DefaultReadDirs, writeDirs: []string{b.TempDir()}, extraRead: []string{"/bin/true"}, extraWrite: []string{b.TempDir()}}
	for b.Loop() {
		fd, _, err := p.rulesetFD()
		if err != nil {
			b.Fatal(err)
		}
		syscall.Close(fd)
	}
}

// BenchmarkCommand is the server-side cost of wrapping one stage with a
// per-call writable directory (JSON encoding of the configuration).
func BenchmarkCommand(b *testing.B) {
	l := &Launcher{exe: "/x", cfg: Config{Mode: ModeLandlock, WriteDirs: []string{"/work"}, Limits: DefaultLimits()}, abi: 7}
	for b.Loop() {
		l.Command("/bin/true", []string{"true"}, "/tmp/mcp-shell-call-1")
	}
}
