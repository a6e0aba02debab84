package config

import (
	"slices"
	"testing"
)

// TestUnknownVariables: every MCP_SHELL_* name Env does not declare is
// reported with the declared name nearest to it (misspellings and other
// servers' names alike), as are near spellings of the unprefixed
// allowlist names; declared names, the tests' switches and other
// programs' variables are not.
func TestUnknownVariables(t *testing.T) {
	environ := []string{
		"PATH=/usr/bin", "HOME=/root", "ALLOW_ROOT=1", "PATTERNS=x",
		"MCP_SHELL_OUTPUT_LIMIT=5",         // a word short
		"MCP_SHELL_ALLOWED_WORKDIRS=/srv",  // seed 002
		"MCP_SHELL_ENV_ALLOWLIST=LANG",     // the reference server
		"MCP_SHELL_MAX_TIMEOUT_SECONDSS=9", // one letter too many
		"MCP_SHELL_SANDBOX_NETWROK=deny",   // transposed
		"ALLOWED_PATTERNS=git-.*",          // ALLOW_PATTERNS
		"ALLOW_COMMAND=ls",                 // ALLOW_COMMANDS
		"MCP_SHELL_TOOLS=shell_execute",    // declared
		"ALLOW_COMMANDS=ls",                // declared
		"MCP_SHELL_TEST_HEAVY=1",           // a test switch
		"MCP_SHELL_AUDIT_LOG",              // declared, malformed entry
	}
	want := []Unknown{
		{"MCP_SHELL_OUTPUT_LIMIT", "MCP_SHELL_OUTPUT_LIMIT_BYTES"},
		{"MCP_SHELL_ALLOWED_WORKDIRS", "MCP_SHELL_ALLOWED_DIRECTORIES"},
		{"MCP_SHELL_ENV_ALLOWLIST", "MCP_SHELL_CHILD_ENV_ALLOWLIST"},
		{"MCP_SHELL_MAX_TIMEOUT_SECONDSS", "MCP_SHELL_MAX_TIMEOUT_SECONDS"},
		{"MCP_SHELL_SANDBOX_NETWROK", "MCP_SHELL_SANDBOX_NETWORK"},
		{"ALLOWED_PATTERNS", "ALLOW_PATTERNS"},
		{"ALLOW_COMMAND", "ALLOW_COMMANDS"},
	}
	if got := UnknownVariables(environ); !slices.Equal(got, want) {
		t.Errorf("UnknownVariables:\n got %v\nwant %v", got, want)
	}
}

// TestEveryVariableIsKnown: no declared variable is reported, so a field
// added to Env is known without another list to keep.
func TestEveryVariableIsKnown(t *testing.T) {
	var environ []string
	for _, v := range variables() {
		environ = append(environ, v.name+"=x")
	}
	if got := UnknownVariables(environ); len(got) != 0 {
		t.Errorf("declared variables reported unknown: %v", got)
	}
}
