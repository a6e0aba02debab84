package lazyre

import (
	"sync"
	"testing"
)

func TestCompiledOnFirstUse(t *testing.T) {
	r := New(`^a(b+)c$`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if !r.MatchString("abbc") || r.MatchString("ac") {
				t.Error("wrong match")
			}
		})
	}
	wg.Wait()
	if got := r.FindStringSubmatch("abc"); len(got) != 2 || got[1] != "b" {
		t.Errorf("FindStringSubmatch = %q", got)
	}
	if first := r.Compiled(); r.Compiled() != first {
		t.Error("compiled more than once")
	}
	if r.String() != `^a(b+)c$` {
		t.Errorf("String = %q", r.String())
	}
}

func TestBadExpression(t *testing.T) {
	bad := New(`a(`)
	if Check(New(`a`), bad) == nil {
		t.Fatal("Check accepted a bad expression")
	}
	defer func() {
		if recover() == nil {
			t.Error("a bad expression did not panic on first use")
		}
	}()
	bad.MatchString("a")
}

func BenchmarkMatchString(b *testing.B) {
	r := New(`^[A-Za-z_][A-Za-z0-9_]*$`)
	for b.Loop() {
		r.MatchString("PATH_1")
	}
}
