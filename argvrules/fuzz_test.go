package argvrules

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// sep joins argv elements in fuzz inputs; any other byte, NUL and invalid
// UTF-8 included, is argument data.
const sep = "\x1f"

// splitFuzzArgv turns fuzz input into argv words.
func splitFuzzArgv(s string) []string { return strings.Split(s, sep) }

// joinSeed is the inverse of splitFuzzArgv for seeding.
func joinSeed(argv []string) string { return strings.Join(argv, sep) }

// fuzzPrograms is every program name of the registry: the fuzz target's
// first input picks one, so every family is fuzzed through the registry
// without a target of its own.
var fuzzPrograms = func() []string {
	var out []string
	for _, f := range registry {
		out = append(out, f.Programs...)
	}
	return out
}()

// FuzzRecognizers checks every family's recognizer, through Check: it
// never panics, is deterministic, and returns a well-formed Rejection, in
// a pinned directory and without one. Seeds are the package's table rows
// and generic option shapes, under every program name of their family.
func FuzzRecognizers(f *testing.F) {
	seeds := append(append(append([]row(nil), tableRows...), redTeamRows...), round2Rows...)
	for _, r := range sedRows {
		seeds = append(seeds, row{argv: r.argv})
	}
	for i, name := range fuzzPrograms {
		which := uint8(i)
		f.Add(which, "")
		f.Add(which, "--"+sep+"-"+sep+"--="+sep+"-\x00"+sep+"\xff\xfe")
		for _, s := range fuzzSeeds {
			f.Add(which, joinSeed(s[1:]))
		}
		for _, r := range seeds {
			if FamilyOf(baseName(r.argv)) == FamilyOf(name) {
				f.Add(which, joinSeed(r.argv[1:]))
			}
		}
	}
	f.Add(uint8(slices.Index(fuzzPrograms, "npm")), "--g") // once a panic (nopt abbreviation)
	dir := pinCtx(f, testDir(f))
	f.Fuzz(func(t *testing.T, which uint8, in string) {
		argv := []string{fuzzPrograms[int(which)%len(fuzzPrograms)]}
		if in != "" {
			argv = append(argv, splitFuzzArgv(in)...)
		}
		for _, ctx := range []Context{{}, dir} {
			checkDeterministic(t, ctx, argv)
		}
	})
}

// checkDeterministic runs Check twice and requires equal verdicts and a
// well-formed rejection.
func checkDeterministic(t *testing.T, ctx Context, argv []string) {
	r1 := Check(argv, ctx)
	r2 := Check(argv, ctx)
	if !reflect.DeepEqual(r1, r2) {
		t.Fatalf("nondeterministic verdict for %q: %+v vs %+v", argv, r1, r2)
	}
	if r1 != nil {
		if r1.Code == "" || !strings.HasPrefix(r1.Message, "Command rejected by default security policy: ") {
			t.Fatalf("malformed rejection for %q: %+v", argv, r1)
		}
		checkDeclared(t, r1.Code)
		if r1.Index < 0 || r1.Index >= len(argv) {
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

func FuzzGetopt(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(joinSeed(s), uint8(0))
		f.Add(joinSeed(s), uint8(1))
	}
	tables := []*table{sortTable, gnuTarTable, gawkTable, testTable}
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		argv := splitFuzzArgv(s)
		tbl := tables[int(which)%len(tables)]
		order := ordering(which / 4 % 2)
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
			if ev.Kind == operandEvent && ev.Word != argv[ev.Index] {
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
		for _, d := range awkDialects {
			r1 := checkAwkProgram(src, 1, d)
			r2 := checkAwkProgram(src, 1, d)
			if !reflect.DeepEqual(r1, r2) {
				t.Fatalf("nondeterministic awk check of %q", src)
			}
			if !strings.Contains(src, "system") || r1 != nil {
				continue
			}
			// system may only appear inside strings, regexes or comments.
			toks, err := lexAwk(src, d)
			if err == nil {
				for _, tk := range toks {
					if tk.kind == awkIdent && tk.text == "system" {
						t.Fatalf("system identifier allowed in %q (%s)", src, d.name)
					}
				}
			}
		}
	})
}

// FuzzSplitQuotedFields checks that splitting never panics and that
// re-quoting the fields and splitting again gives the same fields.
func FuzzSplitQuotedFields(f *testing.F) {
	for _, s := range []string{"", "-s -w", "-X 'main.v=a b' -s", `"-o" /x`, `'a'b`, `a'b c'`, `'x`, "\t-N\n-l\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fields, err := splitQuotedFields(s)
		if err != nil {
			return
		}
		var b strings.Builder
		for _, fl := range fields {
			switch {
			case !strings.Contains(fl, "'"):
				b.WriteString("'" + fl + "' ")
			case !strings.Contains(fl, `"`):
				b.WriteString(`"` + fl + `" `)
			default:
				return
			}
		}
		again, err := splitQuotedFields(b.String())
		if err != nil || !reflect.DeepEqual(again, fields) {
			t.Fatalf("%q: fields %q, re-quoted %q split to %q (%v)", s, fields, b.String(), again, err)
		}
	})
}
