package policy

import (
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// TestShellHabits: the shell habits a client brings are refused with what
// to do instead: cd names the directory field, an assignment the envs
// field, and one string holding a command line is split into argv for it.
func TestShellHabits(t *testing.T) {
	p := testPolicy("ls", "cd", "make")
	for _, tt := range []struct {
		argv       []string
		code, hint string
	}{
		{[]string{"cd", "sub"}, string(CodeShellHabit), `"directory"`},
		{[]string{"export", "FOO=1"}, string(CodeShellHabit), `"envs"`},
		{[]string{"source", "env.sh"}, string(CodeShellHabit), "no shell"},
		{[]string{"CC=gcc", "make"}, string(CodeShellHabit), `"envs"`},
		{[]string{"ls -la | grep x"}, string(CodeUnsafeName), `["ls","-la","|","grep","x"]`},
		{[]string{"ls -la"}, string(CodeUnsafeName), `["ls","-la"]`},
	} {
		_, err := decideIn(t, p, tt.argv, fixture(t))
		r := refusal.As(err)
		if r == nil || string(r.Code) != tt.code || !strings.Contains(r.Message, tt.hint) || r.Index != 0 {
			t.Errorf("%q: got %v, want %s naming %s", tt.argv, err, tt.code, tt.hint)
		}
	}
	if err := CheckName("ls -la"); err == nil || strings.Contains(err.Error(), "argv array") {
		t.Errorf("an allowlist entry gets no argv hint: %v", err)
	}
}
