package argvrules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// recCase is one recognizer table row: argv and the expected rule ("" for
// allowed).
type recCase struct {
	argv []string
	rule refusal.Code
}

func runRecCases(t *testing.T, rec Recognizer, cases []recCase) {
	t.Helper()
	ctx := scratch(t)
	for _, c := range cases {
		r := rec(c.argv, ctx)
		if r != nil {
			checkDeclared(t, r.Code)
		}
		switch {
		case c.rule == "" && r != nil:
			t.Errorf("%q: want allow, got %s: %s", c.argv, r.Code, r.Message)
		case c.rule != "" && r == nil:
			t.Errorf("%q: want %s, got allow", c.argv, c.rule)
		case c.rule != "" && r.Code != c.rule:
			t.Errorf("%q: want %s, got %s: %s", c.argv, c.rule, r.Code, r.Message)
		case r != nil && !strings.HasPrefix(r.Message, "Command rejected by default security policy: "):
			t.Errorf("%q: message lacks the catalogue prefix: %s", c.argv, r.Message)
		case r != nil && r.Index >= 0 && r.Index < len(c.argv) && !strings.HasPrefix(r.Arg, c.argv[r.Index]): // "-o FILE" pairs name both
			t.Errorf("%q: Arg %q is not argv[%d]", c.argv, r.Arg, r.Index)
		}
	}
}

func TestSort(t *testing.T) {
	runRecCases(t, checkSort, []recCase{
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
		{[]string{"gsort", "-o", "out", "f"}, ""},
		{[]string{"sort", "-o", "/tmp/out", "f"}, "sort.output-path"},
		{[]string{"sort", "-o", "../out", "f"}, "sort.output-path"},
		{[]string{"sort", "-oout", "f"}, ""},
		{[]string{"sort", "-o/tmp/x", "f"}, "sort.output-path"},
		{[]string{"sort", "-ro", "/etc/passwd", "f"}, "sort.output-path"},
		{[]string{"sort", "-rofile", "f"}, ""},
		{[]string{"sort", "-rT", "/tmp", "f"}, "sort.output-path"},
		{[]string{"sort", "-T", "sub", "f"}, ""},
		{[]string{"sort", "-T/tmp", "f"}, "sort.output-path"},
		{[]string{"sort", "--o", "/x", "f"}, "sort.output-path"},
		{[]string{"sort", "--out=../x", "f"}, "sort.output-path"},
		{[]string{"sort", "--output", "x"}, ""},
		{[]string{"sort", "--output", ".gitconfig"}, "sort.output-path"},
		{[]string{"sort", "--co", "sh", "f"}, "sort.option"},
		{[]string{"sort", "--compress-program=sh", "f"}, "sort.option"},
		{[]string{"sort", "--compress=sh", "f"}, "sort.option"},
		{[]string{"sort", "--files0-from=list"}, "sort.option"},
		{[]string{"sort", "--f=list"}, "sort.ambiguous-option"}, // files0-from, field-separator
		{[]string{"sort", "--fil=list"}, "sort.option"},
		{[]string{"sort", "--te=/tmp", "f"}, "sort.output-path"},
		{[]string{"sort", "f", "-o", "/tmp/out"}, "sort.output-path"}, // after operands
		{[]string{"sort", "f", "--", "-o", "out"}, ""},
		{[]string{"sort", "--c", "f"}, "sort.ambiguous-option"}, // check, compress-program
		{[]string{"sort", "--bogus", "f"}, "sort.unknown-option"},
		{[]string{"sort", "-X", "f"}, "sort.unknown-option"},
		{[]string{"sort", "-k"}, "sort.missing-value"},
		{[]string{"sort", "--unique=yes"}, "sort.unexpected-value"},
	})
}

func TestSortAmbiguousNamesRiskyReading(t *testing.T) {
	r := checkSort([]string{"sort", "--c=gzip", "f"}, Context{})
	if r == nil || !strings.Contains(r.Message, "--compress-program runs a program") {
		t.Fatalf("ambiguous --c should name the risky reading, got %+v", r)
	}
	if !strings.Contains(r.Message, sortPolicy) {
		t.Errorf("risky ambiguity should use the danger policy: %s", r.Message)
	}
}

func TestFind(t *testing.T) {
	runRecCases(t, checkFind, []recCase{
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
	runRecCases(t, checkTar, []recCase{
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
		{[]string{"tar", "-I", "zstd", "-cf", "x", "d"}, ruleTarExecOption.Code},
		{[]string{"tar", "-cvIsh", "-f", "x", "d"}, ruleTarExecOption.Code},
		{[]string{"tar", "cIf", "prog", "out.tar", "dir"}, ruleTarExecOption.Code},
		{[]string{"tar", "-cf", "x", "d", "-Ifoo"}, ruleTarExecOption.Code},
		{[]string{"tar", "--use-comp=sh", "-cf", "x", "d"}, ruleTarExecOption.Code},
		{[]string{"tar", "--use", "sh", "-cf", "x", "d"}, ruleTarExecOption.Code},
		{[]string{"tar", "--to", "sh", "-xf", "x"}, "tar.ambiguous-option"},
		{[]string{"tar", "--to-c", "sh", "-xf", "x"}, ruleTarExecOption.Code},
		{[]string{"tar", "--to-com=sh", "-xf", "x"}, ruleTarExecOption.Code},
		{[]string{"tar", "--rm=x", "-xf", "x"}, ruleTarExecOption.Code},
		{[]string{"tar", "--rsh=x", "-xf", "x"}, ruleTarExecOption.Code},
		{[]string{"tar", "--info-script=x", "-cMf", "x", "d"}, ruleTarExecOption.Code},
		{[]string{"tar", "--new-v=x", "-cMf", "x", "d"}, ruleTarExecOption.Code},
		{[]string{"tar", "-cMF", "x", "-f", "a", "d"}, ruleTarExecOption.Code},
		{[]string{"tar", "cMLFf", "20", "x", "mv.tar", "big"}, ruleTarExecOption.Code},
		{[]string{"tar", "--checkpoint-action=exec=id", "-cf", "x", "d"}, ruleTarExecOption.Code},
		{[]string{"tar", "--checkpoint-act", "exec=id", "-cf", "x", "d"}, ruleTarExecOption.Code},
		{[]string{"tar", "--checkpoint-action=sleep=1", "-cf", "x", "d"}, ruleTarExecOption.Code},
		// bsdtar reads -L as a flag, so the next word is an option there.
		{[]string{"tar", "-cL", "--use-compress-program=sh", "-f", "x", "d"}, ruleTarExecOption.Code},
		// bsdtar's -W name=value is a long option.
		{[]string{"bsdtar", "-cf", "x", "-W", "use-compress-program=sh", "d"}, ruleTarExecOption.Code},
		{[]string{"tar", "-cf", "x", "-Wuse-compress-program=sh", "d"}, ruleTarExecOption.Code},
		{[]string{"tar", "-cf", "x", "-Wus=sh", "d"}, ruleTarExecOption.Code},
		{[]string{"tar", "tf", "127.0.0.1:/x.tar"}, "tar.remote-archive"},
		{[]string{"tar", "-cf", "host:x", "d"}, "tar.remote-archive"},
		{[]string{"tar", "--file=h:x", "-c", "d"}, "tar.remote-archive"},
		{[]string{"tar", "--new", "x", "-cf", "x", "d"}, "tar.ambiguous-option"},
		{[]string{"tar", "--bogus-both", "-cf", "x", "d"}, "tar.unknown-option"},
	})
}

func TestTarMessageNamesAbbreviation(t *testing.T) {
	r := checkTar([]string{"tar", "-cf", "x", "--use-comp=sh", "d"}, Context{})
	want := `Command rejected by default security policy: tar command execution option: argument 3 "--use-comp=sh" is an abbreviation of --use-compress-program, which runs a program`
	if r == nil || !strings.HasPrefix(r.Message, want) {
		t.Fatalf("got %+v\nwant prefix %s", r, want)
	}
	if r.Index != 3 || r.Arg != "--use-comp=sh" {
		t.Errorf("Index/Arg = %d/%q", r.Index, r.Arg)
	}
}

func TestAwk(t *testing.T) {
	runRecCases(t, checkAwk, []recCase{
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
		{[]string{"gawk", "--profile=/tmp/x", "BEGIN{}"}, "awk.output-path"},
		{[]string{"gawk", "-o/tmp/x", "BEGIN{}"}, "awk.output-path"},
		{[]string{"gawk", "--dump-variables=/tmp/x", "BEGIN{}"}, "awk.output-path"},
		{[]string{"gawk", "--so=BEGIN{system(\"id\")}"}, "awk.system"},
		{[]string{"awk", "--", "BEGIN{system(\"id\")}"}, "awk.system"},
		{[]string{"gawk", "--bogus", "BEGIN{}"}, "awk.unknown-option"},
		{[]string{"gawk", "--p", "BEGIN{}"}, "awk.ambiguous-option"},
		{[]string{"awk", "-e", "BEGIN{}"}, "awk.unknown-option"}, // mawk reading
	})
}

// TestAwkAmbiguousSlash covers the red-team escapes where the checker read
// a "/" as a division (or ended a regex at a "/" inside a bracket
// expression) while gawk or mawk read it as a regex, hiding the code
// after it; every such program must be refused in any reading, and the
// everyday division and regex forms must stay allowed.
func TestAwkAmbiguousSlash(t *testing.T) {
	const c = "-v"
	const cv = "c=/tmp/x/canary.sh"
	runRecCases(t, checkAwk, []recCase{
		// red-team programs (ran the canary in gawk, mawk or both)
		{[]string{"gawk", c, cv, "BEGIN { if (0) exit / +/; system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"mawk", c, cv, "BEGIN { if (0) exit / +/; system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"awk", c, cv, "BEGIN { if (0) exit / +/; system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"gawk", c, cv, "BEGIN { if (0) / +/; system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"gawk", c, "f=out", "BEGIN { if (0) exit / +/; print \"owned\" > f; z = 1/2 }"}, "awk.redirect"},
		{[]string{"awk", c, cv, "BEGIN { if (\"a\" ~ /[[:alpha:]/]+/) x=1; system(c); z = 1 / 2 }"}, "awk.system"},
		// the same trick after every keyword or token awk may read a regex after
		{[]string{"awk", "function f() { return / +/; system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"awk", "BEGIN { print / +/; system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"awk", "BEGIN { printf / +/; system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"gawk", "BEGIN { switch (x) { case / +/: system(c); z = 1/2 } }"}, "awk.system"},
		{[]string{"awk", "BEGIN { do / +/; while (0); system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"awk", "BEGIN { if (1) x = 1; else / +/; system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"awk", "BEGIN { if (k in / +/) system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"awk", "BEGIN { getline / +/; system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"awk", "BEGIN { while (0) / +/; system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"awk", "BEGIN { for (;0;) / +/; system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"mawk", "BEGIN { x++ / +/; system(c); z = 1/2 }"}, "awk.system"},
		{[]string{"mawk", "BEGIN { x = length / +/; system(c); z = 1/2 }"}, "awk.system"},
		// other dangerous constructs hidden the same way
		{[]string{"awk", "BEGIN { if (0) exit / +/; print 1 | c; z = 1/2 }"}, "awk.pipe"},
		{[]string{"awk", "BEGIN { if (0) exit / +/; c | getline; z = 1/2 }"}, "awk.pipe"},
		{[]string{"gawk", "BEGIN { if (0) exit / +/; print 1 |& c; z = 1/2 }"}, "awk.pipe"},
		{[]string{"gawk", "BEGIN { if (0) exit / +/; @f(c); z = 1/2 }"}, "awk.indirect-call"},
		{[]string{"gawk", "BEGIN { if (0) exit / +/\n@include \"x\"\nz = 1/2 }"}, "awk.program-file"},
		// a "#" the division reading takes as a comment
		{[]string{"awk", "BEGIN { if (0) exit /#/; system(c) }"}, "awk.system"},
		// bracket expressions: classes, "]" first, negation, nesting
		{[]string{"awk", "BEGIN { if (\"]\" ~ /[]/]+/) x=1; system(c); z = 1 / 2 }"}, "awk.system"},
		{[]string{"awk", "BEGIN { if (\"]\" ~ /[^]/]+/) x=1; system(c); z = 1 / 2 }"}, "awk.system"},
		{[]string{"awk", "BEGIN { if (\"a\" ~ /[/]/) x=1; system(c); z = 1 / 2 }"}, "awk.system"},
		{[]string{"awk", "BEGIN { if (\"a\" ~ /[[.a.]/]/) x=1; system(c); z = 1 / 2 }"}, "awk.system"},
		{[]string{"awk", "BEGIN { if (\"a\" ~ /[\\]/]/) x=1; system(c); z = 1 / 2 }"}, "awk.system"},
		// defence in depth: system( hidden in a regex or comment
		{[]string{"awk", "/system(/"}, "awk.system"},
		{[]string{"awk", "# system(\"id\")\n{ print }", "f"}, "awk.system"},
		// too many readings
		{[]string{"awk", "{ print (a)/(b)/(c)/(d)/(e)/(f)/(g)/(h)/(i)/(j)/(k)/(l)/(m) }"}, "awk.ambiguous"},
		// no reading tokenizes
		{[]string{"awk", "BEGIN { x = / }"}, "awk.syntax"},
		// everyday programs stay allowed
		{[]string{"awk", "$1 > 5", "f"}, ""},
		{[]string{"awk", "NR<3", "f"}, ""},
		{[]string{"awk", "/ERROR|WARN/", "f"}, ""},
		{[]string{"awk", "{ s += $2 } END { print s / NR }", "f"}, ""},
		{[]string{"awk", "BEGIN { a = 8; b = 4; c = 2; print a / b / c }"}, ""},
		{[]string{"awk", "{ gsub(/\\//, \"-\"); print }", "f"}, ""},
		{[]string{"awk", "{ n = split($0, a, \"/\"); print a[n] }", "f"}, ""},
		{[]string{"awk", "{ print ($1 + $2) / 2 }", "f"}, ""},
		{[]string{"awk", "{ print ($1 + $2) / 2, ($3 + $4) / 2 }", "f"}, ""},
		{[]string{"awk", "{ print $1 / $2, $3 / $4 }", "f"}, ""},
		{[]string{"awk", "{ x = a[1] / 2; y = NF / 2; z = $NF / 2 }", "f"}, ""},
		{[]string{"awk", "{ c++ } END { print c / NR }", "f"}, ""},
		{[]string{"awk", "{ print length / 2 }", "f"}, ""},
		{[]string{"awk", "{ x /= 2; print x }", "f"}, ""},
		{[]string{"awk", "$0 ~ /[[:alpha:]/]+/ { print }", "f"}, ""},
		{[]string{"awk", "/[/]/ { print }", "f"}, ""},
		{[]string{"awk", "/a\\/b/ { print }", "f"}, ""},
		{[]string{"awk", "{ if ($1 ~ /^[0-9]+$/) print $1 / 2 }", "f"}, ""},
		{[]string{"awk", "{ print \"system(x)\" }", "f"}, ""},
		{[]string{"awk", "{ print mysystem(1) }", "f"}, ""},
	})
}

// TestTarVolumePrompt covers GNU tar 1.34's interactive volume prompt
// (its "!" answer runs a shell reading the request's stdin): -M and -L,
// which implies -M, are refused in every spelling; -w only asks which
// files to take and stays allowed.
func TestTarVolumePrompt(t *testing.T) {
	runRecCases(t, checkTar, []recCase{
		{[]string{"tar", "-c", "-M", "-L", "10", "-f", "a.tar", "big"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "-cM", "-f", "a.tar", "big"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "-cMf", "a.tar", "big"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "cMf", "a.tar", "big"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "xMf", "a.tar"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "--multi-volume", "-cf", "a.tar", "big"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "--multi", "-cf", "a.tar", "big"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "--mu", "-cf", "a.tar", "big"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "-cf", "a.tar", "big", "-M"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "-c", "-L", "10", "-f", "a.tar", "big"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "-cL10", "-f", "a.tar", "big"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "cLf", "10", "a.tar", "big"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "--tape-length=10", "-cf", "a.tar", "big"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "--tape", "10", "-cf", "a.tar", "big"}, ruleTarMultiVolume.Code},
		{[]string{"tar", "--m", "-cf", "a.tar", "big"}, "tar.ambiguous-option"},
		{[]string{"tar", "-cwf", "a.tar", "big"}, ""},
		{[]string{"tar", "--interactive", "-xf", "a.tar"}, ""},
		{[]string{"tar", "--confirmation", "-xf", "a.tar"}, ""},
		{[]string{"bsdtar", "-xwf", "a.tar"}, ""},
	})
}

// TestTarOutputFiles checks that --index-file, --volno-file and
// -g/--listed-incremental must name a file inside the working directory.
func TestTarOutputFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	cases := []recCase{
		{[]string{"tar", "--index-file=/tmp/idx", "-cvf", "a.tar", "d"}, "tar.output-path"},
		{[]string{"tar", "--index-file", "../idx", "-cvf", "a.tar", "d"}, "tar.output-path"},
		{[]string{"tar", "--index=out/idx", "-cvf", "a.tar", "d"}, "tar.output-path"},
		{[]string{"tar", "-cvf", "a.tar", "d", "--index-file=/tmp/idx"}, "tar.output-path"},
		{[]string{"tar", "--volno-file=/tmp/v", "-cf", "a.tar", "d"}, "tar.output-path"},
		{[]string{"tar", "-g", "/tmp/snap", "-cf", "a.tar", "d"}, "tar.output-path"},
		{[]string{"tar", "-g/tmp/snap", "-cf", "a.tar", "d"}, "tar.output-path"},
		{[]string{"tar", "-cg", "/tmp/snap", "-f", "a.tar", "d"}, "tar.output-path"},
		{[]string{"tar", "cgf", "/tmp/snap", "a.tar", "d"}, "tar.output-path"},
		{[]string{"tar", "--listed-incremental=sub/../../snap", "-cf", "a.tar", "d"}, "tar.output-path"},
		{[]string{"tar", "--listed=/tmp/snap", "-cf", "a.tar", "d"}, "tar.output-path"},
		{[]string{"tar", "--index-file=idx.txt", "-cvf", "a.tar", "d"}, ""},
		{[]string{"tar", "-g", "sub/snap.snar", "-cf", "a.tar", "d"}, ""},
		{[]string{"tar", "cgf", "snap.snar", "a.tar", "d"}, ""},
		{[]string{"tar", "-cf", "a.tar", "--", "--index-file=/tmp/idx"}, ""},
	}
	for _, c := range cases {
		r := checkTar(c.argv, pinCtx(t, dir))
		switch {
		case c.rule == "" && r != nil:
			t.Errorf("%q: want allow, got %s: %s", c.argv, r.Code, r.Message)
		case c.rule != "" && r == nil:
			t.Errorf("%q: want %s, got allow", c.argv, c.rule)
		case c.rule != "" && r.Code != c.rule:
			t.Errorf("%q: want %s, got %s: %s", c.argv, c.rule, r.Code, r.Message)
		}
	}
}

// TestAwkHostileProgramsFinish feeds program text built to make the
// reading enumeration and the regex-extent scans blow up: each must get a
// verdict (no hang, no panic), and a dangerous one must be refused.
func TestAwkHostileProgramsFinish(t *testing.T) {
	cases := []struct {
		src       string
		mustRefer bool
	}{
		{strings.Repeat("/[/ ", 5000), false},
		{"x = 1 " + strings.Repeat("(a)/", 5000), false},
		{strings.Repeat("BEGIN { if (0) exit / +/; z = 1/2 }\n", 500) + "BEGIN { system(c) }", true},
		{"BEGIN { x = " + strings.Repeat("[", 10000) + " }", false},
		{strings.Repeat("a ~ /[[:alpha:]/]+/;", 2000), false},
	}
	for i, c := range cases {
		for _, d := range awkDialects {
			if r := checkAwkProgram(c.src, 1, d); c.mustRefer && r == nil {
				t.Errorf("case %d: dangerous program allowed (%s)", i, d.name)
			}
		}
	}
}
