//go:build linux

package sandbox

import (
	"os"
	"syscall"
	"testing"
)

// TestConfineTracedRefusesPlainStop: a child found in an ordinary
// group-stop (CLD_STOPPED, as a SIGSTOP before PTRACE_TRACEME would leave
// it) is an error, so its start fails instead of handing out a stage that
// was never confined; a child that ended first is left to the caller.
func TestConfineTracedRefusesPlainStop(t *testing.T) {
	sleep := func() *os.Process {
		p, err := os.StartProcess("/bin/sleep", []string{"sleep", "30"}, &os.ProcAttr{})
		if err != nil {
			t.Skipf("no /bin/sleep: %v", err)
		}
		t.Cleanup(func() { _ = p.Kill(); _, _ = p.Wait() })
		return p
	}
	for _, tc := range []struct {
		name    string
		signal  syscall.Signal
		wantErr bool
	}{
		{"stopped", syscall.SIGSTOP, true},
		{"killed", syscall.SIGKILL, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := sleep()
			if err := p.Signal(tc.signal); err != nil {
				t.Fatal(err)
			}
			trapped, err := confineTraced(p.Pid, -1, applied{})
			if trapped || (err != nil) != tc.wantErr {
				t.Fatalf("confineTraced after %v = (%v, %v), want trapped false and error %v", tc.signal, trapped, err, tc.wantErr)
			}
		})
	}
}
