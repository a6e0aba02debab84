//go:build linux

// Landlock rulesets and ABIs: Linux only.

package sandbox

import (
	"os"
	"runtime"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
)

// BenchmarkRulesetFD is the Landlock work per launch apart from the final
// landlock_restrict_self: building a leaf stage's ruleset (one O_PATH
// open and landlock_add_rule per tree or file).
func BenchmarkRulesetFD(b *testing.B) {
	requireLandlock(b)
	abi, err := KernelABI()
	if err != nil {
		b.Fatal(err)
	}
	read := leafReads(DefaultReadDirs)
	p := policy{ABI: min(abi, maxABI), Read: read, Write: []string{b.TempDir(), b.TempDir()},
		Exec: append([]string{"/usr/bin/true"}, childenv.Interpreters("/usr/bin/true", "")...), held: holdPaths(read, deviceRW, deviceRO)}
	for b.Loop() {
		fd, err := p.rulesetFD()
		if err != nil {
			b.Fatal(err)
		}
		unix.Close(fd)
	}
}

// BenchmarkStart is one confined start and wait of true, against the
// same start without the launcher, and in mode landlock with one part
// of a stage's confinement left out each (its seccomp filter, its own
// scoping domain, the read-only mounts, all three): what each part costs
// per stage (bench/README.md, "What each part of the sandbox costs").
func BenchmarkStart(b *testing.B) {
	requireLandlock(b)
	work := b.TempDir()
	path := lookPath(b, "true")
	without := map[string]func(*Launcher){
		"landlock-no-filter": func(l *Launcher) { l.filter = false },
		"landlock-no-scope":  func(l *Launcher) { l.scope = nil },
		"landlock-no-mounts": func(l *Launcher) { l.readOnly = false },
		"landlock-none":      func(l *Launcher) { l.filter, l.scope, l.readOnly = false, nil, false },
	}
	for _, mode := range []string{"direct", ModeLimits, ModeLandlock, "landlock-no-filter", "landlock-no-scope", "landlock-no-mounts", "landlock-none"} {
		b.Run(mode, func(b *testing.B) {
			start := func() (*os.Process, error) {
				return os.StartProcess(path, []string{"true"}, &os.ProcAttr{Env: []string{testPath}, Sys: &syscall.SysProcAttr{Setpgid: true}})
			}
			if mode != "direct" {
				m := mode
				if without[mode] != nil {
					m = ModeLandlock
				}
				l := newLauncher(b, Config{Mode: m, WriteDirs: []string{work}, Limits: DefaultLimits()})
				if f := without[mode]; f != nil {
					f(l)
				}
				st := stageOf(b, l.Rules, work, []string{testPath}, nil, path)
				start = func() (*os.Process, error) {
					return l.Start(st, &os.ProcAttr{Env: st.Env, Sys: &syscall.SysProcAttr{Setpgid: true}})
				}
			}
			for b.Loop() {
				p, err := start()
				if err != nil {
					b.Fatal(err)
				}
				p.Wait()
			}
		})
	}
}

// BenchmarkConfineFromInside is the work the thread does in every new
// stage at its stop after execve: entering the nested domain, closing the
// scoping ruleset, adding stageTail to the filter inherited from the
// thread, against the nested domain alone and against installing the
// whole allowlist per stage instead (the kernel converts and compiles a
// filter each time it is installed).
func BenchmarkConfineFromInside(b *testing.B) {
	requireLandlock(b)
	abi, _ := KernelABI()
	filter, err := stageFilter(filterKind{})
	if err != nil {
		b.Fatal(err)
	}
	fd, err := scopeRuleset(abi)
	if err != nil {
		b.Fatal(err)
	}
	scope := os.NewFile(uintptr(fd), "scope")
	defer scope.Close()
	for _, bc := range []struct {
		name   string
		filter []unix.SockFilter
	}{{"scope", nil}, {"scope+tail", stageTail}, {"scope+allowlist", filter}} {
		b.Run(bc.name, func(b *testing.B) {
			runtime.LockOSThread() // the tracer is this thread
			defer runtime.UnlockOSThread()
			for b.Loop() {
				b.StopTimer()
				p, err := os.StartProcess(lookPath(b, "true"), []string{"true"}, &os.ProcAttr{Files: []*os.File{nil, nil, nil, scope}, Sys: &syscall.SysProcAttr{Ptrace: true}})
				if err != nil {
					b.Fatal(err)
				}
				var info unix.Siginfo
				unix.Waitid(unix.P_PID, p.Pid, &info, unix.WSTOPPED|unix.WNOWAIT, nil)
				b.StartTimer()
				if err := confineFromInside(p.Pid, 3, bc.filter); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				unix.PtraceDetach(p.Pid)
				p.Wait()
				b.StartTimer()
			}
		})
	}
}
