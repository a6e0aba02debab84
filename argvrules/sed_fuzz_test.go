package argvrules

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzSedScript compiles arbitrary script text, as one chunk and split
// into two, with both models in every GNU posixicity: no panic, the same
// result twice, and every effect well placed: its offset inside its
// chunk at the command or flag letter it names, its file name text of
// that chunk.
func FuzzSedScript(f *testing.F) {
	for _, r := range sedRows {
		for _, w := range r.argv[1:] {
			f.Add(w, uint8(0))
		}
	}
	for _, c := range sedOracleCases {
		for _, w := range c.args {
			f.Add(w, uint8(1))
		}
	}
	f.Add("a\\", uint8(2))
	f.Add("s/[[:alpha:]/]/x/w f", uint8(3))
	f.Add("w\\\n/tmp/x", uint8(4))
	f.Fuzz(func(t *testing.T, src string, mode uint8) {
		chunks := []string{src}
		if mode&1 == 1 {
			if i := strings.IndexByte(src, ';'); i >= 0 {
				chunks = []string{src[:i], src[i+1:]}
			}
		}
		for _, m := range []func([]string) sedScript{
			func(c []string) sedScript { return compileGNU(c, sedPosix(mode/2%3), mode&8 != 0) },
			compileBusybox,
		} {
			s1, s2 := m(chunks), m(chunks)
			if !reflect.DeepEqual(s1, s2) {
				t.Fatalf("nondeterministic compile of %q", chunks)
			}
			checkEffects(t, chunks, s1)
		}
	})
}

func compileGNU(chunks []string, posix sedPosix, sandbox bool) sedScript {
	g := newGnuSed(posix)
	g.sandbox = sandbox
	for i, c := range chunks {
		g.compile(i, c)
	}
	return g.finish()
}

func compileBusybox(chunks []string) sedScript {
	b := &bbSed{}
	for i, c := range chunks {
		b.block(i, c)
	}
	return b.finish()
}

func checkEffects(t *testing.T, chunks []string, s sedScript) {
	for _, e := range s.effects {
		if e.chunk < 0 || e.chunk >= len(chunks) || e.off < 0 || e.off >= len(chunks[e.chunk]) {
			t.Fatalf("effect %+v out of range of %q", e, chunks)
		}
		c := chunks[e.chunk]
		letter := map[string]byte{"e command": 'e', "e flag of s": 'e', "w command": 'w', "W command": 'W', "w flag of s": 'w', "r command": 'r', "R command": 'R'}[e.cmd]
		if letter == 0 || c[e.off] != letter {
			t.Fatalf("effect %+v does not point at its letter in %q", e, c)
		}
		if e.file != "" && !strings.Contains(c, strings.TrimSuffix(e.file, "\\")) {
			t.Fatalf("effect %+v names a file that is not text of %q", e, c)
		}
	}
	if s.err != nil && (s.err.chunk < 0 || s.err.chunk >= len(chunks) || s.err.off < 0 || s.err.off > len(chunks[s.err.chunk])+1) {
		t.Fatalf("error %+v out of range of %q", s.err, chunks)
	}
}
