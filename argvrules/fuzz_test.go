package argvrules

import (
	"reflect"
	"strings"
	"testing"
)

// splitFuzzArgv turns fuzz input into argv: elements are separated by
// NUL bytes, so any byte sequence (invalid UTF-8 included) is an argv.
func splitFuzzArgv(s string) []string { return strings.Split(s, "\x00") }

// joinSeed is the inverse of splitFuzzArgv for seeding.
func joinSeed(argv []string) string { return strings.Join(argv, "\x00") }

// seedFrom adds every argv of the package's table tests that belongs to
// family (argv[0] replaced by name) to the fuzz corpus.
func seedFrom(f *testing.F, name string, argvs ...[]string) {
	f.Add(name)
	f.Add(name + "\x00")
	for _, a := range argvs {
		if len(a) == 0 {
			continue
		}
		f.Add(joinSeed(append([]string{name}, a[1:]...)))
	}
}

// checkDeterministic runs rec twice and requires equal verdicts and a
// well-formed rejection.
func checkDeterministic(t *testing.T, rec Recognizer, argv []string) {
	r1 := rec(argv, scratchCtx)
	r2 := rec(argv, scratchCtx)
	if !reflect.DeepEqual(r1, r2) {
		t.Fatalf("nondeterministic verdict for %q: %+v vs %+v", argv, r1, r2)
	}
	if r1 != nil {
		if r1.Code == "" || !strings.HasPrefix(r1.Message, "Command rejected by default security policy: ") {
			t.Fatalf("malformed rejection for %q: %+v", argv, r1)
		}
		if r1.Index >= len(argv) {
			t.Fatalf("rejection index %d out of range for %q", r1.Index, argv)
		}
	}
}

var fuzzSeeds = [][]string{
	{"x", "-ro", "f"}, {"x", "--co=sh"}, {"x", "--", "--output=d"}, {"x", "-k", "--output=d"},
	{"x", ".", "-name", "-exec"}, {"x", "-L", "--", ".", "-fprintf", "f", "%p"}, {"x", "-D", "x", "-O3"},
	{"x", "cIf", "p", "o.tar", "d"}, {"x", "-cL", "--use-compress-program=sh"}, {"x", "-W", "us=sh"},
	{"x", "tf", "h:x"}, {"x", "--new-v=x"}, {"x", "--checkpoint-action=exec=id"},
	{"x", "$1 > 5 { print }"}, {"x", "BEGIN{print \"x\" | \"sh\"}"}, {"x", "-W", "exec", "p"},
	{"x", "@include \"f\""}, {"x", "/a|b/"}, {"x", "{print > \"/dev/stderr\"}"}, {"x", "-e", "BEGIN{@f()}"},
}

func FuzzSort(f *testing.F) {
	seedFrom(f, "sort", fuzzSeeds...)
	f.Fuzz(func(t *testing.T, s string) { checkDeterministic(t, Sort, splitFuzzArgv(s)) })
}

func FuzzFind(f *testing.F) {
	seedFrom(f, "find", fuzzSeeds...)
	f.Fuzz(func(t *testing.T, s string) { checkDeterministic(t, Find, splitFuzzArgv(s)) })
}

func FuzzTar(f *testing.F) {
	seedFrom(f, "tar", fuzzSeeds...)
	f.Fuzz(func(t *testing.T, s string) { checkDeterministic(t, Tar, splitFuzzArgv(s)) })
}

func FuzzAwk(f *testing.F) {
	seedFrom(f, "awk", fuzzSeeds...)
	seedFrom(f, "gawk", fuzzSeeds...)
	seedFrom(f, "mawk", fuzzSeeds...)
	f.Fuzz(func(t *testing.T, s string) { checkDeterministic(t, Awk, splitFuzzArgv(s)) })
}

// FuzzGetopt checks the engine on the sort, tar and gawk tables: no
// panic, deterministic events, and every event index inside argv with a
// value index at or after its option word.
func FuzzGetopt(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(joinSeed(s), uint8(0))
		f.Add(joinSeed(s), uint8(1))
	}
	tables := []*Table{sortTable, gnuTarTable, gawkTable, testTable}
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		argv := splitFuzzArgv(s)
		tbl := tables[int(which)%len(tables)]
		order := Ordering(which / 4 % 2)
		p1 := tbl.Parse(argv, 1, order)
		p2 := tbl.Parse(argv, 1, order)
		if !reflect.DeepEqual(p1, p2) {
			t.Fatalf("nondeterministic parse of %q", argv)
		}
		for _, ev := range p1.Events {
			if ev.Index < 1 || ev.Index >= len(argv) || ev.ValueIndex >= len(argv) ||
				(ev.ValueIndex >= 0 && ev.ValueIndex < ev.Index) {
				t.Fatalf("bad event indices %+v for %q", ev, argv)
			}
			if ev.Kind == OperandEvent && ev.Word != argv[ev.Index] {
				t.Fatalf("operand word mismatch %+v for %q", ev, argv)
			}
		}
		_ = gnuTarParse(argv)
		_ = bsdtarParse(argv)
	})
}

// FuzzAwkLexer checks that the awk program checker never panics and is
// deterministic on arbitrary program text.
func FuzzAwkLexer(f *testing.F) {
	for _, s := range fuzzSeeds {
		for _, a := range s[1:] {
			f.Add(a)
		}
	}
	f.Add("BEGIN{system\\\n(\"id\")}")
	f.Add("{ x = a / b; y = /re[/]x/ }")
	f.Add("BEGIN { if (0) exit / +/; system(c); z = 1/2 }")
	f.Add("BEGIN { if (0) / +/; system(c); z = 1/2 }")
	f.Add("BEGIN { if (\"a\" ~ /[[:alpha:]/]+/) x=1; system(c); z = 1 / 2 }")
	f.Add("BEGIN { if (\"]\" ~ /[^]/]+/) x=1; print 1 > f; z = 1 / 2 }")
	f.Add("BEGIN { x++ / +/; getline / 2; y = length / 3 }")
	f.Fuzz(func(t *testing.T, src string) {
		r1 := checkAwkProgram(src, 1)
		r2 := checkAwkProgram(src, 1)
		if !reflect.DeepEqual(r1, r2) {
			t.Fatalf("nondeterministic awk check of %q", src)
		}
		if strings.Contains(src, "system") && r1 == nil {
			// system may only appear inside strings, regexes or comments.
			toks, err := lexAwk(src)
			if err == nil {
				for _, tk := range toks {
					if tk.kind == awkIdent && tk.text == "system" {
						t.Fatalf("system identifier allowed in %q", src)
					}
				}
			}
		}
	})
}
