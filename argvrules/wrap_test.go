package argvrules

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
)

// wrapRows are each wrapper grammar's readings: the index of the wrapped
// program (-1: none), or the refusal's code.
var wrapRows = []struct {
	argv    []string
	program int
	code    string
}{
	{argv: []string{"timeout", "5", "make"}, program: 2},
	{argv: []string{"timeout", "-s", "KILL", "-k5", "10s", "cat", "-s"}, program: 5},
	{argv: []string{"timeout", "--signal=TERM", "--foreground", "--preserve-status", "1m", "ls"}, program: 5},
	{argv: []string{"timeout", "--", "5", "ls"}, program: 3},
	{argv: []string{"timeout", "5"}, program: -1},
	{argv: []string{"timeout", "--help"}, program: -1},
	{argv: []string{"timeout", "-x", "5", "ls"}, code: "timeout.unknown-option"},
	{argv: []string{"timeout", "-s"}, code: "timeout.missing-value"},
	{argv: []string{"nice", "sort"}, program: 1},
	{argv: []string{"nice", "-n", "-5", "sort"}, program: 3},
	{argv: []string{"nice", "-n5", "sort"}, program: 2},
	{argv: []string{"nice", "--adjustment=5", "sort"}, program: 2},
	{argv: []string{"nice", "-10", "sort", "-n"}, program: 2},
	{argv: []string{"nice", "--5", "sort"}, program: 2},
	{argv: []string{"nice", "-+5", "-n", "3", "sort"}, program: 4},
	{argv: []string{"nice"}, program: -1},
	{argv: []string{"nice", "-x", "sort"}, code: "nice.unknown-option"},
	{argv: []string{"ionice", "-c", "3", "make"}, program: 3},
	{argv: []string{"ionice", "-c2", "-n7", "-t", "make"}, program: 4},
	{argv: []string{"ionice", "-p", "1"}, code: "ionice.other-process"},
	{argv: []string{"ionice", "--pgid=1"}, code: "ionice.other-process"},
	{argv: []string{"ionice", "-u", "0"}, code: "ionice.other-process"},
	{argv: []string{"ionice"}, program: -1},
	{argv: []string{"nohup", "make", "-j4"}, program: 1},
	{argv: []string{"nohup", "--", "make"}, program: 2},
	{argv: []string{"nohup", "-p", "make"}, code: "nohup.unknown-option"},
	{argv: []string{"stdbuf", "-oL", "grep", "x"}, program: 2},
	{argv: []string{"stdbuf", "-i0", "-o", "0", "-eL", "cat"}, program: 5},
	{argv: []string{"stdbuf", "--output=L", "cat"}, program: 2},
	{argv: []string{"stdbuf", "-x", "cat"}, code: "stdbuf.unknown-option"},
	{argv: []string{"time", "-p", "make"}, program: 2},
	{argv: []string{"time", "-f", "%e %M", "-o", "t.txt", "-a", "make"}, program: 6},
	{argv: []string{"time", "--output=t.txt", "make"}, program: 2},
	{argv: []string{"time", "-o", "/etc/t", "make"}, code: "time.output-path"},
	{argv: []string{"time", "-o", "../t", "make"}, code: "time.output-path"},
	{argv: []string{"env", "sort"}, program: 1},
	{argv: []string{"env", "LC_ALL=C", "sort"}, program: 2},
	{argv: []string{"env", "-i", "LANG=C", "TZ=UTC", "date"}, program: 4},
	{argv: []string{"env", "-", "A=1", "date"}, program: 3},
	{argv: []string{"env", "-u", "LANG", "-uTZ", "--unset=LC_ALL", "date"}, program: 5},
	{argv: []string{"env"}, program: -1},
	{argv: []string{"env", "-i"}, program: -1},
	{argv: []string{"env", "LD_PRELOAD=/tmp/x.so", "cat"}, code: "env.steering"},
	{argv: []string{"env", "PATH=/tmp", "cat"}, code: "env.steering"},
	{argv: []string{"env", "GIT_CONFIG_COUNT=0", "git", "log"}, code: "env.steering"},
	{argv: []string{"env", "BASH_ENV=x", "make"}, code: "env.steering"},
	{argv: []string{"env", "A-B=1", "cat"}, code: "env.form"},
	{argv: []string{"env", "=1", "cat"}, code: "env.form"},
	{argv: []string{"env", "-S", "sh -c id"}, code: "env.form"},
	{argv: []string{"env", "-Ssh -c id"}, code: "env.form"},
	{argv: []string{"env", "--split-string=sh -c id"}, code: "env.form"},
	{argv: []string{"env", "-C", "/", "cat"}, code: "env.form"},
	{argv: []string{"env", "--ignore-signal=TERM", "cat"}, code: "env.form"},
	{argv: []string{"env", "-u", "A=B", "cat"}, code: "env.form"},
	{argv: []string{"flock", "lk", "make"}, program: 2},
	{argv: []string{"flock", "-n", "-w", "5", "lk", "make"}, program: 5},
	{argv: []string{"flock", "-x", "sub", "make"}, program: 3},
	{argv: []string{"flock", "9"}, program: -1},
	{argv: []string{"flock", "lk"}, code: "flock.missing-value"},
	{argv: []string{"flock", "lk", "-c", "id"}, code: "flock.shell"},
	{argv: []string{"flock", "lk", "--command", "id"}, code: "flock.shell"},
	{argv: []string{"flock", "-c", "id", "lk"}, code: "flock.shell"},
	{argv: []string{"flock", "/etc/lk", "make"}, code: "flock.output-path"},
	{argv: []string{"xargs", "grep", "-l", "x"}, program: 1},
	{argv: []string{"xargs", "-0", "-n", "1", "-P", "4", "rm"}, program: 6},
	{argv: []string{"xargs", "-I{}", "cp", "{}", "dst"}, program: 2},
	{argv: []string{"xargs", "-i", "cp", "{}", "dst"}, program: 2},
	{argv: []string{"xargs", "-d", "\n", "-r", "-t", "-L", "2", "-s", "4096", "-x", "-E", "END", "wc"}, program: 12},
	{argv: []string{"xargs", "-a", "in.txt", "wc"}, program: 3},
	{argv: []string{"xargs", "--process-slot-var=SLOT", "wc"}, program: 2},
	{argv: []string{"xargs"}, program: -1},
	{argv: []string{"xargs", "-p", "rm"}, code: "xargs.terminal"},
	{argv: []string{"xargs", "--open-tty", "rm"}, code: "xargs.terminal"},
	{argv: []string{"xargs", "--process-slot-var=LD_PRELOAD", "wc"}, code: "xargs.slot-var"},
	{argv: []string{"xargs", "--process-slot-var=BASH_ENV", "wc"}, code: "xargs.slot-var"},
	{argv: []string{"xargs", "--process-slot-var=A-B", "wc"}, code: "xargs.slot-var"},
	{argv: []string{"xargs", "-a", "missing", "wc"}, code: "xargs.arg-file"},
	{argv: []string{"xargs", "-a", "/dev/zero", "wc"}, code: "xargs.arg-file"},
	{argv: []string{"xargs", "-a", "sub", "wc"}, code: "xargs.arg-file"},
	{argv: []string{"xargs", "-y", "wc"}, code: "xargs.unknown-option"},
}

func TestWrapperGrammars(t *testing.T) {
	dir := testDir(t)
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := pinCtx(t, dir)
	for _, r := range wrapRows {
		f := FamilyOf(r.argv[0])
		w, ok, rj := Wrap(f, r.argv, ctx)
		if !ok {
			t.Fatalf("%q: %s is not a wrapper", r.argv, r.argv[0])
		}
		if c := Check(r.argv, ctx); (c == nil) != (rj == nil) {
			t.Errorf("%q: Check says %v, Wrap %v", r.argv, c, rj)
		}
		switch {
		case r.code != "":
			if rj == nil || string(rj.Code) != r.code {
				t.Errorf("%q: want %s, got %v", r.argv, r.code, rj)
			} else if rj.Index >= 0 && rj.Index < len(r.argv) && rj.Arg != "" && !strings.Contains(rj.Message, rj.Arg) {
				t.Errorf("%q: message %q does not name %q", r.argv, rj.Message, rj.Arg)
			}
		case rj != nil:
			t.Errorf("%q: refused: %v", r.argv, rj)
		case w.Program != r.program:
			t.Errorf("%q: program at %d, want %d", r.argv, w.Program, r.program)
		case WrappedAt(r.argv) != r.program:
			t.Errorf("%q: WrappedAt says %d, want %d", r.argv, WrappedAt(r.argv), r.program)
		}
	}
}

// TestWrapperReadings: what the grammars record besides the program.
func TestWrapperReadings(t *testing.T) {
	w, _, _ := Wrap(FamilyOf("env"), []string{"env", "-i", "-u", "A", "B=1", "C=2", "x"}, Context{})
	if !w.Env.Clear || !slices.Equal(w.Env.Unset, []string{"A"}) || !slices.Equal(w.Env.Set, []string{"B=1", "C=2"}) {
		t.Errorf("env reading %+v", w.Env)
	}
	if got := w.Env.Apply([]string{"A=0", "HOME=/h"}); !slices.Equal(got, []string{"B=1", "C=2"}) {
		t.Errorf("env -i applied: %q", got)
	}
	w, _, _ = Wrap(FamilyOf("env"), []string{"env", "-u", "A", "B=1", "x"}, Context{})
	if got := w.Env.Apply([]string{"A=0", "HOME=/h"}); !slices.Equal(got, []string{"B=1", "HOME=/h"}) {
		t.Errorf("env -u applied: %q", got)
	}
	w, _, _ = Wrap(FamilyOf("xargs"), []string{"xargs", "-I", "@@", "cp", "@@", "d"}, Context{})
	if !w.Appends || w.Replace != "@@" || w.Program != 3 {
		t.Errorf("xargs -I reading %+v", w)
	}
	w, _, _ = Wrap(FamilyOf("xargs"), []string{"xargs", "-r"}, Context{})
	if w.Default != "echo" || w.Program != -1 {
		t.Errorf("xargs without a command: %+v", w)
	}
	w, _, _ = Wrap(FamilyOf("stdbuf"), []string{"stdbuf", "-oL", "cat"}, Context{})
	if !w.Preload {
		t.Errorf("stdbuf reading %+v", w)
	}
}

// TestMoreOperands: under an xargs, only the wrappers answer for the
// appended words; every other family is refused, naming why, and a
// wrapper that names no program is refused too.
func TestMoreOperands(t *testing.T) {
	more := Context{MoreOperands: true}
	for _, argv := range [][]string{{"find", "."}, {"git", "log"}, {"sort"}, {"sed", "s/a/b/"}, {"curl", "http://x"}, {"tar", "-t"}, {"make"}} {
		r := Check(argv, more)
		if r == nil || !strings.HasSuffix(string(r.Code), ".appended-words") || !strings.Contains(r.Message, "xargs") {
			t.Errorf("%q under xargs: %v", argv, r)
		}
		if Check(argv, Context{}) != nil && argv[0] != "tar" && argv[0] != "curl" {
			t.Logf("%q is refused alone too", argv)
		}
	}
	for _, argv := range [][]string{{"timeout", "5"}, {"nice"}, {"env", "A=1"}, {"nohup"}, {"stdbuf", "-oL"}, {"time"}} {
		if r := Check(argv, more); r == nil || !strings.HasSuffix(string(r.Code), ".appended-words") {
			t.Errorf("%q under xargs names no program: %v", argv, r)
		}
	}
	for _, argv := range [][]string{{"timeout", "5", "rm"}, {"xargs"}, {"env", "A=1", "wc"}} {
		if r := Check(argv, more); r != nil {
			t.Errorf("%q under xargs: %v", argv, r)
		}
	}
}

func FuzzWrapTimeout(f *testing.F) { fuzzWrapper(f, "timeout") }
func FuzzWrapNice(f *testing.F)    { fuzzWrapper(f, "nice") }
func FuzzWrapIonice(f *testing.F)  { fuzzWrapper(f, "ionice") }
func FuzzWrapNohup(f *testing.F)   { fuzzWrapper(f, "nohup") }
func FuzzWrapStdbuf(f *testing.F)  { fuzzWrapper(f, "stdbuf") }
func FuzzWrapTime(f *testing.F)    { fuzzWrapper(f, "time") }
func FuzzWrapEnv(f *testing.F)     { fuzzWrapper(f, "env") }
func FuzzWrapFlock(f *testing.F)   { fuzzWrapper(f, "flock") }
func FuzzWrapXargs(f *testing.F)   { fuzzWrapper(f, "xargs") }

// fuzzWrapper checks one wrapper grammar: it never panics, is
// deterministic, the wrapped program (when any) lies after the wrapper's
// own words and is not an option of the wrapper, env sets no steering
// name, and Check agrees with Wrap.
func fuzzWrapper(f *testing.F, name string) {
	for _, r := range wrapRows {
		if r.argv[0] == name {
			f.Add(joinSeed(r.argv[1:]))
		}
	}
	f.Add("--" + sep + "-" + sep + "--=" + sep + "-\x00" + sep + "\xff")
	dir := pinCtx(f, testDir(f))
	fam := FamilyOf(name)
	f.Fuzz(func(t *testing.T, in string) {
		argv := append([]string{name}, splitFuzzArgv(in)...)
		for _, ctx := range []Context{{}, dir, {MoreOperands: true}} {
			w, ok, r := Wrap(fam, argv, ctx)
			w2, _, r2 := Wrap(fam, argv, ctx)
			if !ok || (r == nil) != (r2 == nil) || w.Program != w2.Program {
				t.Fatalf("%q: not deterministic", argv)
			}
			if (Check(argv, ctx) == nil) != (r == nil) && !ctx.MoreOperands {
				t.Fatalf("%q: Check and Wrap disagree", argv)
			}
			if r != nil {
				if r.Code == "" || r.Index >= len(argv) {
					t.Fatalf("%q: malformed rejection %+v", argv, r)
				}
				continue
			}
			if w.Program == 0 || w.Program >= len(argv) {
				t.Fatalf("%q: program at %d", argv, w.Program)
			}
			if w.Program > 0 && strings.HasPrefix(argv[w.Program-1], "-") && argv[w.Program-1] != "--" && argv[w.Program-1] != "-" && name == "nohup" {
				t.Fatalf("%q: nohup's program follows an option", argv)
			}
			for _, kv := range w.Env.Set {
				n, _, _ := strings.Cut(kv, "=")
				if childenv.Steering(n) {
					t.Fatalf("%q: env sets steering %s", argv, n)
				}
			}
		}
	})
}

// TestWrapperVerdictHidesOutsideFiles: the verdict on a file a wrapper
// names outside the working directory is the same whether it exists, is
// a directory or is missing.
func TestWrapperVerdictHidesOutsideFiles(t *testing.T) {
	outside := outsideFiles(t)
	expectSameVerdicts(t, pinCtx(t, testDir(t)), outside, [][]string{{"xargs", "-a", "@", "wc"}, {"flock", "@", "true"}})
}

// outsideFiles is a directory outside the working directory holding a
// file "secret" and a directory "subd" ("missing" is absent).
func outsideFiles(t *testing.T) string {
	t.Helper()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("k\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(outside, "subd"), 0o700); err != nil {
		t.Fatal(err)
	}
	return outside
}

// expectSameVerdicts checks that each form (its "@" replaced by
// outside/NAME) gets one verdict whether NAME is a file, a directory or
// missing: judging a call never reveals what the sandbox hides.
func expectSameVerdicts(t *testing.T, ctx Context, outside string, forms [][]string) {
	t.Helper()
	for _, form := range forms {
		var verdicts []string
		for _, name := range []string{"secret", "subd", "missing"} {
			argv := make([]string, len(form))
			for i, w := range form {
				argv[i] = strings.ReplaceAll(w, "@", filepath.Join(outside, name))
			}
			v := "allowed"
			if rj := Check(argv, ctx); rj != nil {
				v = string(rj.Code) + ": " + strings.ReplaceAll(rj.Message, name, "NAME")
			}
			verdicts = append(verdicts, v)
		}
		if verdicts[0] != verdicts[1] || verdicts[1] != verdicts[2] {
			t.Errorf("%q: the verdict depends on the file outside:\n%s", form, strings.Join(verdicts, "\n"))
		}
	}
}
