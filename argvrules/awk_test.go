package argvrules

import (
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// awkRows are the table rows of awk: program files, system(), pipes and
// redirections in every reading of the program, gawk extensions.
var awkRows = familyRows([]row{
	{a("awk", "$1 > 5", "f"), ""},
	{a("awk", "NR<3", "f"), ""},
	{a("awk", "$1 > 5 { print }", "f"), ""},
	{a("awk", "/ERROR|WARN/", "f"), ""},
	{a("awk", "$1 == 1 || $2 == 2", "f"), ""},
	{a("awk", `{ print "a|b>c" }`, "f"), ""},
	{a("awk", "{ print $1; print $2 }", "f"), ""},
	{a("awk", "{ print ($1 > 5) }", "f"), ""},
	{a("awk", "{ print $1 > \"/dev/stderr\" }", "f"), ""},
	{a("awk", "{ getline line < \"other\"; print line }", "f"), ""},
	{a("awk", "{ x = $1 / 2; y = x / 3; print x, y }", "f"), ""},
	{a("awk", "{ print\n x = $2 > 1 }", "f"), ""},
	{a("awk", "-v", "x=a<b|system(1)", "BEGIN{print x}"), ""},
	{a("awk", "{print}", "x=system(1)|y"), ""},
	{a("awk", "-F", "|", "{print $1}"), ""},
	{a("gawk", "-e", "BEGIN{print 1}"), ""},
	{a("gawk", "-p", "BEGIN{print 1}"), ""}, // -p's optional value must be attached
	{a("gawk", "@namespace \"x\"; BEGIN{print 1}"), ""},
	{a("gawk", "$0 ~ @/a|b/"), ""},
	{a("mawk", "-W", "interactive", "{print}"), ""},
	{a("awk", "BEGIN{system(\"id\")}"), "awk.system"},
	{a("awk", "BEGIN{system\\\n(\"id\")}"), "awk.system"},
	{a("awk", "BEGIN{x = 4 / 2; system(\"id\"); y = 1 / 2}"), "awk.system"},
	{a("awk", "BEGIN{print \"x\" | \"sh\"}"), "awk.pipe"},
	{a("awk", "BEGIN{\"id\" | getline}"), "awk.pipe"},
	{a("gawk", "BEGIN{print \"x\" |& \"sh\"}"), "awk.pipe"},
	{a("awk", "{print > \"out\"}"), "awk.redirect"},
	{a("awk", "{printf \"%s\", $1 >> \"out\"}"), "awk.redirect"},
	{a("awk", "{printf(\"%s\", $1) > \"out\"}"), "awk.redirect"},
	{a("awk", "{if ($1 > 1) print $1 > $2}"), "awk.redirect"},
	{a("awk", "{print $1,\n $2 > \"out\"}"), "awk.redirect"},
	{a("gawk", "BEGIN{f=\"system\"; @f(\"id\")}"), "awk.indirect-call"},
	{a("gawk", "@include \"x.awk\""), "awk.program-file"},
	{a("gawk", "@load \"x\""), "awk.program-file"},
	{a("gawk", "BEGIN{getline < \"/inet/tcp/0/h/80\"}"), "awk.network"},
	{a("awk", "BEGIN{print \"x"), "awk.syntax"},
	{a("awk", "-f", "p.awk"), "awk.program-file"},
	{a("awk", "-fp.awk"), "awk.program-file"},
	{a("awk", "-f"), "awk.program-file"},
	{a("gawk", "-bfp.awk"), "awk.program-file"},
	{a("gawk", "--file=p.awk"), "awk.program-file"},
	{a("gawk", "--fi=p.awk"), "awk.ambiguous-option"},
	{a("gawk", "--fil=p.awk"), "awk.program-file"},
	{a("gawk", "-E", "p.awk"), "awk.program-file"},
	{a("gawk", "--ex=p.awk"), "awk.program-file"},
	{a("gawk", "-i", "p.awk", "BEGIN{}"), "awk.program-file"},
	{a("gawk", "--incl=p.awk", "BEGIN{}"), "awk.program-file"},
	{a("gawk", "-l", "lib.so", "BEGIN{}"), "awk.program-file"},
	{a("gawk", "-W", "exec=p.awk"), "awk.program-file"},
	{a("gawk", "-Wfile=p.awk"), "awk.program-file"},
	{a("mawk", "-W", "exec", "p.awk"), "awk.program-file"},
	{a("mawk", "-Wex", "p.awk"), "awk.program-file"},
	{a("mawk", "-W", "dump,EXEC=p.awk"), "awk.program-file"},
	{a("mawk", "--exec", "p.awk"), "awk.program-file"},
	{a("gawk", "-D", "BEGIN{}"), "awk.debugger"},
	{a("gawk", "--profile=/tmp/x", "BEGIN{}"), "awk.output-path"},
	{a("gawk", "-o/tmp/x", "BEGIN{}"), "awk.output-path"},
	{a("gawk", "--dump-variables=/tmp/x", "BEGIN{}"), "awk.output-path"},
	{a("gawk", "--so=BEGIN{system(\"id\")}"), "awk.system"},
	{a("awk", "--", "BEGIN{system(\"id\")}"), "awk.system"},
	{a("gawk", "--bogus", "BEGIN{}"), "awk.unknown-option"},
	{a("gawk", "--p", "BEGIN{}"), "awk.ambiguous-option"},
	{a("awk", "-e", "BEGIN{}"), "awk.unknown-option"}, // mawk reading
	{a("gawk", c, cv, "BEGIN { if (0) exit / +/; system(c); z = 1/2 }"), "awk.system"},
	{a("mawk", c, cv, "BEGIN { if (0) exit / +/; system(c); z = 1/2 }"), "awk.system"},
	{a("awk", c, cv, "BEGIN { if (0) exit / +/; system(c); z = 1/2 }"), "awk.system"},
	{a("gawk", c, cv, "BEGIN { if (0) / +/; system(c); z = 1/2 }"), "awk.system"},
	{a("gawk", c, "f=out", "BEGIN { if (0) exit / +/; print \"owned\" > f; z = 1/2 }"), "awk.redirect"},
	{a("awk", c, cv, "BEGIN { if (\"a\" ~ /[[:alpha:]/]+/) x=1; system(c); z = 1 / 2 }"), "awk.system"},
	{a("awk", "function f() { return / +/; system(c); z = 1/2 }"), "awk.system"},
	{a("awk", "BEGIN { print / +/; system(c); z = 1/2 }"), "awk.system"},
	{a("awk", "BEGIN { printf / +/; system(c); z = 1/2 }"), "awk.system"},
	{a("gawk", "BEGIN { switch (x) { case / +/: system(c); z = 1/2 } }"), "awk.system"},
	{a("awk", "BEGIN { do / +/; while (0); system(c); z = 1/2 }"), "awk.system"},
	{a("awk", "BEGIN { if (1) x = 1; else / +/; system(c); z = 1/2 }"), "awk.system"},
	{a("awk", "BEGIN { if (k in / +/) system(c); z = 1/2 }"), "awk.system"},
	{a("awk", "BEGIN { getline / +/; system(c); z = 1/2 }"), "awk.system"},
	{a("awk", "BEGIN { while (0) / +/; system(c); z = 1/2 }"), "awk.system"},
	{a("awk", "BEGIN { for (;0;) / +/; system(c); z = 1/2 }"), "awk.system"},
	{a("mawk", "BEGIN { x++ / +/; system(c); z = 1/2 }"), "awk.system"},
	{a("mawk", "BEGIN { x = length / +/; system(c); z = 1/2 }"), "awk.system"},
	{a("awk", "BEGIN { if (0) exit / +/; print 1 | c; z = 1/2 }"), "awk.pipe"},
	{a("awk", "BEGIN { if (0) exit / +/; c | getline; z = 1/2 }"), "awk.pipe"},
	{a("gawk", "BEGIN { if (0) exit / +/; print 1 |& c; z = 1/2 }"), "awk.pipe"},
	{a("gawk", "BEGIN { if (0) exit / +/; @f(c); z = 1/2 }"), "awk.indirect-call"},
	{a("gawk", "BEGIN { if (0) exit / +/\n@include \"x\"\nz = 1/2 }"), "awk.program-file"},
	{a("awk", "BEGIN { if (0) exit /#/; system(c) }"), "awk.system"},
	{a("awk", "BEGIN { if (\"]\" ~ /[]/]+/) x=1; system(c); z = 1 / 2 }"), "awk.system"},
	{a("awk", "BEGIN { if (\"]\" ~ /[^]/]+/) x=1; system(c); z = 1 / 2 }"), "awk.system"},
	{a("awk", "BEGIN { if (\"a\" ~ /[/]/) x=1; system(c); z = 1 / 2 }"), "awk.system"},
	{a("awk", "BEGIN { if (\"a\" ~ /[[.a.]/]/) x=1; system(c); z = 1 / 2 }"), "awk.system"},
	{a("awk", "BEGIN { if (\"a\" ~ /[\\]/]/) x=1; system(c); z = 1 / 2 }"), "awk.system"},
	{a("awk", "/system(/"), "awk.system"},
	{a("awk", "# system(\"id\")\n{ print }", "f"), "awk.system"},
	{a("awk", "{ print (a)/(b)/(c)/(d)/(e)/(f)/(g)/(h)/(i)/(j)/(k)/(l)/(m) }"), "awk.ambiguous"},
	{a("awk", "BEGIN { x = / }"), "awk.syntax"},
	{a("awk", "{ s += $2 } END { print s / NR }", "f"), ""},
	{a("awk", "BEGIN { a = 8; b = 4; c = 2; print a / b / c }"), ""},
	{a("awk", "{ gsub(/\\//, \"-\"); print }", "f"), ""},
	{a("awk", "{ n = split($0, a, \"/\"); print a[n] }", "f"), ""},
	{a("awk", "{ print ($1 + $2) / 2 }", "f"), ""},
	{a("awk", "{ print ($1 + $2) / 2, ($3 + $4) / 2 }", "f"), ""},
	{a("awk", "{ print $1 / $2, $3 / $4 }", "f"), ""},
	{a("awk", "{ x = a[1] / 2; y = NF / 2; z = $NF / 2 }", "f"), ""},
	{a("awk", "{ c++ } END { print c / NR }", "f"), ""},
	{a("awk", "{ print length / 2 }", "f"), ""},
	{a("awk", "{ x /= 2; print x }", "f"), ""},
	{a("awk", "$0 ~ /[[:alpha:]/]+/ { print }", "f"), ""},
	{a("awk", "/[/]/ { print }", "f"), ""},
	{a("awk", "/a\\/b/ { print }", "f"), ""},
	{a("awk", "{ if ($1 ~ /^[0-9]+$/) print $1 / 2 }", "f"), ""},
	{a("awk", "{ print \"system(x)\" }", "f"), ""},
	{a("awk", "{ print mysystem(1) }", "f"), ""},
})

// -v c=... passes the canary to a program the way the attacks do: a literal
// path's "/" would end the regex that hides the call.
const (
	c  = "-v"
	cv = "c=/tmp/x/canary.sh"
)

func TestAwkRows(t *testing.T) { checkRows(t, awkRows) }

// TestAwkHostileProgramsFinish feeds program text built to make the
// reading enumeration and the regex-extent scans blow up: each must get a
// verdict (no hang, no panic), and a dangerous one must be refused. An
// exponential reading hangs at any length; the full lengths (tens of KiB,
// tens of seconds under -race on two loaded cores) run under
// testenv.Heavy, a fifth of them otherwise.
func TestAwkHostileProgramsFinish(t *testing.T) {
	t.Parallel()
	n := func(full int) int {
		if testenv.Heavy() {
			return full
		}
		return full / 5
	}
	cases := []struct {
		src       string
		mustRefer bool
	}{
		{strings.Repeat("/[/ ", n(5000)), false},
		{"x = 1 " + strings.Repeat("(a)/", n(5000)), false},
		{strings.Repeat("BEGIN { if (0) exit / +/; z = 1/2 }\n", n(500)) + "BEGIN { system(c) }", true},
		{"BEGIN { x = " + strings.Repeat("[", n(10000)) + " }", false},
		{strings.Repeat("a ~ /[[:alpha:]/]+/;", n(2000)), false},
	}
	for i, c := range cases {
		for _, d := range awkDialects {
			if r := checkAwkProgram(c.src, 1, d); c.mustRefer && r == nil {
				t.Errorf("case %d: dangerous program allowed (%s)", i, d.name)
			}
		}
	}
}
