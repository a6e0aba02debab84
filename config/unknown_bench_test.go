package config

import (
	"fmt"
	"testing"
)

// BenchmarkUnknownVariables is the start-up scan of a service's
// environment for misspelt settings: a hundred unrelated variables and a
// few of ours.
func BenchmarkUnknownVariables(b *testing.B) {
	env := []string{"MCP_SHELL_SANDBOX=auto", "ALLOW_COMMANDS=ls", "MCP_SHELL_OUTPUT_LIMIT=1", "ALLOWED_PATTERNS=x"}
	for i := range 100 {
		env = append(env, fmt.Sprintf("SOME_UNRELATED_VARIABLE_%d=value", i))
	}
	for b.Loop() {
		if len(UnknownVariables(env)) != 2 {
			b.Fatal("wrong count")
		}
	}
}
