//go:build unix

package argvrules

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The sed oracle runs every case with the real GNU sed and BusyBox sed in
// a fresh directory next to an "outside" directory, and compares what the
// program did with the model and the recognizer:
//   - an escape is a run the recognizer allowed that ran a command (the
//     canary "@OUT@/ran" appeared) or changed anything outside the working
//     directory;
//   - the files the run created are exactly the w files the model lists
//     (sed opens them when it compiles the script, whether or not the
//     command ever runs), for cases without in-place editing;
//   - the model reports a compile error exactly when sed does;
//   - a GNU script the model finds no e, r or w in produces the same output
//     with --sandbox (GNU sed's own check that it has none).
// It first proves it can see danger: too few dangerous runs fail it.

// sedOracleRun is one installed implementation.
type sedOracleRun struct {
	impl sedImpl
	exe  string
	prog Program
}

func sedOracleRuns(t *testing.T) []sedOracleRun {
	var out []sedOracleRun
	if p, err := exec.LookPath("sed"); err == nil {
		if b, err := exec.Command(p, "--version").Output(); err == nil && bytes.Contains(b, []byte("GNU sed")) {
			out = append(out, sedOracleRun{sedGNU, p, Program{Path: "/usr/bin/gsed"}})
		}
	}
	if p, err := exec.LookPath("busybox"); err == nil {
		link := filepath.Join(t.TempDir(), "sed")
		if err := os.Symlink(p, link); err != nil {
			t.Fatal(err)
		}
		out = append(out, sedOracleRun{sedBusybox, link, Program{Path: link, Links: []string{p}}})
	}
	if len(out) == 0 {
		requireProgram(t, "sed")
	}
	return out
}

// requireProgram skips, or fails when MCP_SHELL_REQUIRE_PROGRAMS is set (CI
// installs every program the oracles run).
func requireProgram(t *testing.T, name string) {
	t.Helper()
	if os.Getenv("MCP_SHELL_REQUIRE_PROGRAMS") != "" {
		t.Fatalf("%s is not installed and MCP_SHELL_REQUIRE_PROGRAMS is set", name)
	}
	t.Skipf("%s not installed", name)
}

// sedCase is one argv after "sed", with @OUT@ for the outside directory;
// files and links are planted in the working directory first (values
// with placeholders). in.txt always exists: its first line is a command
// that creates the canary, so a GNU e without argument shows itself.
type sedCase struct {
	args  []string
	files map[string]string
	links map[string]string
}

func sc(args ...string) sedCase { return sedCase{args: args} }

// sedOracleCases are scripts of every shape the models follow.
var sedOracleCases = []sedCase{
	// everyday
	sc("s/foo/bar/g", "in.txt"), sc("-n", "2,3p", "in.txt"), sc("-e", "s/a/b/", "-e", "/^$/d", "in.txt"),
	sc("-E", "s/([a-z]+)/<\\1>/g", "in.txt"), sc("/e/d", "in.txt"), sc("s/o/e/", "in.txt"),
	sc(":a;N;$!ba;s/\\n/,/g", "in.txt"), sc("$!N;P;D", "in.txt"), sc("1!G;h;$!d", "in.txt"),
	sc("y/abc/xyz/", "in.txt"), sc("s/[/]/x/;s/[]]/y/", "in.txt"), sc("\\,foo,d", "in.txt"),
	sc("/foo/,/bar/{s/o/0/g}", "in.txt"), sc("s/a/\\n/;s/b/\\t/", "in.txt"), sc("=", "in.txt"),
	sc("-n", "$=", "in.txt"), sc("2q", "in.txt"), sc("l", "in.txt"), sc("s/x/y/2", "in.txt"),
	sc("-s", "-n", "1p", "in.txt", "in.txt"),
	// text commands that hold command-looking text
	sc("a foo; e touch @OUT@/ran", "in.txt"), sc("1i\\\ne touch @OUT@/ran", "in.txt"),
	sc("$a\\\nline one\\\ne touch @OUT@/ran", "in.txt"), sc("c\\\ne touch @OUT@/ran", "in.txt"),
	sc("-e", "a\\", "-e", "1e touch @OUT@/ran", "in.txt"), sc("-e", "a foo\\", "-e", "e touch @OUT@/ran", "in.txt"),
	sc("1a\\", "in.txt"), sc("/x/ s/o/e/ ; p", "in.txt"),
	sc(":e;s/q/x/;te", "in.txt"), sc("s/e touch/x/", "in.txt"), sc("/e touch/d", "in.txt"),
	// programs (GNU)
	sc("1e touch @OUT@/ran", "in.txt"), sc("-n", "1s|.*|touch @OUT@/ran|e", "in.txt"),
	sc("1s/^//e", "in.txt"), sc("e", "in.txt"), sc("1{\ne touch @OUT@/ran\n}", "in.txt"),
	sc("--expr=1e touch @OUT@/ran", "in.txt"), sc("-e", "1{", "-e", "e touch @OUT@/ran", "-e", "}", "in.txt"),
	sc("-e", "a foo", "-e", "1e touch @OUT@/ran", "in.txt"), sc("s/[/]/x/;1e touch @OUT@/ran", "in.txt"),
	sc("s/a/b/;#c\\\n1e touch @OUT@/ran", "in.txt"), sc("y/a/b/;1e touch @OUT@/ran", "in.txt"),
	sc("#n\n1e touch @OUT@/ran", "in.txt"), sc("in.txt", "-e", "1e touch @OUT@/ran"),
	sc("1!d;1s/.*/touch @OUT@\\/ran/ep", "in.txt"), sc("0,/touch/e touch @OUT@/ran", "in.txt"),
	// writes
	sc("s/o/0/w w1.txt", "in.txt"), sc("-n", "/foo/w sub/w2.txt", "in.txt"), sc("w /dev/stdout", "in.txt"),
	sc("1w @OUT@/w3", "in.txt"), sc("2W @OUT@/w4", "in.txt"), sc("s/x/y/w @OUT@/w5", "in.txt"),
	sc("1{w @OUT@/w6\n}", "in.txt"), sc("1!w ../w7", "in.txt"), sc("w lo", "in.txt"),
	sc("w dl/w8", "in.txt"), sc("w out }", "in.txt"), sc("$!N;w w9.txt", "in.txt"),
	sc("s/a/b/;#c\\\nw @OUT@/w10", "in.txt"), sc("-e", "w\\", "-e", "@OUT@/w11", "in.txt"),
	sc("-e", "w w12\\", "-e", "p", "in.txt"), sc("s/[[:alpha:]/]/x/w @OUT@/w13", "in.txt"),
	sc("1r /etc/hostname", "in.txt"), sc("R in.txt", "in.txt"),
	// script files
	{args: []string{"-f", "e.sed", "in.txt"}, files: map[string]string{"e.sed": "1e touch @OUT@/ran\n"}},
	{args: []string{"-f", "w.sed", "in.txt"}, files: map[string]string{"w.sed": "s/a/b/\n1w @OUT@/wf\n"}},
	{args: []string{"-f", "ok.sed", "in.txt"}, files: map[string]string{"ok.sed": "s/foo/FOO/\n$a\\\nend\n"}},
	{args: []string{"-e", "1{", "-f", "close.sed", "in.txt"}, files: map[string]string{"close.sed": "p\n}\n"}},
	// errors
	sc("y/abc/xyz/p", "in.txt"), sc("b nowhere", "in.txt"), sc("1{p", "in.txt"), sc("p}", "in.txt"),
	sc("s/a/b/x", "in.txt"), sc("k", "in.txt"), sc("v 9.0", "in.txt"), sc("--posix", "a foo", "in.txt"),
	sc("1~3p", "in.txt"), sc("0,/foo/d", "in.txt"), sc("/a/I,/b/Mp", "in.txt"), sc("F;z", "in.txt"),
}

// sedInPlaceCases edit files in place; @OUT@/t is a file outside, lo a
// link to it, dl a link to the outside directory.
var sedInPlaceCases = []sedCase{
	sc("-i", "s/touch/TOUCH/", "in.txt"), sc("-i.bak", "s/touch/TOUCH/", "in.txt"),
	sc("--in-place=.orig", "s/touch/TOUCH/", "in.txt"), sc("-i", "s/x/X/", "li"),
	sc("-i", "s/x/X/", "lo"), sc("--follow-symlinks", "-i", "s/x/X/", "lo"),
	sc("-i", "s/x/X/", "dl/t"), sc("-i@OUT@/*", "s/touch/TOUCH/", "in.txt"),
	sc("-i../*", "s/touch/TOUCH/", "in.txt"), sc("-i*/../../x", "s/touch/TOUCH/", "in.txt"),
	sc("-i../x", "s/touch/TOUCH/", "in.txt"), sc("-ibk/*", "s/touch/TOUCH/", "in.txt"),
	sc("-i", "s/x/X/", "@OUT@/t"), sc("-n", "-i", "p", "in.txt"), sc("-ni", "p", "in.txt"),
	sc("--follow-symlinks", "-i.b", "s/x/X/", "li"),
}

// sedOutcome is what one run did.
type sedOutcome struct {
	ran     bool
	outside []string // paths changed outside the working directory
	changed []string // files created or modified anywhere, relative to the base (the canary aside)
	exit    int
	stdout  string
	stderr  string
}

func (o sedOutcome) dangerous() bool { return o.ran || len(o.outside) > 0 }

// runSedCase plants c in a fresh directory and runs it.
func runSedCase(t *testing.T, run sedOracleRun, c sedCase) (sedOutcome, string, []string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w, out := filepath.Join(base, "w"), filepath.Join(base, "out")
	for _, d := range []string{w, out, filepath.Join(w, "sub"), filepath.Join(w, "bk")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fill := func(s string) string { return strings.ReplaceAll(s, "@OUT@", out) }
	files := map[string]string{"in.txt": fill("touch @OUT@/ran\nfoo\nbar\n"), "x": "x\n", "../out/t": "x\n"}
	for k, v := range c.files {
		files[k] = fill(v)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(w, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{"lo": "@OUT@/t", "dl": "@OUT@", "li": "x"}
	for k, v := range c.links {
		links[k] = v
	}
	for name, target := range links {
		if err := os.Symlink(fill(target), filepath.Join(w, name)); err != nil {
			t.Fatal(err)
		}
	}
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = fill(a)
	}
	before := sedSnapshot(t, base)
	o := runSed(t, run.exe, w, args)
	after := sedSnapshot(t, base)
	for p, h := range after {
		if before[p] == h || h == "dir" {
			continue
		}
		if p != "out/ran" {
			o.changed = append(o.changed, p)
		}
		if !strings.HasPrefix(p, "w/") {
			o.outside = append(o.outside, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok && !strings.HasPrefix(p, "w/") {
			o.outside = append(o.outside, p+" (removed)")
		}
	}
	_, o.ran = after["out/ran"]
	slices.Sort(o.changed)
	return o, w, append([]string{"sed"}, args...)
}

// sedSnapshot maps every path below base (relative) to a digest of its
// content or link target.
func sedSnapshot(t *testing.T, base string) map[string]string {
	m := map[string]string{}
	filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == base {
			return nil
		}
		rel, _ := filepath.Rel(base, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			m[rel] = "link:" + target
		case d.IsDir():
			m[rel] = "dir"
		default:
			b, _ := os.ReadFile(p)
			m[rel] = string(sha256.New().Sum(b))
		}
		return nil
	})
	return m
}

// sedRunTimeout bounds one run: a sed that waits for input it will not
// get is stopped, not waited for.
const sedRunTimeout = 10 * time.Second

func runSed(t *testing.T, exe, dir string, args []string) sedOutcome {
	ctx, cancel := context.WithTimeout(context.Background(), sedRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	o := sedOutcome{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		o.exit = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %q: %v", exe, args, err)
	}
	return o
}

// compileFailed reports whether a run stopped on a script compile error
// (GNU: bad_prog's "-e expression #N, char M" or "file F line N", and
// check_final_program's label error; BusyBox: any sed: error but for
// files it could not open and the errors it finds while running).
func compileFailed(impl sedImpl, o sedOutcome) bool {
	if o.exit == 0 {
		return false
	}
	if impl == sedGNU {
		return strings.Contains(o.stderr, "-e expression #") || strings.Contains(o.stderr, " line ") || strings.Contains(o.stderr, "can't find label")
	}
	// BusyBox resolves labels and blocks while it runs (branch_to,
	// process_files): those are not compile errors.
	for _, runtime := range []string{"can't open", "No such file", "can't find label", "unterminated {"} {
		if strings.Contains(o.stderr, runtime) {
			return false
		}
	}
	return strings.Contains(o.stderr, "sed: ")
}

func TestSedOracle(t *testing.T) {
	for _, run := range sedOracleRuns(t) {
		t.Run(sedImplName[run.impl], func(t *testing.T) {
			dangerous := 0
			for _, c := range sedOracleCases {
				o, w, argv := runSedCase(t, run, c)
				ctx := pinCtx(t, w)
				ctx.Program = run.prog
				rej := checkSed(argv, ctx)
				if o.dangerous() {
					dangerous++
					if rej == nil {
						t.Errorf("escape: %q was allowed and ran=%v changed outside %v", argv, o.ran, o.outside)
					}
				}
				r := sedRead(run.impl, argv, ctx, permute, "")
				if r.reject != nil {
					continue // an option-level refusal: nothing to compare
				}
				if got, want := modelErr(r), compileFailed(run.impl, o); got != want {
					t.Errorf("%q: model error %v, sed compile error %v (exit %d: %s)", argv, r.script.err, want, o.exit, o.stderr)
				}
				if got := modelWrites(r, w); !slices.Equal(got, o.changed) {
					t.Errorf("%q: model writes %q, sed wrote %q", argv, got, o.changed)
				}
				if run.impl == sedGNU && rej == nil && len(r.script.effects) == 0 {
					sb := runSed(t, run.exe, w, append([]string{"--sandbox"}, argv[1:]...))
					if sb.exit != o.exit || sb.stdout != o.stdout {
						t.Errorf("%q: output differs under --sandbox: %q (exit %d) vs %q (exit %d)", argv, sb.stdout, sb.exit, o.stdout, o.exit)
					}
				}
			}
			if min := map[sedImpl]int{sedGNU: 25, sedBusybox: 6}[run.impl]; dangerous < min {
				t.Fatalf("the oracle saw %d dangerous runs, want at least %d: it cannot see danger", dangerous, min)
			}
			t.Logf("%d dangerous runs, all refused", dangerous)
		})
	}
}

func TestSedInPlaceOracle(t *testing.T) {
	for _, run := range sedOracleRuns(t) {
		t.Run(sedImplName[run.impl], func(t *testing.T) {
			dangerous, allowed := 0, 0
			for _, c := range sedInPlaceCases {
				o, w, argv := runSedCase(t, run, c)
				ctx := pinCtx(t, w)
				ctx.Program = run.prog
				rej := checkSed(argv, ctx)
				if rej == nil {
					allowed++
				}
				if o.dangerous() {
					dangerous++
					if rej == nil {
						t.Errorf("escape: %q was allowed and changed outside %v", argv, o.outside)
					}
				}
			}
			if min := map[sedImpl]int{sedGNU: 5, sedBusybox: 2}[run.impl]; dangerous < min || allowed < 4 {
				t.Fatalf("%d dangerous runs (want %d), %d allowed (want 4): the oracle cannot tell", dangerous, min, allowed)
			}
		})
	}
}

func modelErr(r sedReading) bool { return r.script.err != nil }

// modelWrites are the files the model says sed opens for writing,
// resolved through symlinks and relative to w's parent, sorted.
func modelWrites(r sedReading, w string) []string {
	base := filepath.Dir(w)
	var out []string
	for _, e := range r.script.effects {
		if e.kind != sedEffWrite || sedHarmlessWrite(e.file) {
			continue
		}
		p := e.file
		if !filepath.IsAbs(p) {
			p = filepath.Join(w, p)
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		rel, err := filepath.Rel(base, p)
		if err != nil {
			continue
		}
		if !slices.Contains(out, rel) {
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return out
}
