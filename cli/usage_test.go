package cli

import (
	"strings"
	"testing"
)

// TestUsageExampleVerdict: the check example --help shows gets the
// verdict its comment states.
func TestUsageExampleVerdict(t *testing.T) {
	var help strings.Builder
	usage(&help)
	for _, line := range strings.Split(help.String(), "\n") {
		cmd, verdict, ok := strings.Cut(line, "# reject: ")
		if !ok || !strings.Contains(cmd, " check -- ") {
			continue
		}
		words := strings.Fields(cmd)
		env, rest := words[0], words[1:]
		name, value, _ := strings.Cut(env, "=")
		t.Setenv(name, value)
		var out, errs strings.Builder
		code := Main(rest[1:], Streams{In: strings.NewReader(""), Out: &out, Err: &errs})
		if code != ExitReject || !strings.Contains(out.String(), "rule: "+strings.TrimSpace(verdict)) {
			t.Errorf("--help example %q: exit %d\n%s%s", cmd, code, out.String(), errs.String())
		}
		return
	}
	t.Fatal("--help shows no check example with its verdict")
}
