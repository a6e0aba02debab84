//go:build linux

// Tests of the restricted-thread pool: Linux only, like the pool.

package sandbox

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestThreadReuse: a stage whose restrictions equal an earlier one's
// starts from that stage's thread; one with another writable tree, or
// whose writable tree was replaced by a new directory of the same name,
// gets a thread of its own; and a stage on a reused thread is still
// confined (its write outside the allowed trees fails).
func TestThreadReuse(t *testing.T) {
	requireLandlock(t)
	work, other := t.TempDir(), t.TempDir()
	l := newLauncher(t, Config{Mode: ModeLandlock, WriteDirs: []string{work}, Limits: DefaultLimits()})
	l.setMethod(false)
	sh := lookPath(t, "sh")
	run := func(writable, script string) (*thread, int) {
		t.Helper()
		st := stageOf(t, l.Rules, work, []string{testPath}, []string{writable}, sh, "-c", script)
		p, err := l.Start(st, &os.ProcAttr{Dir: work, Env: st.Env, Sys: &syscall.SysProcAttr{Setpgid: true}})
		if err != nil {
			t.Fatal(err)
		}
		ps, err := p.Wait()
		if err != nil {
			t.Fatal(err)
		}
		l.threads.mu.Lock()
		defer l.threads.mu.Unlock()
		return l.threads.idle[len(l.threads.idle)-1], ps.ExitCode()
	}
	first, _ := run(other, "true")
	again, code := run(other, "echo x > "+filepath.Join(t.TempDir(), "outside"))
	if again != first {
		t.Errorf("the same restrictions got a new thread")
	}
	if code == 0 {
		t.Errorf("a write outside the allowed trees succeeded on a reused thread")
	}
	if n := len(l.threads.idle); n != 1 {
		t.Errorf("%d idle threads after two stages of one kind, want 1", n)
	}
	third := t.TempDir()
	if th, _ := run(third, "true"); th == first {
		t.Errorf("another writable tree reused the thread")
	}
	if err := os.Remove(third); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(third, 0o700); err != nil {
		t.Fatal(err)
	}
	l.threads.mu.Lock()
	before := len(l.threads.idle)
	l.threads.mu.Unlock()
	if _, code := run(third, "echo x > "+filepath.Join(third, "f")); code != 0 {
		t.Errorf("writing into the recreated writable tree failed (exit %d): a ruleset naming the old directory was reused", code)
	}
	if n := len(l.threads.idle); n != before+1 {
		t.Errorf("%d idle threads after the recreated tree, want %d (a new thread)", n, before+1)
	}
}

// BenchmarkThreadKey is the per-stage work of finding a stage's thread:
// its restrictions encoded and the paths its ruleset names looked up.
func BenchmarkThreadKey(b *testing.B) {
	requireLandlock(b)
	work := b.TempDir()
	l := newLauncher(b, Config{Mode: ModeLandlock, WriteDirs: []string{work}, Limits: DefaultLimits()})
	st := stageOf(b, l.Rules, work, []string{testPath}, nil, lookPath(b, "true"))
	pl, err := l.applied(st.Confinement)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		threadKey(pl)
	}
}
