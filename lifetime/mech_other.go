//go:build !linux

// macOS and Windows have no cgroups, no child subreaper, no pidfd and no
// parent-death signal: Setup always falls back to platformMechanism
// (Pgroup, Job), so m.cg, m.tr and m.wd stay nil and these stand-ins for
// the Linux mechanisms are never reached.

package lifetime

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"
)

var errLinuxOnly = errors.New("only on Linux, not available on " + runtime.GOOS)

func (m *Manager) setupCgroup(string) error { return errLinuxOnly }

func (m *Manager) setupSubreaper(string) (wdErr, err error) { return nil, errLinuxOnly }

type cgroupTree struct{ calls string }

func (*cgroupTree) newCall() (*cgroupCall, error) { return nil, errLinuxOnly }
func (*cgroupTree) remove()                       {}
func (*cgroupTree) release(*cgroupCall)           {}

type cgroupCall struct{ fd int }

func (*cgroupCall) signal(syscall.Signal) {}
func (*cgroupCall) kill() error           { return errLinuxOnly }
func (*cgroupCall) remove()               {}

func killCgroup(string) error { return errLinuxOnly }

type tracker struct{}

func (*tracker) scan()                        {}
func (*tracker) begin(*Call)                  {}
func (*tracker) addStage(*Call, int)          {}
func (*tracker) signal(*Call, syscall.Signal) {}
func (*tracker) kill(*Call, func())           {}
func (*tracker) end(*Call)                    {}

type watchdog struct{ p *os.Process }

func (*watchdog) stop(time.Duration) {}

// reap and reapLoop do nothing: without a subreaper, only the server's
// own children, each reaped by its caller, are the server's to reap.
func (m *Manager) reap()     {}
func (m *Manager) reapLoop() {}

// RunWatchdog refuses: there is no watchdog off Linux.
func RunWatchdog([]string) int {
	fmt.Fprintln(os.Stderr, "mcp-shell-server watchdog:", errLinuxOnly)
	return 2
}
