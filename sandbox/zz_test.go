package sandbox

import (
	"os"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

func TestZZTimeline(t *testing.T) {
	work := t.TempDir()
	l := newLauncher(t, Config{Mode: ModeLandlock, WriteDirs: []string{work}, Limits: DefaultLimits()})
	st := Stage{Path: "/usr/bin/true", Argv: []string{"true"}}
	const n = 1000
	names := []string{"plan", "ruleset", "restrict", "seccomp", "start", "limits", "wait", "plain-start", "plain-wait"}
	d := make([][]time.Duration, len(names))
	for range n {
		var ts [8]time.Time
		done := make(chan struct{})
		go func() {
			defer close(done)
			runtime.LockOSThread()
			ts[0] = time.Now()
			pl, _ := l.plan(st, []string{testPath})
			ts[1] = time.Now()
			unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
			fd, _ := pl.policy.rulesetFD()
			ts[2] = time.Now()
			ll.LandlockRestrictSelf(fd, 0)
			unix.Close(fd)
			ts[3] = time.Now()
			installSocketFilter(true)
			ts[4] = time.Now()
			p, err := os.StartProcess(st.Path, st.Argv, &os.ProcAttr{Env: []string{testPath}, Sys: &syscall.SysProcAttr{Setpgid: true, Ptrace: true}})
			if err != nil {
				t.Error(err)
				return
			}
			ts[5] = time.Now()
			limitTraced(p.Pid, pl.rlimits)
			ts[6] = time.Now()
			p.Wait()
			ts[7] = time.Now()
		}()
		<-done
		for i := range 7 {
			d[i] = append(d[i], ts[i+1].Sub(ts[i]))
		}
		t0 := time.Now()
		p, _ := os.StartProcess(st.Path, st.Argv, &os.ProcAttr{Env: []string{testPath}, Sys: &syscall.SysProcAttr{Setpgid: true}})
		t1 := time.Now()
		p.Wait()
		d[7] = append(d[7], t1.Sub(t0))
		d[8] = append(d[8], time.Since(t1))
	}
	for i, name := range names {
		slices.Sort(d[i])
		t.Logf("%-12s p50 %v", name, d[i][n/2])
	}
}

func TestZZCallDir(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	l := newLauncher(t, Config{Mode: ModeLandlock, WriteDirs: []string{t.TempDir()}, Limits: DefaultLimits()})
	defer l.Close()
	var g, r []time.Duration
	for range 500 {
		t0 := time.Now()
		d, err := l.CallDir()
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		l.ReleaseCallDir(d)
		t2 := time.Now()
		g, r = append(g, t1.Sub(t0)), append(r, t2.Sub(t1))
		time.Sleep(2 * time.Millisecond)
	}
	slices.Sort(g)
	slices.Sort(r)
	t.Logf("get p50 %v p90 %v; release p50 %v", g[250], g[450], r[250])
}

func TestZZWritable(t *testing.T) {
	work := t.TempDir()
	t.Setenv("TMPDIR", t.TempDir())
	l := newLauncher(t, Config{Mode: ModeLandlock, WriteDirs: []string{work}, Limits: DefaultLimits()})
	var a, b []time.Duration
	for i := range 1000 {
		tmp := t.TempDir()
		for j := range 2 {
			st := Stage{Path: "/usr/bin/true", Argv: []string{"true"}}
			if (i+j)%2 == 0 {
				st.Writable = []string{tmp}
			}
			t0 := time.Now()
			p, err := l.Start(st, &os.ProcAttr{Env: []string{testPath}, Sys: &syscall.SysProcAttr{Setpgid: true}})
			if err != nil {
				t.Fatal(err)
			}
			p.Wait()
			if st.Writable != nil {
				a = append(a, time.Since(t0))
			} else {
				b = append(b, time.Since(t0))
			}
		}
	}
	slices.Sort(a)
	slices.Sort(b)
	t.Logf("with tmp p50 %v; without p50 %v", a[500], b[500])
}
