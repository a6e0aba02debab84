//go:build unix

package argvrules

import (
	"archive/tar"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// The oracle harness runs the real programs on argv variants and checks
// the recognizers against what the programs actually did: whenever a run
// executed the canary helper (its marker file exists) or wrote into the
// "outside" directory, the recognizer must have refused that argv.
//
// Placeholders in variant argv: @CANARY@ is the absolute path of the
// canary script, @OUT@ the absolute path of the outside directory.

// oracleVariant is one argv to run with the program bin; names are the
// argv[0] spellings whose recognizer verdicts are checked.
type oracleVariant struct {
	bin   string
	names []string
	rec   Recognizer
	args  []string
}

// oracleResult records what one run did.
type oracleResult struct {
	v         oracleVariant
	argv      []string
	triggered bool
	why       string
}

func TestOracle(t *testing.T) {
	t.Parallel()
	ctx := scratch(t)
	if testing.Short() {
		t.Skip("oracle runs real programs")
	}
	base := t.TempDir()
	fixtures := filepath.Join(base, "fixtures")
	if err := writeOracleFixtures(fixtures); err != nil {
		t.Fatal(err)
	}
	var variants []oracleVariant
	add := func(bin string, names []string, rec Recognizer, gen func() [][]string) {
		if _, ok := testenv.Have(t, bin); !ok {
			return
		}
		for _, args := range testenv.Sample(gen()) {
			variants = append(variants, oracleVariant{bin: bin, names: names, rec: rec, args: args})
		}
	}
	add("find", []string{"find", "gfind"}, checkFind, findOracleArgs)
	add("sort", []string{"sort"}, checkSort, sortOracleArgs)
	add("tar", []string{"tar", "gtar"}, checkTar, tarOracleArgs)
	add("bsdtar", []string{"bsdtar", "tar"}, checkTar, tarOracleArgs)
	add("gawk", []string{"gawk", "awk"}, checkAwk, func() [][]string { return awkOracleArgs(true) })
	add("mawk", []string{"mawk", "awk"}, checkAwk, func() [][]string { return awkOracleArgs(false) })
	if len(variants) == 0 {
		testenv.Missing(t, "no oracle program installed")
	}

	results := make([]oracleResult, len(variants))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = runOracleVariant(t, base, fixtures, i, variants[i])
			}
		}()
	}
	for i := range variants {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	perBin := map[string][3]int{} // tried, triggered, refused
	for _, r := range results {
		c := perBin[r.v.bin]
		c[0]++
		refusedAll := true
		for _, name := range r.v.names {
			argv := append([]string{name}, r.argv[1:]...)
			if rej := r.v.rec(argv, ctx); rej == nil {
				refusedAll = false
				if r.triggered {
					t.Errorf("oracle: %s %q %s, but the recognizer allowed it as %q", r.v.bin, r.argv[1:], r.why, name)
				}
			}
		}
		if r.triggered {
			c[1]++
		}
		if refusedAll {
			c[2]++
		}
		perBin[r.v.bin] = c
	}
	bins := make([]string, 0, len(perBin))
	for bin := range perBin {
		bins = append(bins, bin)
	}
	sort.Strings(bins)
	for _, bin := range bins {
		c := perBin[bin]
		t.Logf("%s: %d variants refused", bin, c[2])
		testenv.Saw(t, bin, c[0], c[1], 1)
	}
}

// writeOracleFixtures creates the input files shared by all runs.
func writeOracleFixtures(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var lines strings.Builder
	for i := 6000; i > 0; i-- {
		lines.WriteString(strconv.Itoa(i))
		lines.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte(lines.String()), 0o644); err != nil {
		return err
	}
	big := make([]byte, 60<<10)
	for i := range big {
		big[i] = byte(i*7 + i/251)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), big, 0o644); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "in.tar"))
	if err != nil {
		return err
	}
	tw := tar.NewWriter(f)
	body := []byte("hello\n")
	if err := tw.WriteHeader(&tar.Header{Name: "data.txt", Mode: 0o644, Size: int64(len(body))}); err != nil {
		return err
	}
	if _, err := tw.Write(body); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return f.Close()
}

// runOracleVariant runs one variant in its own directory with its own
// canary and outside directory.
func runOracleVariant(t *testing.T, base, fixtures string, i int, v oracleVariant) oracleResult {
	dir := filepath.Join(base, fmt.Sprintf("v%d", i))
	out := filepath.Join(base, fmt.Sprintf("v%d-outside", i))
	marker := filepath.Join(dir, "marker")
	canary := filepath.Join(dir, "canary")
	res := oracleResult{v: v}
	for _, d := range []string{dir, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Error(err)
			return res
		}
	}
	script := "#!/bin/sh\n: > '" + marker + "'\nexit 1\n"
	if err := os.WriteFile(canary, []byte(script), 0o755); err != nil {
		t.Error(err)
		return res
	}
	for _, name := range []string{"in.txt", "big.bin", "in.tar"} {
		if err := os.Link(filepath.Join(fixtures, name), filepath.Join(dir, name)); err != nil {
			t.Error(err)
			return res
		}
	}
	prog := "BEGIN { system(\"" + canary + "\") }\n"
	if err := os.WriteFile(filepath.Join(dir, "prog.awk"), []byte(prog), 0o644); err != nil {
		t.Error(err)
		return res
	}
	res.argv = []string{v.bin}
	for _, a := range v.args {
		a = strings.ReplaceAll(a, "@CANARY@", canary)
		res.argv = append(res.argv, strings.ReplaceAll(a, "@OUT@", out))
	}
	before, _ := os.Stat(out)

	ctx, cancel := context.WithTimeout(context.Background(), testenv.RunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, v.bin, res.argv[1:]...)
	cmd.Dir = dir
	// SHELL is the canary and stdin starts with "!": a program that offers
	// an interactive shell escape (GNU tar's volume prompt) takes it.
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C", "HOME=" + dir, "SHELL=" + canary}
	cmd.Stdin = strings.NewReader("!\n")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	_ = cmd.Run() // exit status is irrelevant; effects are what count

	if _, err := os.Stat(marker); err == nil {
		res.triggered, res.why = true, "ran the canary"
	}
	after, _ := os.Stat(out)
	entries, _ := os.ReadDir(out)
	if len(entries) > 0 || (before != nil && after != nil && !after.ModTime().Equal(before.ModTime())) {
		res.triggered, res.why = true, "wrote into the outside directory"
	}
	return res
}

// spellingForms spells a long option with every prefix from min letters
// in the "--p=val" form before the operands of post, and, for the
// shortest, a middle and the full spelling, also as "--p val" and after
// the operands.
func spellingForms(long string, min int, pre, post []string, val string) [][]string {
	cat := func(parts ...[]string) []string {
		var s []string
		for _, p := range parts {
			s = append(s, p...)
		}
		return s
	}
	var out [][]string
	for k := min; k <= len(long); k++ {
		opt := "--" + long[:k]
		out = append(out, cat(pre, []string{opt + "=" + val}, post))
		if k == min || k == len(long) || k == (min+len(long))/2 {
			out = append(out, cat(pre, []string{opt, val}, post), cat(pre, post, []string{opt + "=" + val}))
		}
	}
	return out
}

func findOracleArgs() [][]string {
	var out [][]string
	for _, start := range [][]string{{"in.txt"}, {"-H", "-D", "tree", "--", "in.txt"}} {
		for _, expr := range [][]string{
			{"-exec", "@CANARY@", ";"}, {"-exec", "@CANARY@", "{}", "+"},
			{"-execdir", "@CANARY@", ";"}, {"-execdir", "@CANARY@", "{}", "+"},
			{"-name", "x", "-o", "-exec", "@CANARY@", ";"}, {"(", "-exec", "@CANARY@", ";", ")"},
			{"-fprint", "@OUT@/f"}, {"-fprint0", "@OUT@/f"}, {"-fprintf", "@OUT@/f", "%p"},
			{"-fls", "@OUT@/f"}, {"-true", ",", "-fls", "@OUT@/f"}, {"!", "-false", "-fprint", "@OUT@/f"},
			// benign: arguments of tests are data
			{"-name", "-exec"}, {"-path", "-fprint"}, {"-printf", "-exec %p\n"}, {"-ls"}, {"-print0"},
			{"-newer", "in.txt", "-print"}, {"-regex", ".*", "-maxdepth", "0"},
		} {
			out = append(out, append(append([]string{}, start...), expr...))
		}
	}
	return out
}

func sortOracleArgs() [][]string {
	pre, post := []string{"-S", "16k"}, []string{"in.txt"}
	var out [][]string
	for _, d := range []struct {
		long, short, val string
	}{
		{"compress-program", "", "@CANARY@"},
		{"output", "o", "@OUT@/sorted"},
		{"temporary-directory", "T", "@OUT@"},
		{"files0-from", "", "in.txt"},
	} {
		out = append(out, spellingForms(d.long, 1, pre, post, d.val)...)
		if d.short == "" {
			continue
		}
		for _, cl := range []string{"", "r", "nr"} {
			opt := "-" + cl + d.short
			out = append(out,
				append(append([]string{}, pre...), opt, d.val, "in.txt"),
				append(append([]string{}, pre...), opt+d.val, "in.txt"),
				append(append([]string{}, pre...), "in.txt", opt, d.val),
				append(append([]string{}, pre...), "in.txt", opt+d.val),
			)
		}
	}
	return append(out,
		[]string{"-u", "in.txt"}, []string{"-rn", "in.txt"}, []string{"-k2,2n", "-t,", "in.txt"},
		[]string{"--", "--output=@OUT@/x"}, []string{"in.txt", "--", "-o", "@OUT@/x"},
		[]string{"--parallel=2", "in.txt"}, []string{"-S", "1G", "in.txt"},
		[]string{"-k", "--output=@OUT@/x", "in.txt"}, []string{"-t", "-o", "in.txt"},
	)
}

func tarOracleArgs() [][]string {
	create := []string{"-c", "-f", "out.tar", "in.txt"}
	extract := []string{"-x", "-f", "in.tar"}
	multi := []string{"-c", "-M", "-L", "10", "-f", "vol.tar", "big.bin"}
	var out [][]string
	out = append(out, spellingForms("use-compress-program", 1, nil, create, "@CANARY@")...)
	out = append(out, spellingForms("checkpoint-action", len("checkpoint-"), []string{"--checkpoint=1"}, create, "exec=@CANARY@")...)
	out = append(out, spellingForms("to-command", 2, nil, extract, "@CANARY@")...)
	out = append(out, spellingForms("rsh-command", 2, nil, []string{"-c", "-f", "localhost:out.tar", "in.txt"}, "@CANARY@")...)
	out = append(out, spellingForms("info-script", 1, nil, multi, "@CANARY@")...)
	out = append(out, spellingForms("new-volume-script", 3, nil, multi, "@CANARY@")...)
	out = append(out,
		[]string{"-I", "@CANARY@", "-c", "-f", "out.tar", "in.txt"},
		[]string{"-I@CANARY@", "-c", "-f", "out.tar", "in.txt"},
		[]string{"-cI", "@CANARY@", "-f", "out.tar", "in.txt"},
		[]string{"-cvI@CANARY@", "-f", "out.tar", "in.txt"},
		[]string{"-c", "-f", "out.tar", "in.txt", "-I", "@CANARY@"},
		[]string{"-c", "-f", "out.tar", "in.txt", "-I@CANARY@"},
		[]string{"cIf", "@CANARY@", "out.tar", "in.txt"},
		[]string{"cfI", "out.tar", "@CANARY@", "in.txt"},
		[]string{"Icf", "@CANARY@", "out.tar", "in.txt"},
		[]string{"cvIf", "@CANARY@", "out.tar", "in.txt"},
		[]string{"-c", "-f", "out.tar", "-W", "use-compress-program=@CANARY@", "in.txt"},
		[]string{"-cWuse-compress-program=@CANARY@", "-f", "out.tar", "in.txt"},
		[]string{"-c", "-f", "out.tar", "-Wus=@CANARY@", "in.txt"},
		[]string{"-c", "-f", "out.tar", "-W", "use-c", "@CANARY@", "in.txt"},
		[]string{"-cL", "--use-compress-program=@CANARY@", "-f", "out.tar", "in.txt"},
		[]string{"-cH", "--use-compress-program=@CANARY@", "-f", "out.tar", "in.txt"},
		[]string{"xf", "in.tar", "--to-command=@CANARY@"},
		[]string{"-cM", "-L", "10", "-F", "@CANARY@", "-f", "vol.tar", "big.bin"},
		[]string{"-cMF@CANARY@", "-L", "10", "-f", "vol.tar", "big.bin"},
		[]string{"cMLFf", "10", "@CANARY@", "vol.tar", "big.bin"},
		[]string{"-c", "-f", "localhost:out.tar", "--rmt-command=@CANARY@", "in.txt"},
		// volume prompt: "!" on stdin starts $SHELL (the canary)
		[]string{"-c", "-M", "-L", "10", "-f", "vol.tar", "big.bin"},
		[]string{"-c", "-L", "10", "-f", "vol.tar", "big.bin"},
		[]string{"-cL10", "-f", "vol.tar", "big.bin"},
		[]string{"cMLf", "10", "vol.tar", "big.bin"},
		[]string{"cLf", "10", "vol.tar", "big.bin"},
		[]string{"--multi-volume", "--tape-length=10", "-cf", "vol.tar", "big.bin"},
		[]string{"--multi", "--tape=10", "-cf", "vol.tar", "big.bin"},
		[]string{"-cf", "vol.tar", "big.bin", "-M", "-L", "10"},
		// files written besides the archive
		[]string{"--index-file=@OUT@/idx", "-cvf", "out.tar", "in.txt"},
		[]string{"--index=@OUT@/idx", "-cvf", "out.tar", "in.txt"},
		[]string{"-g", "@OUT@/snap", "-cf", "out.tar", "in.txt"},
		[]string{"-g@OUT@/snap", "-cf", "out.tar", "in.txt"},
		[]string{"--listed-incremental=@OUT@/snap", "-cf", "out.tar", "in.txt"},
		[]string{"--listed=@OUT@/snap", "-cf", "out.tar", "in.txt"},
		[]string{"cgf", "@OUT@/snap", "out.tar", "in.txt"},
		[]string{"-c", "--volno-file=@OUT@/vol", "-f", "out.tar", "in.txt"},
		[]string{"-c", "-M", "-L", "10", "--volno-file=@OUT@/vol", "-f", "vol.tar", "big.bin"},
		[]string{"--index-file=idx", "-cvf", "out.tar", "in.txt"},
		[]string{"-g", "snap", "-cf", "out.tar", "in.txt"},
		[]string{"-cwf", "out.tar", "in.txt"},
		// benign
		[]string{"-czf", "a.tgz", "in.txt"}, []string{"-cjf", "a.tbz", "in.txt"},
		[]string{"-cJf", "a.txz", "in.txt"}, []string{"czf", "a.tgz", "in.txt"},
		[]string{"cvf", "a.tar", "in.txt"}, []string{"-tvf", "in.tar"}, []string{"-xf", "in.tar", "-C", "."},
		[]string{"--checkpoint=1", "--checkpoint-action=dot", "-cf", "a.tar", "in.txt"},
		[]string{"--checkpoint=1", "--checkpoint-action=echo", "-cf", "a.tar", "in.txt"},
		[]string{"-cf", "a.tar", "--", "--to-command=@CANARY@"},
		[]string{"-cf", "--use-compress-program=@CANARY@", "in.txt"},
		[]string{"-cf", "a.tar", "--exclude", "--to-command=@CANARY@", "in.txt"},
	)
	return out
}

func awkOracleArgs(gawk bool) [][]string {
	programs := []string{
		`BEGIN{system("@CANARY@")}`,
		`BEGIN { system ("@CANARY@") }`,
		"BEGIN{system\\\n(\"@CANARY@\")}",
		`BEGIN{x = 4 / 2; system("@CANARY@"); y = 1 / 2}`,
		`BEGIN{print "x" | "@CANARY@"}`,
		`BEGIN{"@CANARY@" | getline}`,
		`BEGIN{print "x" > "@OUT@/f"}`,
		`BEGIN{printf "x" >> "@OUT@/f"}`,
		`BEGIN{printf("x") > "@OUT@/f"}`,
		`BEGIN{if (1 > 0) print "x" > "@OUT@/f"}`,
		"BEGIN{print \"a\",\n \"b\" > \"@OUT@/f\"}",
		// benign
		`BEGIN{print (1 > 0)}`,
		`BEGIN{x = 1; if (x > 0) print "ok"}`,
		`BEGIN{print "a|b>c"}`,
		`BEGIN{print "x" > "/dev/stderr"}`,
		"# system(\"@CANARY@\")\nBEGIN{print 1}",
		`BEGIN{print "system(\"@CANARY@\")"}`,
		`BEGIN{if ("a/b" ~ /[/]/) print 1}`,
		`BEGIN{if ("x" ~ /a|b/) print 1}`,
	}
	if gawk {
		programs = append(programs,
			`BEGIN{print "x" |& "@CANARY@"; close("@CANARY@")}`,
			`BEGIN{f = "system"; @f("@CANARY@")}`,
			`@include "prog.awk"`,
		)
	}
	var out [][]string
	for _, p := range programs {
		out = append(out, []string{p}, []string{"--", p})
		if gawk {
			out = append(out, []string{"-e", p})
		}
	}
	// The canary and the outside file come in -v variables, as the red
	// team passed them: a literal path's "/" would end the regex that
	// hides the call.
	for _, p := range awkSlashOraclePrograms() {
		vars := []string{"-v", "c=@CANARY@", "-v", "f=@OUT@/f"}
		out = append(out, append(vars, p), append(vars, "--", p))
	}
	out = append(out,
		[]string{"-f", "prog.awk"}, []string{"-fprog.awk"}, []string{"--file=prog.awk"},
		[]string{"-W", "exec", "prog.awk"}, []string{"-Wexec", "prog.awk"}, []string{"-Wex", "prog.awk"},
		[]string{"-W", "exec=prog.awk"}, []string{"--exec", "prog.awk"}, []string{"--exec=prog.awk"},
		[]string{"-v", "x=1", "-f", "prog.awk"},
	)
	if gawk {
		out = append(out,
			[]string{"--fil", "prog.awk"}, []string{"-E", "prog.awk"}, []string{"--ex=prog.awk"},
			[]string{"-i", "prog.awk", "BEGIN{}"}, []string{"--include=prog.awk", "BEGIN{}"},
			[]string{"--inc", "prog.awk", "BEGIN{}"}, []string{"-W", "file=prog.awk"},
			[]string{"-bfprog.awk"}, []string{"-W", "include=prog.awk", "BEGIN{}"},
			[]string{"-p@OUT@/prof", "BEGIN{}"}, []string{"--profile=@OUT@/prof", "BEGIN{}"},
			[]string{"--prof=@OUT@/prof", "BEGIN{}"}, []string{"-o@OUT@/pp", "BEGIN{}"},
			[]string{"--pretty-print=@OUT@/pp", "BEGIN{}"}, []string{"-d@OUT@/vars", "BEGIN{}"},
			[]string{"--dump-variables=@OUT@/vars", "BEGIN{}"}, []string{"--dump=@OUT@/vars", "BEGIN{}"},
			[]string{"-p", "BEGIN{}"},
		)
	} else {
		out = append(out, []string{"-W", "interactive", "BEGIN{print 1}"}, []string{"-W", "dump,exec", "prog.awk"})
	}
	return out
}

// awkSlashOraclePrograms are the programs where a "/" that the
// checker once read as a division (or a "/" inside a bracket expression)
// is a regex to gawk or mawk, followed by code that runs the canary or
// writes outside, plus everyday division and regex forms.
func awkSlashOraclePrograms() []string {
	const sys = `system(c)`
	const out = `print "owned" > f`
	const pipe = `print "x" | c`
	var progs []string
	for _, act := range []string{sys, out, pipe} {
		for _, pre := range []string{
			"if (0) exit / +/", "if (0) / +/", "if (0) print / +/", "if (0) printf / +/",
			"if (1) x = 1; else / +/", "do / +/; while (0)", "while (0) / +/", "for (;0;) / +/",
			"getline / +/", "x++ /a+/", "x = length / +/", "if (0) exit /#/", "if (k in / +/) x = 1",
		} {
			progs = append(progs, "BEGIN { "+pre+"; "+act+"; z = 1/2 }")
		}
		for _, re := range []string{
			"/[[:alpha:]/]+/", "/[]/]+/", "/[^]/]+/", "/[/]/", "/[[.a.]/]/", `/[\]/]/`, `/[\/]/`, `/\//`,
			`/[\\]/]/`, "/[[:alpha:][/]+/", "/[a-z[:digit:]/]/", "/[[]/]/", `/[\]]/]/`, "/[[:/]/",
			"/[[=a=]/]/", "/[^[:space:]/]/",
		} {
			progs = append(progs, `BEGIN { if ("a" ~ `+re+") x=1; "+act+"; z = 1 / 2 }")
		}
	}
	progs = append(progs,
		`function g() { return / +/; system(c); z = 1/2 } BEGIN { g() }`,
		`BEGIN { x = "a"; switch (x) { case / +/: system(c); z = 1/2 } }`,
		// benign
		`BEGIN { s = 6; n = 3; print s / n }`,
		`BEGIN { a = 8; b = 4; c = 2; print a / b / c }`,
		`BEGIN { $0 = "a/b"; gsub(/\//, "-"); print }`,
		`BEGIN { n = split("a/b", a, "/"); print a[n] }`,
		`BEGIN { print (1 + 2) / 2, (3 + 4) / 2 }`,
		`BEGIN { if ("abc" ~ /[[:alpha:]/]+/) print "m" }`,
	)
	return progs
}
