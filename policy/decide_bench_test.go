package policy_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/policy"
)

// BenchmarkDecide is the policy's share of a call (policy.Decide, every
// call's path from the request to its plan, the plan closed again) for a
// single program, a git subcommand and a three-stage pipeline, without a
// sandbox (the sandbox's rules are its own package's benchmarks).
func BenchmarkDecide(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("b\na\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	p := policy.FromSettings(policy.Settings{Commands: []string{"true", "git", "cat", "sort", "head"}, AllowedDirs: []string{dir}}, policy.Sandbox{})
	for _, bc := range []struct {
		name string
		argv []string
	}{
		{"true", []string{"true"}},
		{"git-status", []string{"git", "status", "--short"}},
		{"pipeline", []string{"cat", "in.txt", "|", "sort", "|", "head", "-n", "1"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if _, err := os.Stat("/usr/bin/" + bc.argv[0]); err != nil {
				b.Skipf("%s: %v", bc.argv[0], err)
			}
			b.ReportAllocs()
			for b.Loop() {
				call, err := p.Decide(policy.Request{Argv: bc.argv})
				if err != nil {
					b.Fatal(err)
				}
				call.Close()
			}
		})
	}
}
