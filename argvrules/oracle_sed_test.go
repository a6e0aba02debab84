//go:build unix

package argvrules

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
	before := treeSnapshot(t, base)
	o := runSed(t, run.exe, w, args)
	after := treeSnapshot(t, base)
	for p, h := range after {
		if before[p] != h && h != "dir" && p != "out/ran" {
			o.changed = append(o.changed, p)
		}
	}
	o.outside = changedOutside(before, after)
	_, o.ran = after["out/ran"]
	slices.Sort(o.changed)
	return o, w, append([]string{"sed"}, args...)
}

func runSed(t *testing.T, exe, dir string, args []string) sedOutcome {
	r := runIn(t, exe, dir, []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}, args...)
	return sedOutcome{exit: r.exit, stdout: r.stdout, stderr: r.stderr}
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
	t.Parallel()
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
	t.Parallel()
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
