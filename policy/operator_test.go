package policy

import (
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// TestOperatorReason: a whole-element operator
// that ends a stage its recognizer refuses anyway, or that is find's
// -exec terminator, gives the real reason (with a pointer to
// execute_command); otherwise the operator is the reason.
func TestOperatorReason(t *testing.T) {
	dir := fixture(t)
	tests := []struct {
		allow []string
		argv  []string
		code  refusal.Code
		index int
	}{
		{[]string{"find"}, []string{"find", ".", "-exec", "id", ";"}, "find.exec", 2},
		{[]string{"find"}, []string{"/usr/bin/find", ".", "-ok", "rm", "{}", ";"}, "find.exec", 2},
		{[]string{"echo"}, []string{"find", ".", "-exec", "id", ";"}, "find.exec", 2}, // the terminator, find not allowed
		{[]string{"find", "wc"}, []string{"find", ".", "-exec", "id", ";", "-quit", "|", "wc"}, "find.exec", 2},
		{[]string{"find", "ls"}, []string{"ls", "|", "find", ".", "-execdir", "id", ";"}, "find.exec", 4},
		{[]string{"find", "ls"}, []string{"find", ".", "-exec", "id", "&&", "ls"}, "find.exec", 2},
		{[]string{"sort", "ls"}, []string{"sort", "-o", "/tmp/x", "in.txt", ";", "ls"}, "sort.output-path", 1},
		// the operator is the reason
		{[]string{"find", "ls"}, []string{"find", ".", "-name", "x", ";", "ls"}, CodeShellOperator, 4},
		{[]string{"echo", "ls"}, []string{"echo", "a", ";", "ls"}, CodeShellOperator, 2},
		{[]string{"ls"}, []string{"find", ".", "-exec", "id", "&&", "ls"}, CodeShellOperator, 4}, // not allowed, not a terminator
		{[]string{"ls"}, []string{"sort", "-o", "/tmp/x", ";", "ls"}, CodeShellOperator, 3},
		{[]string{"bash", "ls"}, []string{"bash", "-c", "id", ";", "ls"}, CodeShellOperator, 3},
		{[]string{"ls"}, []string{";", "ls"}, CodeShellOperator, 0},
		{[]string{"echo"}, []string{"echo", "a", "|", "||"}, CodeShellOperator, 3},
	}
	for _, tt := range tests {
		p := FromSettings(Settings{Commands: tt.allow}, Sandbox{})
		_, err := decideIn(t, p, tt.argv, dir)
		r := refusal.As(err)
		if r == nil {
			t.Errorf("%q: allowed, want %s", tt.argv, tt.code)
			continue
		}
		if r.Code != tt.code || r.Index != tt.index {
			t.Errorf("%q (allow %v): %s at %d, want %s at %d: %s", tt.argv, tt.allow, r.Code, r.Index, tt.code, tt.index, r.Message)
		}
		if !strings.Contains(r.Message, "execute_command") {
			t.Errorf("%q: the message does not point to execute_command: %s", tt.argv, r.Message)
		}
		if r.Code != CodeShellOperator && !strings.Contains(r.Message, "was not the reason") {
			t.Errorf("%q: the real reason does not say the operator was not it: %s", tt.argv, r.Message)
		}
	}
}
