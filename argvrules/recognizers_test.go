package argvrules

import (
	"strings"
	"testing"
)

// recCase is one recognizer table row: argv and the expected rule ("" for
// allowed).
type recCase struct {
	argv []string
	rule string
}

func runRecCases(t *testing.T, rec Recognizer, cases []recCase) {
	t.Helper()
	for _, c := range cases {
		r := rec(c.argv, Context{Dir: "/w"})
		switch {
		case c.rule == "" && r != nil:
			t.Errorf("%q: want allow, got %s: %s", c.argv, r.Rule, r.Message)
		case c.rule != "" && r == nil:
			t.Errorf("%q: want %s, got allow", c.argv, c.rule)
		case c.rule != "" && r.Rule != c.rule:
			t.Errorf("%q: want %s, got %s: %s", c.argv, c.rule, r.Rule, r.Message)
		case r != nil && !strings.HasPrefix(r.Message, "Command rejected by default security policy: "):
			t.Errorf("%q: message lacks the catalogue prefix: %s", c.argv, r.Message)
		case r != nil && r.Index >= 0 && r.Index < len(c.argv) && r.Arg != c.argv[r.Index]:
			t.Errorf("%q: Arg %q is not argv[%d]", c.argv, r.Arg, r.Index)
		}
	}
}

func TestSort(t *testing.T) {
	runRecCases(t, Sort, []recCase{
		{[]string{"sort", "-u"}, ""},
		{[]string{"sort", "-k2,2n", "-t,"}, ""},
		{[]string{"sort", "-rn", "f"}, ""},
		{[]string{"sort", "-S", "1G", "f"}, ""},
		{[]string{"sort", "--parallel=2", "f"}, ""},
		{[]string{"sort", "--", "--output=data"}, ""},
		{[]string{"sort", "-t", "-o", "f"}, ""},         // -t consumes "-o": data
		{[]string{"sort", "-k", "--output=x", "f"}, ""}, // value is data
		{[]string{"sort", "--check=quiet", "f"}, ""},
		{[]string{"sort", "--ch", "f"}, ""},
		{[]string{"sort", "-", "f"}, ""},
		{[]string{"gsort", "-o", "out", "f"}, "sort.option"},
		{[]string{"sort", "-oout", "f"}, "sort.option"},
		{[]string{"sort", "-ro", "out", "f"}, "sort.option"},
		{[]string{"sort", "-rofile", "f"}, "sort.option"},
		{[]string{"sort", "-rT", "/tmp", "f"}, "sort.option"},
		{[]string{"sort", "-T/tmp", "f"}, "sort.option"},
		{[]string{"sort", "--o", "x", "f"}, "sort.option"},
		{[]string{"sort", "--out=x", "f"}, "sort.option"},
		{[]string{"sort", "--output", "x"}, "sort.option"},
		{[]string{"sort", "--co", "sh", "f"}, "sort.option"},
		{[]string{"sort", "--compress-program=sh", "f"}, "sort.option"},
		{[]string{"sort", "--compress=sh", "f"}, "sort.option"},
		{[]string{"sort", "--files0-from=list"}, "sort.option"},
		{[]string{"sort", "--f=list"}, "sort.ambiguous-option"}, // files0-from, field-separator
		{[]string{"sort", "--fil=list"}, "sort.option"},
		{[]string{"sort", "--te=/tmp", "f"}, "sort.option"},
		{[]string{"sort", "f", "-o", "out"}, "sort.option"}, // after operands
		{[]string{"sort", "f", "--", "-o", "out"}, ""},
		{[]string{"sort", "--c", "f"}, "sort.ambiguous-option"}, // check, compress-program
		{[]string{"sort", "--bogus", "f"}, "sort.unknown-option"},
		{[]string{"sort", "-X", "f"}, "sort.unknown-option"},
		{[]string{"sort", "-k"}, "sort.missing-value"},
		{[]string{"sort", "--unique=yes"}, "sort.unexpected-value"},
	})
}

func TestSortAmbiguousNamesRiskyReading(t *testing.T) {
	r := Sort([]string{"sort", "--c=gzip", "f"}, Context{})
	if r == nil || !strings.Contains(r.Message, "--compress-program runs a program") {
		t.Fatalf("ambiguous --c should name the risky reading, got %+v", r)
	}
	if !strings.Contains(r.Message, sortPolicy) {
		t.Errorf("risky ambiguity should use the danger policy: %s", r.Message)
	}
}

func TestFind(t *testing.T) {
	runRecCases(t, Find, []recCase{
		{[]string{"find", ".", "-name", "*.go"}, ""},
		{[]string{"find", ".", "-name", "-exec"}, ""},
		{[]string{"find", ".", "-path", "-fprint"}, ""},
		{[]string{"find", ".", "-printf", "-exec %p\n"}, ""},
		{[]string{"find", ".", "-delete"}, ""},
		{[]string{"find", ".", "-newermt", "2020-01-01"}, ""},
		{[]string{"find", "-H", "-L", "-P", "-O3", "-D", "exec", ".", "-ls"}, ""},
		{[]string{"find", "-D", "-exec", "."}, ""}, // -D's value is data
		{[]string{"find"}, ""},
		{[]string{"find", "--", "-"}, ""},
		{[]string{"find", ".", "(", "-name", "a", "-o", "-name", "b", ")", "!", "-empty", ",", "-print"}, ""},
		{[]string{"find", ")", "-print"}, ""}, // leading ")" is a start point
		{[]string{"gfind", ".", "-exec", "id", ";"}, "find.exec"},
		{[]string{"find", ".", "-execdir", "id", "+"}, "find.exec"},
		{[]string{"find", ".", "-ok", "id", ";"}, "find.exec"},
		{[]string{"find", ".", "-okdir", "id", ";"}, "find.exec"},
		{[]string{"find", "--", ".", "-exec", "id", ";"}, "find.exec"},
		{[]string{"find", "-L", "--", ".", "-fls", "x"}, "find.file-output"},
		{[]string{"find", ".", "-fprint", "x"}, "find.file-output"},
		{[]string{"find", ".", "-fprint0", "x"}, "find.file-output"},
		{[]string{"find", ".", "-fprintf", "x", "%p"}, "find.file-output"},
		{[]string{"find", ".", "-name", "x", "-fprint", "x"}, "find.file-output"},
		{[]string{"find", ".", "-bogus"}, "find.unknown-option"},
		{[]string{"find", ".", "-print", "stray"}, "find.unknown-option"},
		{[]string{"find", ".", "--", "-exec", "id", ";"}, "find.unknown-option"},
		{[]string{"find", ".", "-name"}, "find.missing-value"},
		{[]string{"find", "-D"}, "find.missing-value"},
	})
}

func TestTar(t *testing.T) {
	runRecCases(t, Tar, []recCase{
		{[]string{"tar", "-czf", "a.tgz", "dir"}, ""},
		{[]string{"tar", "-xjf", "a.tbz"}, ""},
		{[]string{"tar", "-J", "-cf", "a.txz", "d"}, ""},
		{[]string{"tar", "--zstd", "-cf", "a.zst", "d"}, ""},
		{[]string{"tar", "--checkpoint=10", "-cf", "a", "d"}, ""},
		{[]string{"tar", "czf", "a.tgz", "dir"}, ""},
		{[]string{"tar", "-tvf", "a.tar"}, ""},
		{[]string{"tar", "-xzf", "a.tgz", "-C", "sub"}, ""},
		{[]string{"bsdtar", "-cf", "a.tar", "--uid", "0", "d"}, ""}, // bsdtar-only option
		{[]string{"tar", "-cf", "a.tar", "--", "--to-command=x"}, ""},
		{[]string{"tar", "-cf", "--use-compress-program=x", "d"}, ""}, // -f consumed it
		{[]string{"tar", "-cf", "host:x", "--force-local", "d"}, ""},
		{[]string{"tar", "-cf", "./host:x", "d"}, ""},
		{[]string{"tar", "-cf", "/a/b:x", "d"}, ""},
		{[]string{"tar", "-c", "-f", "a.tar", "-C", "d", "."}, ""},
		{[]string{"tar", "--checkpoint-action=dot", "-cf", "a", "d"}, ""},
		{[]string{"tar", "-I", "zstd", "-cf", "x", "d"}, ruleTarExec},
		{[]string{"tar", "-cvIsh", "-f", "x", "d"}, ruleTarExec},
		{[]string{"tar", "cIf", "prog", "out.tar", "dir"}, ruleTarExec},
		{[]string{"tar", "-cf", "x", "d", "-Ifoo"}, ruleTarExec},
		{[]string{"tar", "--use-comp=sh", "-cf", "x", "d"}, ruleTarExec},
		{[]string{"tar", "--use", "sh", "-cf", "x", "d"}, ruleTarExec},
		{[]string{"tar", "--to", "sh", "-xf", "x"}, "tar.ambiguous-option"},
		{[]string{"tar", "--to-c", "sh", "-xf", "x"}, ruleTarExec},
		{[]string{"tar", "--to-com=sh", "-xf", "x"}, ruleTarExec},
		{[]string{"tar", "--rm=x", "-xf", "x"}, ruleTarExec},
		{[]string{"tar", "--rsh=x", "-xf", "x"}, ruleTarExec},
		{[]string{"tar", "--info-script=x", "-cMf", "x", "d"}, ruleTarExec},
		{[]string{"tar", "--new-v=x", "-cMf", "x", "d"}, ruleTarExec},
		{[]string{"tar", "-cMF", "x", "-f", "a", "d"}, ruleTarExec},
		{[]string{"tar", "cMLFf", "20", "x", "mv.tar", "big"}, ruleTarExec},
		{[]string{"tar", "--checkpoint-action=exec=id", "-cf", "x", "d"}, ruleTarExec},
		{[]string{"tar", "--checkpoint-act", "exec=id", "-cf", "x", "d"}, ruleTarExec},
		{[]string{"tar", "--checkpoint-action=sleep=1", "-cf", "x", "d"}, ruleTarExec},
		// bsdtar reads -L as a flag, so the next word is an option there.
		{[]string{"tar", "-cL", "--use-compress-program=sh", "-f", "x", "d"}, ruleTarExec},
		// bsdtar's -W name=value is a long option.
		{[]string{"bsdtar", "-cf", "x", "-W", "use-compress-program=sh", "d"}, ruleTarExec},
		{[]string{"tar", "-cf", "x", "-Wuse-compress-program=sh", "d"}, ruleTarExec},
		{[]string{"tar", "-cf", "x", "-Wus=sh", "d"}, ruleTarExec},
		{[]string{"tar", "tf", "127.0.0.1:/x.tar"}, "tar.remote-archive"},
		{[]string{"tar", "-cf", "host:x", "d"}, "tar.remote-archive"},
		{[]string{"tar", "--file=h:x", "-c", "d"}, "tar.remote-archive"},
		{[]string{"tar", "--new", "x", "-cf", "x", "d"}, "tar.ambiguous-option"},
		{[]string{"tar", "--bogus-both", "-cf", "x", "d"}, "tar.unknown-option"},
	})
}

func TestTarMessageNamesAbbreviation(t *testing.T) {
	r := Tar([]string{"tar", "-cf", "x", "--use-comp=sh", "d"}, Context{})
	want := `Command rejected by default security policy: tar command execution option: argument 3 "--use-comp=sh" is an abbreviation of --use-compress-program, which runs a program`
	if r == nil || !strings.HasPrefix(r.Message, want) {
		t.Fatalf("got %+v\nwant prefix %s", r, want)
	}
	if r.Index != 3 || r.Arg != "--use-comp=sh" {
		t.Errorf("Index/Arg = %d/%q", r.Index, r.Arg)
	}
}

func TestAwk(t *testing.T) {
	runRecCases(t, Awk, []recCase{
		{[]string{"awk", "$1 > 5", "f"}, ""},
		{[]string{"awk", "NR<3", "f"}, ""},
		{[]string{"awk", "$1 > 5 { print }", "f"}, ""},
		{[]string{"awk", "/ERROR|WARN/", "f"}, ""},
		{[]string{"awk", "$1 == 1 || $2 == 2", "f"}, ""},
		{[]string{"awk", `{ print "a|b>c" }`, "f"}, ""},
		{[]string{"awk", "{ print $1; print $2 }", "f"}, ""},
		{[]string{"awk", "{ print ($1 > 5) }", "f"}, ""},
		{[]string{"awk", "{ print $1 > \"/dev/stderr\" }", "f"}, ""},
		{[]string{"awk", "{ getline line < \"other\"; print line }", "f"}, ""},
		{[]string{"awk", "{ x = $1 / 2; y = x / 3; print x, y }", "f"}, ""},
		{[]string{"awk", "# system(\"id\")\n{ print }", "f"}, ""},
		{[]string{"awk", "{ print\n x = $2 > 1 }", "f"}, ""},
		{[]string{"awk", "-v", "x=a<b|system(1)", "BEGIN{print x}"}, ""},
		{[]string{"awk", "{print}", "x=system(1)|y"}, ""},
		{[]string{"awk", "-F", "|", "{print $1}"}, ""},
		{[]string{"gawk", "-e", "BEGIN{print 1}"}, ""},
		{[]string{"gawk", "-p", "BEGIN{print 1}"}, ""}, // -p's optional value must be attached
		{[]string{"gawk", "@namespace \"x\"; BEGIN{print 1}"}, ""},
		{[]string{"gawk", "$0 ~ @/a|b/"}, ""},
		{[]string{"mawk", "-W", "interactive", "{print}"}, ""},
		{[]string{"awk", "BEGIN{system(\"id\")}"}, "awk.system"},
		{[]string{"awk", "BEGIN{system\\\n(\"id\")}"}, "awk.system"},
		{[]string{"awk", "BEGIN{x = 4 / 2; system(\"id\"); y = 1 / 2}"}, "awk.system"},
		{[]string{"awk", "BEGIN{print \"x\" | \"sh\"}"}, "awk.pipe"},
		{[]string{"awk", "BEGIN{\"id\" | getline}"}, "awk.pipe"},
		{[]string{"gawk", "BEGIN{print \"x\" |& \"sh\"}"}, "awk.pipe"},
		{[]string{"awk", "{print > \"out\"}"}, "awk.redirect"},
		{[]string{"awk", "{printf \"%s\", $1 >> \"out\"}"}, "awk.redirect"},
		{[]string{"awk", "{printf(\"%s\", $1) > \"out\"}"}, "awk.redirect"},
		{[]string{"awk", "{if ($1 > 1) print $1 > $2}"}, "awk.redirect"},
		{[]string{"awk", "{print $1,\n $2 > \"out\"}"}, "awk.redirect"},
		{[]string{"gawk", "BEGIN{f=\"system\"; @f(\"id\")}"}, "awk.indirect-call"},
		{[]string{"gawk", "@include \"x.awk\""}, "awk.program-file"},
		{[]string{"gawk", "@load \"x\""}, "awk.program-file"},
		{[]string{"gawk", "BEGIN{getline < \"/inet/tcp/0/h/80\"}"}, "awk.network"},
		{[]string{"awk", "BEGIN{print \"x"}, "awk.syntax"},
		{[]string{"awk", "-f", "p.awk"}, "awk.program-file"},
		{[]string{"awk", "-fp.awk"}, "awk.program-file"},
		{[]string{"awk", "-f"}, "awk.program-file"},
		{[]string{"gawk", "-bfp.awk"}, "awk.program-file"},
		{[]string{"gawk", "--file=p.awk"}, "awk.program-file"},
		{[]string{"gawk", "--fi=p.awk"}, "awk.ambiguous-option"},
		{[]string{"gawk", "--fil=p.awk"}, "awk.program-file"},
		{[]string{"gawk", "-E", "p.awk"}, "awk.program-file"},
		{[]string{"gawk", "--ex=p.awk"}, "awk.program-file"},
		{[]string{"gawk", "-i", "p.awk", "BEGIN{}"}, "awk.program-file"},
		{[]string{"gawk", "--incl=p.awk", "BEGIN{}"}, "awk.program-file"},
		{[]string{"gawk", "-l", "lib.so", "BEGIN{}"}, "awk.program-file"},
		{[]string{"gawk", "-W", "exec=p.awk"}, "awk.program-file"},
		{[]string{"gawk", "-Wfile=p.awk"}, "awk.program-file"},
		{[]string{"mawk", "-W", "exec", "p.awk"}, "awk.program-file"},
		{[]string{"mawk", "-Wex", "p.awk"}, "awk.program-file"},
		{[]string{"mawk", "-W", "dump,EXEC=p.awk"}, "awk.program-file"},
		{[]string{"mawk", "--exec", "p.awk"}, "awk.program-file"},
		{[]string{"gawk", "-D", "BEGIN{}"}, "awk.debugger"},
		{[]string{"gawk", "--profile=/tmp/x", "BEGIN{}"}, "awk.file-output"},
		{[]string{"gawk", "-o/tmp/x", "BEGIN{}"}, "awk.file-output"},
		{[]string{"gawk", "--dump-variables=/tmp/x", "BEGIN{}"}, "awk.file-output"},
		{[]string{"gawk", "--so=BEGIN{system(\"id\")}"}, "awk.system"},
		{[]string{"awk", "--", "BEGIN{system(\"id\")}"}, "awk.system"},
		{[]string{"gawk", "--bogus", "BEGIN{}"}, "awk.unknown-option"},
		{[]string{"gawk", "--p", "BEGIN{}"}, "awk.ambiguous-option"},
		{[]string{"awk", "-e", "BEGIN{}"}, "awk.unknown-option"}, // mawk reading
	})
}
