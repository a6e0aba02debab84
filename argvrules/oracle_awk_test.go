//go:build unix

package argvrules

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// The awk oracles run each argv with the
// real awk it names (mawk, gawk in each mode, BusyBox awk) in a fresh
// directory with a canary, an "outside" directory and a loopback
// listener, and count escapes: runs that started the canary, wrote
// outside or connected, although the recognizer (given the resolved
// program, as the policy gives it) allowed them. Each oracle first proves
// it can see danger: it fails when too few runs trigger anything.

// awkImplRun is one awk implementation as a test runs it: the file to
// execute, argv[0] as sent, the Program the policy would resolve, and the
// extra environment of the mode.
type awkImplRun struct {
	label string
	exe   string
	name  string
	prog  Program
	pre   []string // mode options placed before the case's arguments
	env   []string
}

// awkImplRuns returns the installed implementations in every mode the
// dialect tables distinguish; BusyBox awk runs through an "awk" symlink,
// as on Alpine.
func awkImplRuns(t *testing.T) []awkImplRun {
	var out []awkImplRun
	if p, ok := testenv.Have(t, "mawk"); ok {
		out = append(out, awkImplRun{label: "mawk", exe: p, name: "mawk", prog: Program{Path: p}})
	}
	if p, ok := testenv.Have(t, "gawk"); ok {
		gp := Program{Path: p}
		out = append(out,
			awkImplRun{label: "gawk", exe: p, name: "gawk", prog: gp},
			awkImplRun{label: "gawk --posix", exe: p, name: "gawk", prog: gp, pre: []string{"--posix"}},
			awkImplRun{label: "gawk --traditional", exe: p, name: "gawk", prog: gp, pre: []string{"--traditional"}},
			awkImplRun{label: "gawk -c", exe: p, name: "gawk", prog: gp, pre: []string{"-c"}},
			awkImplRun{label: "gawk POSIXLY_CORRECT", exe: p, name: "gawk", prog: gp, env: []string{"POSIXLY_CORRECT=1"}},
			awkImplRun{label: "awk -> gawk", exe: p, name: "awk", prog: Program{Path: "/usr/bin/awk", Links: []string{"/etc/alternatives/awk", p}}},
		)
	}
	if p, ok := testenv.Have(t, "busybox"); ok {
		bin := t.TempDir()
		link := filepath.Join(bin, "awk")
		if err := os.Symlink(p, link); err != nil {
			t.Fatal(err)
		}
		out = append(out, awkImplRun{label: "busybox awk", exe: link, name: "awk", prog: Program{Path: link, Links: []string{p}}})
	}
	if len(out) == 0 {
		testenv.Missing(t, "no awk installed")
	}
	return out
}

// connCounter is a loopback listener that answers every connection with
// one line and remembers who connected.
type connCounter struct {
	ln   net.Listener
	mu   sync.Mutex
	from map[string]bool // remote addresses accepted
	more chan struct{}   // signalled after each accept
}

func newConnCounter(t *testing.T) *connCounter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &connCounter{ln: ln, from: map[string]bool{}, more: make(chan struct{}, 1)}
	go func() {
		for {
			cn, err := ln.Accept()
			if err != nil {
				return
			}
			cn.Write([]byte("HTTP/1.0 200 OK\n"))
			cn.Close()
			c.mu.Lock()
			c.from[cn.RemoteAddr().String()] = true
			c.mu.Unlock()
			select {
			case c.more <- struct{}{}:
			default:
			}
		}
	}()
	return c
}

func (c *connCounter) port() string { return strconv.Itoa(c.ln.Addr().(*net.TCPAddr).Port) }

// count returns how many connections were made before the call and
// closes the listener. It dials a sentinel connection and waits until it
// has been accepted: the accept queue is FIFO, so every connection that
// was established earlier (a finished run's connect has returned) has been
// counted by then.
func (c *connCounter) count(t *testing.T) int {
	t.Helper()
	defer c.ln.Close()
	sentinel, err := net.Dial("tcp", c.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer sentinel.Close()
	me := sentinel.LocalAddr().String()
	for {
		c.mu.Lock()
		n, done := len(c.from), c.from[me]
		c.mu.Unlock()
		if done {
			return n - 1
		}
		<-c.more
	}
}

// awkCase is one argv (after argv[0]) with placeholders @CANARY@, @OUT@
// and @PORT@, and files to plant first (name → symlink target with
// placeholders).
type awkCase struct {
	args    []string
	symlink map[string]string
}

// awkOutcome is what one run did.
type awkOutcome struct {
	ran, wrote, connected bool
}

func (o awkOutcome) triggered() bool { return o.ran || o.wrote || o.connected }

// runAwkCase runs c with impl in a fresh directory and returns what it did
// and the recognizer's verdict, judged with the working directory pinned.
func runAwkCase(t *testing.T, impl awkImplRun, c awkCase) (awkOutcome, *Rejection, []string) {
	t.Helper()
	base := t.TempDir()
	dir, out := filepath.Join(base, "w"), filepath.Join(base, "outside")
	for _, d := range []string{dir, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	marker, canary := filepath.Join(base, "marker"), filepath.Join(base, "canary")
	if err := os.WriteFile(canary, []byte("#!/bin/sh\n: > '"+marker+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	conns := newConnCounter(t)
	port := conns.port()
	subst := strings.NewReplacer("@CANARY@", canary, "@OUT@", out, "@PORT@", port)
	for name, target := range c.symlink {
		if err := os.Symlink(subst.Replace(target), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	argv := []string{impl.name}
	argv = append(argv, impl.pre...)
	for _, a := range c.args {
		argv = append(argv, subst.Replace(a))
	}
	wd, err := workdir.Open(dir, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	defer wd.Close()
	ctx := Context{Dir: wd, Program: impl.prog, Env: envLookup(impl.env)}
	rej := checkAwk(argv, ctx)

	cctx, cancel := context.WithTimeout(context.Background(), testenv.RunTimeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, impl.exe, argv[1:]...)
	cmd.Args[0] = impl.name // BusyBox picks the applet from argv[0]
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "LC_ALL=C", "HOME=" + dir}, impl.env...)
	cmd.Stdin = strings.NewReader("line\n")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	_ = cmd.Run()
	var o awkOutcome
	_, err = os.Stat(marker)
	o.ran = err == nil
	entries, _ := os.ReadDir(out)
	o.wrote = len(entries) > 0
	o.connected = conns.count(t) > 0
	return o, rej, argv
}

// awkOracle runs every case (a fixed sample without testenv.Heavy) with
// every implementation and reports escapes; it requires at least
// minTriggered dangerous runs (scaled with the sample).
func awkOracle(t *testing.T, name string, cases []awkCase, minTriggered int) {
	if testing.Short() {
		t.Skip("oracle runs real programs")
	}
	impls := awkImplRuns(t)
	tried, triggered := 0, 0
	for _, impl := range impls {
		for _, c := range testenv.Sample(cases) {
			o, rej, argv := runAwkCase(t, impl, c)
			tried++
			if !o.triggered() {
				continue
			}
			triggered++
			if rej == nil {
				t.Errorf("escape (%s): %q ran=%v wrote=%v connected=%v, but the recognizer allowed it", impl.label, argv, o.ran, o.wrote, o.connected)
			}
		}
	}
	testenv.Saw(t, name, tried, triggered, minTriggered)
}

// TestAwkDialectOracle: a name that is a keyword in one dialect
// and a variable in another hides a pipe, a redirection or a coprocess
// inside what one reading takes for a regex.
func TestAwkDialectOracle(t *testing.T) {
	t.Parallel()
	var cases []awkCase
	for _, kw := range []string{"case", "default", "switch", "func", "BEGINFILE", "ENDFILE", "getline", "length"} {
		for _, act := range []string{`print "x" | "@CANARY@"`, `print "x" > "@OUT@/f"`, `"@CANARY@" | getline y`} {
			cases = append(cases,
				awkCase{args: []string{"BEGIN { " + kw + " = 2; x = " + kw + " / 1; " + act + " ; y = 1 / 1 }"}},
				awkCase{args: []string{"BEGIN { " + kw + " = 2; x = " + kw + " /1/ 1; " + act + " ; y = 1 / 1 }"}},
				awkCase{args: []string{"-e", "BEGIN { " + kw + " = 2; x = " + kw + " / 1; " + act + " ; y = 1 / 1 }"}},
			)
		}
	}
	for _, p := range awkSlashOraclePrograms() {
		cases = append(cases, awkCase{args: []string{"-v", "c=@CANARY@", "-v", "f=@OUT@/f", p}})
	}
	awkOracle(t, "awk dialects", cases, 40)
}

// TestGawkInetOracle: every way a gawk program or argv names a
// /inet file it builds or decodes at run time connects to the listener.
func TestGawkInetOracle(t *testing.T) {
	t.Parallel()
	const addr = "tcp/0/127.0.0.1/@PORT@"
	var cases []awkCase
	for _, p := range []string{
		`BEGIN { f = "/in" "et/` + addr + `"; getline x < f; print x }`,
		`BEGIN { f = sprintf("/inet/tcp/0/127.0.0.1/%d", @PORT@); getline x < f }`,
		`BEGIN { getline x < "\057inet/` + addr + `" }`,
		`BEGIN { getline x < "\x2finet/` + addr + `" }`,
		`BEGIN { getline x < "\/inet/` + addr + `" }`,
		`BEGIN { getline x < ("/in" "et/` + addr + `") }`,
		`BEGIN { getline < ("/inet" "/` + addr + `"); print }`,
		`BEGIN { ARGV[1] = "/in" "et/` + addr + `"; ARGC = 2 } { print; exit }`,
		`BEGIN { ARGV[ARGC++] = "/in" "et/` + addr + `" } { print; exit }`,
		`function f(a) { a[1] = "/in" "et/` + addr + `" } BEGIN { f(ARGV); ARGC = 2 } { print; exit }`,
		`BEGIN { SYMTAB["ARGV"][1] = "/in" "et/` + addr + `"; ARGC = 2 } { print; exit }`,
		`BEGIN { ARGC = 2; sub(/x/, "/in" "et/` + addr + `", ARGV[1]) } { print; exit }`,
		`BEGIN { ARGC = 2; getline ARGV[1] < "addr.txt" } { print; exit }`,
		`BEGIN { n = split("/in" "et/` + addr + `", ARGV, " "); ARGC = 2 } { print; exit }`,
		`BEGIN { print "x" > "/in" "et/` + addr + `" }`,
		`BEGIN { print "x" |& ("/in" "et/` + addr + `") }`,
	} {
		cases = append(cases, awkCase{args: []string{p, "x"}})
	}
	cases = append(cases,
		awkCase{args: []string{"{ print; exit }", "/inet/" + addr}},
		awkCase{args: []string{"-v", "f=/inet/" + addr, "BEGIN { getline x < f }"}},
		awkCase{args: []string{"-v", `f=\057inet/` + addr, "BEGIN { getline x < f }"}},
		awkCase{args: []string{"BEGIN { ARGV[1] = ARGV[2]; ARGC = 2 } { print; exit }", "x", "/inet/" + addr}},
		awkCase{args: []string{"{ getline y < f; exit }", `f=\057inet/` + addr, "-"}},
	)
	awkOracle(t, "gawk /inet", cases, 15)
}

// TestGawkDefaultOutputOracle: gawk -d/-p/-o without a value
// write awkvars.out or awkprof.out, which a request can plant as a symlink
// leading outside; with a value they write that file.
func TestGawkDefaultOutputOracle(t *testing.T) {
	t.Parallel()
	var cases []awkCase
	for _, o := range []struct{ opt, file string }{
		{"-d", "awkvars.out"}, {"--dump-variables", "awkvars.out"}, {"--dump", "awkvars.out"}, {"-W", "awkvars.out"},
		{"-p", "awkprof.out"}, {"--profile", "awkprof.out"}, {"-o", "awkprof.out"}, {"--pretty-print", "awkprof.out"},
	} {
		args := []string{o.opt}
		if o.opt == "-W" {
			args = append(args, "dump-variables")
		}
		cases = append(cases,
			awkCase{args: append(append([]string{}, args...), "BEGIN { x = 1 }"), symlink: map[string]string{o.file: "@OUT@/pwned"}},
			awkCase{args: append(append([]string{}, args...), "BEGIN { x = 1 }"), symlink: map[string]string{o.file: "@OUT@"}},
		)
	}
	cases = append(cases,
		awkCase{args: []string{"-d@OUT@/v", "BEGIN { x = 1 }"}},
		awkCase{args: []string{"--profile=@OUT@/p", "BEGIN { x = 1 }"}},
		awkCase{args: []string{"-dlink/v", "BEGIN { x = 1 }"}, symlink: map[string]string{"link": "@OUT@"}},
	)
	awkOracle(t, "gawk default outputs", cases, 10)
}

// TestAwkDialectRows: the dialect rules as table rows (no programs run),
// so each class has a test on machines without the programs.
func TestAwkDialectRows(t *testing.T) {
	gawk := Program{Path: "/usr/bin/gawk"}
	mawk := Program{Path: "/usr/bin/awk", Links: []string{"/etc/alternatives/awk", "/usr/bin/mawk"}}
	busybox := Program{Path: "/usr/bin/awk", Links: []string{"/bin/busybox"}}
	hide := func(kw string) string {
		return "BEGIN { " + kw + " = 2; x = " + kw + ` / 1; print "x" | "touch /tmp/p" ; y = 1 / 1 }`
	}
	ctx := pinCtx(t, testDir(t))
	for _, tt := range []struct {
		argv []string
		prog Program
		env  []string
		rule string
	}{
		{a("mawk", hide("case")), Program{}, nil, "awk.pipe"},
		{a("awk", hide("case")), mawk, nil, "awk.pipe"},
		{a("awk", hide("switch")), busybox, nil, "awk.pipe"},
		{a("awk", hide("default")), Program{}, nil, "awk.pipe"},
		{a("gawk", "--posix", hide("func")), gawk, nil, "awk.pipe"},
		{a("gawk", "-W", "traditional", hide("BEGINFILE")), gawk, nil, "awk.pipe"},
		{a("gawk", "--trad", hide("case")), gawk, nil, "awk.pipe"},
		{a("gawk", hide("ENDFILE")), gawk, []string{"POSIXLY_CORRECT=1"}, "awk.pipe"},
		{a("awk", "-e", "BEGIN{print 1}"), Program{Path: "/usr/bin/awk", Links: []string{"/usr/bin/gawk"}}, nil, ""},
		{a("awk", "-e", "BEGIN{print 1}"), busybox, nil, ""},
		{a("awk", "-e", "BEGIN{print 1}"), Program{}, nil, "awk.unknown-option"},
		{a("awk", "-e", "BEGIN{print 1}"), mawk, nil, "awk.unknown-option"},
		{a("awk", "-f", "x.awk"), busybox, nil, "awk.program-file"},
		{a("awk", "-E", "x.awk"), busybox, nil, "awk.program-file"},
		{a("awk", "--version"), busybox, nil, "awk.unknown-option"},
		{a("gawk", `BEGIN { switch (x) { case 1: print "one" } }`), gawk, nil, ""},
		{a("awk", "{ print length / 2 }", "f"), Program{}, nil, ""},
		{a("gawk", `BEGIN { f = "/in" "et/tcp/0/h/80"; getline x < f }`), gawk, nil, "awk.network"},
		{a("gawk", `BEGIN { getline x < "\057inet/tcp/0/h/80" }`), gawk, nil, "awk.network"},
		{a("gawk", `{ print }`, "/inet/tcp/0/h/80"), gawk, nil, "awk.network"},
		{a("gawk", "-v", `f=\057inet/tcp/0/h/80`, `BEGIN { print f }`), gawk, nil, "awk.network"},
		{a("gawk", `BEGIN { ARGV[1] = "x" }`), gawk, nil, "awk.network"},
		{a("gawk", `BEGIN { SYMTAB["x"] = 1 }`), gawk, nil, "awk.network"},
		{a("gawk", `BEGIN { while ((getline line < "in.txt") > 0) n++; print n }`), gawk, nil, ""},
		{a("gawk", `BEGIN { for (i = 1; i < ARGC; i++) print ARGV[i] }`, "a"), gawk, nil, ""},
		{a("gawk", `BEGIN { for (k in ARGV) n++; print n, length(ARGV) }`), gawk, nil, ""},
		{a("mawk", `BEGIN { f = "x"; getline y < f; print y }`), Program{}, nil, ""},
		{a("gawk", "-d", "BEGIN { x = 1 }"), gawk, nil, ""},
		{a("gawk", "-dvars.txt", "BEGIN { x = 1 }"), gawk, nil, ""},
		{a("gawk", "-d/tmp/v", "BEGIN { x = 1 }"), gawk, nil, "awk.output-path"},
		{a("gawk", "--persist", "BEGIN { x = 1 }"), gawk, nil, "awk.file-output"},
	} {
		c := ctx
		c.Program, c.Env = tt.prog, envLookup(tt.env)
		got := checkAwk(tt.argv, c)
		switch {
		case tt.rule == "" && got != nil:
			t.Errorf("%q (%v): want allow, got %s: %s", tt.argv, tt.prog, got.Code, got.Message)
		case tt.rule != "" && (got == nil || string(got.Code) != tt.rule):
			t.Errorf("%q (%v): want %s, got %v", tt.argv, tt.prog, tt.rule, got)
		case got != nil && (got.Index < 0 || got.Index >= len(tt.argv) || got.Arg != tt.argv[got.Index] && !strings.HasPrefix(got.Arg, tt.argv[got.Index])):
			t.Errorf("%q: rejection names %q at %d", tt.argv, got.Arg, got.Index)
		}
	}
}
