//go:build unix

// Oracles that run the real tools in process groups: Unix only, like the other oracle files.

package argvrules

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// The differential tests run the installed program on argv variants of
// each dangerous option — every abbreviation the program's parser could
// accept, short clusters, attached and separate values, positions after
// operands — inside a fresh t.TempDir(), with a canary script as the
// helper program and as every decompressor/unzip name on a private PATH
// directory. The property checked is one-directional: whenever the canary
// ran or a file appeared in the "outside" directory, the recognizer must
// have refused that argv. Each program must also trigger at least once,
// so a broken oracle cannot pass silently. Network use is a loopback
// httptest server or a closed loopback port.

// oracleEnv is the per-variant sandbox.
type oracleEnv struct {
	work, outside, flags, bin string
	canary, marker            string
	url                       string
}

// canaryNames are the programs the canary stands in for on PATH: the
// decompressors rg -z and file -z run, unzip for zip -T, and ed, the
// editor sdiff's interactive merge starts.
var canaryNames = []string{"gzip", "xz", "bzip2", "lz4", "zstd", "brotli", "lzma", "uncompress", "unzip", "ed", "lzip", "lrzip"}

func newOracleEnv(t *testing.T, url string) *oracleEnv {
	t.Helper()
	e := &oracleEnv{work: evalDir(t), outside: evalDir(t), flags: evalDir(t), bin: evalDir(t), url: url}
	e.marker = filepath.Join(e.flags, "marker")
	e.canary = filepath.Join(e.bin, "canary.sh")
	script := "#!/bin/sh\necho \"$0 $*\" >> '" + e.marker + "'\ncat \"$1\" 2>/dev/null\nexit 0\n"
	write(t, e.canary, script, 0o755)
	for _, n := range canaryNames {
		write(t, filepath.Join(e.bin, n), script, 0o755)
	}
	write(t, filepath.Join(e.work, "notes.txt"), "TODO one\nTODO two\n", 0o644)
	write(t, filepath.Join(e.work, "notes.txt.gz"), "not really gzip\n", 0o644)
	write(t, filepath.Join(e.work, "x.lz"), "LZIP\x01\x0c\x00\x00\x00\x00\x00\x00\x00\x00\x00", 0o644)
	write(t, filepath.Join(e.work, "package.json"), `{"name":"t","version":"1.0.0","scripts":{"t":"echo hi"}}`, 0o644)
	write(t, filepath.Join(e.work, "go.mod"), "module x\n\ngo 1.21\n", 0o644)
	write(t, filepath.Join(e.work, "main.go"), "package main\n\nfunc main() { println(\"hi\") }\n", 0o644)
	write(t, filepath.Join(e.work, "main_test.go"), "package main\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n", 0o644)
	write(t, filepath.Join(e.work, "a.txt"), "a\nb\n", 0o644)
	write(t, filepath.Join(e.work, "b.txt"), "a\nc\n", 0o644)
	write(t, filepath.Join(e.work, "Makefile"), "all:\n\t@echo $(CFLAGS) built\ntest:\n\t@echo tested\n", 0o644)
	write(t, filepath.Join(e.work, "curl.cfg"), "output = \""+filepath.Join(e.outside, "from-config")+"\"\n", 0o644)
	write(t, filepath.Join(e.work, "wgetrc"), "use_askpass = "+e.canary+"\n", 0o644)
	return e
}

func evalDir(t *testing.T) string {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func write(t *testing.T, p, s string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), mode); err != nil {
		t.Fatal(err)
	}
}

// expand substitutes the placeholders in a variant.
func (e *oracleEnv) expand(args []string) []string {
	r := strings.NewReplacer("CANARY", e.canary, "OUTSIDE", e.outside, "URL", e.url)
	out := make([]string, len(args))
	for i, s := range args {
		out[i] = r.Replace(s)
	}
	return out
}

// effect runs argv in e.work and reports what escaped: the canary ran,
// or something appeared in e.outside.
func (e *oracleEnv) effect(t *testing.T, argv []string, stdin string, extraEnv []string) (ran, wrote bool) {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.RunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = e.work
	cmd.Env = append([]string{"PATH=" + e.bin + ":" + filepath.Dir(argv[0]) + ":/usr/bin:/bin", "HOME=" + e.work,
		"LC_ALL=C", "TMPDIR=" + e.work}, e.expand(extraEnv)...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 2 * time.Second
	// Own process group, killed whole on timeout and after exit, so no
	// grandchild (compilers, helpers) outlives the variant.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	start := time.Now()
	err := cmd.Run() // exit status is irrelevant: effects are what count
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if os.Getenv("ORACLE_DEBUG") != "" {
		t.Logf("%q (%v, %v):\n%s", argv, time.Since(start), err, out.String())
	}
	if _, err := os.Stat(e.marker); err == nil {
		ran = true
	}
	ents, err := os.ReadDir(e.outside)
	if err != nil {
		t.Fatal(err)
	}
	return ran, len(ents) > 0
}

// variant is one argv (after the program name) with optional stdin.
type variant struct {
	args  []string
	stdin string
}

func v(args ...string) variant { return variant{args: args} }

// longForms returns "--P=VAL" and "--P VAL" for every prefix P of name
// at least min bytes long (getopt_long's unique-prefix abbreviations;
// prefixes the program calls ambiguous or unknown just fail there).
func longForms(name, val string, min int) [][]string {
	var out [][]string
	for n := min; n <= len(name); n++ {
		p := "--" + name[:n]
		out = append(out, []string{p + "=" + val}, []string{p, val})
	}
	return out
}

// shortForms returns -cVAL, -c VAL, -qcVAL and -qc VAL for letter c
// with the benign cluster letter q.
func shortForms(c, q byte, val string) [][]string {
	s, qs := "-"+string(c), "-"+string(q)+string(c)
	return [][]string{{s + val}, {s, val}, {qs + val}, {qs, val}}
}

// around places an option form before, between and after the operands.
func around(form, ops []string) []variant {
	var out []variant
	cat := func(parts ...[]string) []string {
		var s []string
		for _, p := range parts {
			s = append(s, p...)
		}
		return s
	}
	out = append(out, variant{args: cat(form, ops)}, variant{args: cat(ops, form)})
	if len(ops) > 1 {
		out = append(out, variant{args: cat(ops[:1], form, ops[1:])})
	}
	return out
}

// runOracle checks every variant of one program (a fixed sample without
// testenv.Heavy) and requires at least one escape to be observed (so the
// oracle itself is shown to work).
func runOracle(t *testing.T, prog string, rec Recognizer, url string, variants []variant, checkOutside bool, extraEnv ...string) {
	t.Helper()
	path := testenv.Program(t, prog)
	escapes, refused := 0, 0
	variants = testenv.Sample(variants)
	for _, vr := range variants {
		e := newOracleEnv(t, url)
		args := e.expand(vr.args)
		argv := append([]string{prog}, args...)
		rej := rec(argv, pinCtx(t, e.work))
		if rej != nil {
			refused++
		}
		ran, wrote := e.effect(t, append([]string{path}, args...), e.expand([]string{vr.stdin})[0], extraEnv)
		escaped := ran || (checkOutside && wrote)
		if escaped {
			escapes++
		}
		if escaped && rej == nil {
			t.Errorf("%s %q: the canary ran=%v or wrote outside=%v, but the recognizer allowed it", prog, args, ran, wrote)
		}
	}
	t.Logf("%s: %d variants, %d escaped when run, %d refused", prog, len(variants), escapes, refused)
	testenv.Saw(t, prog, len(variants), escapes, 1)
}

// testServer serves a small file with a cookie and an ETag on loopback.
func testServer(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "k", Value: "v", Expires: time.Now().Add(time.Hour)})
		w.Header().Set("ETag", `"abc"`)
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("hello\n"))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/f.txt"
}

func oracleShort(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real programs")
	}
}

func TestOracleRg(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	ops := []string{"TODO", "."}
	var vs []variant
	for _, name := range []string{"pre", "hostname-bin"} {
		for _, f := range longForms(name, "CANARY", 2) {
			vs = append(vs, around(f, ops)...)
		}
	}
	for _, f := range [][]string{{"-z"}, {"-iz"}, {"-zi"}, {"--search-zip"}, {"--search-z"}, {"-uuz"},
		{"--pre-glob=*", "--pre=CANARY"}, {"--hyperlink-format={host}", "--hostname-bin=CANARY"}} {
		vs = append(vs, around(f, ops)...)
	}
	vs = append(vs, v("--engine", "--pre=CANARY", "TODO", "."), v("--engine", "-z", "TODO", "."),
		v("--glob", "--pre=CANARY", "TODO", "."), v("--replace", "--pre=CANARY", "TODO", "."),
		v("-e", "--pre=CANARY", "."), v("--", "--pre=CANARY", "."), v("--regexp", "-z", "."),
		v("TODO", "notes.txt.gz"), v("-n", "TODO"))
	runOracle(t, "rg", checkRg, "", vs, true)
}

func TestOracleSplit(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	ops := []string{"notes.txt", "part_"}
	var vs []variant
	for _, f := range longForms("filter", "CANARY", 1) {
		vs = append(vs, around(f, ops)...)
	}
	vs = append(vs, v("-l", "1", "notes.txt", "p_"), v("--", "notes.txt", "--filter=CANARY"))
	// The PREFIX operand may name a path outside: that write is delegated,
	// so only the canary is checked here.
	runOracle(t, "split", checkSplit, "", vs, false)
}

func TestOracleDiffPrograms(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	for _, prog := range []string{"sdiff", "diff3"} {
		rec := recOf(prog)
		ops := []string{"a.txt", "b.txt"}
		if prog == "diff3" {
			ops = []string{"a.txt", "b.txt", "a.txt"}
		}
		var vs []variant
		for _, f := range longForms("diff-program", "CANARY", 1) {
			vs = append(vs, around(f, ops)...)
		}
		vs = append(vs, variant{args: ops})
		if prog == "sdiff" {
			// -o starts the interactive merge; its "e" command runs ed.
			for _, f := range append(longForms("output", "merged", 1), []string{"-o", "merged"}, []string{"-somerged"}) {
				for _, vr := range around(f, ops) {
					vr.stdin = "e\nq\n"
					vs = append(vs, vr)
				}
			}
		}
		t.Run(prog, func(t *testing.T) { runOracle(t, prog, rec, "", vs, true) })
	}
}

func TestOracleWget(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	url := testServer(t)
	ops := []string{"URL"}
	var vs []variant
	for _, c := range []struct {
		long, val string
		short     byte
	}{
		{"use-askpass", "CANARY", 0},
		{"execute", "use_askpass=CANARY", 'e'},
		{"config", "wgetrc", 0},
		{"output-document", "OUTSIDE/doc", 'O'},
		{"output-file", "OUTSIDE/log", 'o'},
		{"append-output", "OUTSIDE/alog", 'a'},
		{"directory-prefix", "OUTSIDE/dir", 'P'},
		{"save-cookies", "OUTSIDE/jar", 0},
		{"rejected-log", "OUTSIDE/rej", 0},
		{"warc-file", "OUTSIDE/warc", 0},
	} {
		for _, f := range longForms(c.long, c.val, 1) {
			vs = append(vs, around(f, ops)...)
		}
		if c.short != 0 {
			for _, f := range shortForms(c.short, 'q', c.val) {
				vs = append(vs, around(f, ops)...)
			}
		}
	}
	for _, opt := range []string{"--backups", "--report-speed", "--restrict-file-names"} {
		vs = append(vs, v(opt, "-O", "OUTSIDE/doc", "URL"), v(opt, "--use-askpass=CANARY", "URL"))
	}
	vs = append(vs, v("-q", "URL"), v("-O", "-", "URL"), v("-O", "in.txt", "URL"), v("-P", "sub", "URL"),
		v("--use-askpass=CANARY", "http://127.0.0.1:9/"))
	runOracle(t, "wget", checkWget, url, vs, true)
}

func TestOracleCurl(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	url := testServer(t)
	ops := []string{"URL"}
	var vs []variant
	for _, c := range []struct {
		long, val string
		short     byte
	}{
		{"output", "OUTSIDE/o", 'o'},
		{"dump-header", "OUTSIDE/h", 'D'},
		{"cookie-jar", "OUTSIDE/jar", 'c'},
		{"trace", "OUTSIDE/t", 0},
		{"trace-ascii", "OUTSIDE/ta", 0},
		{"libcurl", "OUTSIDE/src.c", 0},
		{"stderr", "OUTSIDE/err", 0},
		{"etag-save", "OUTSIDE/etag", 0},
		{"config", "curl.cfg", 'K'},
	} {
		// curl does not abbreviate: prefixes fail there, and the
		// recognizer refuses them as unknown options.
		for _, f := range longForms(c.long, c.val, len(c.long)-2) {
			vs = append(vs, around(f, ops)...)
		}
		if c.short != 0 {
			for _, f := range shortForms(c.short, 's', c.val) {
				vs = append(vs, around(f, ops)...)
			}
		}
	}
	vs = append(vs, v("--output-dir", "OUTSIDE", "-O", "URL"), v("-O", "--output-dir=OUTSIDE", "URL"),
		v("-sO", "URL"), v("-o", "in.txt", "URL"), v("-o", "/dev/null", "URL"),
		v("--create-dirs", "-o", "new/x", "URL"), v("URL", "--", "-o"))
	runOracle(t, "curl", checkCurl, url, vs, true)
}

func TestOracleMake(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	shell := "$(shell CANARY)"
	var vs []variant
	for _, f := range longForms("eval", "X:="+shell, 1) {
		vs = append(vs, around(f, []string{"all"})...)
	}
	for _, f := range shortForms('E', 's', "X:="+shell) {
		vs = append(vs, around(f, []string{"all"})...)
	}
	for _, op := range []string{"CFLAGS=" + shell, "CFLAGS:=" + shell, "CFLAGS::=" + shell, "CFLAGS+=" + shell,
		"CFLAGS?=" + shell, "X!=CANARY", "SHELL=CANARY", ".SHELLFLAGS=-c CANARY;:"} {
		vs = append(vs, v(op), v("all", op), v("-s", op, "all"), v("--", op))
	}
	stdinMakefile := "all:\n\t@CANARY\n"
	for _, f := range [][]string{{"-f", "-"}, {"-f-"}, {"--file=-"}, {"--makefile", "-"}, {"--fi", "-"},
		{"-f", "/dev/stdin"}, {"-sf", "/proc/self/fd/0"}} {
		vs = append(vs, variant{args: append(f, "all"), stdin: stdinMakefile})
	}
	vs = append(vs, v(), v("test"), v("-j4", "all"), v("-j", "2", "test"), v("-s", "-C", ".", "all"))
	runOracle(t, "make", checkMake, "", vs, true)
}

func TestOracleZip(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	ops := []string{"out.zip", "notes.txt"}
	var vs []variant
	for _, f := range [][]string{{"-T"}, {"-T", "-TT", "CANARY"}, {"-T", "-TTCANARY"}, {"-qT"}, {"-Tq"},
		{"-T", "--unzip-command=CANARY"}, {"-T", "--unzip-command", "CANARY"}, {"--test"}, {"--te"},
		{"-T", "--unzip-c=CANARY"}, {"--test", "-TT", "CANARY"}} {
		vs = append(vs, around(f, ops)...)
	}
	vs = append(vs, v("-q", "out.zip", "notes.txt"), v("-r", "out.zip", "."))
	runOracle(t, "zip", checkZip, "", vs, true)
}

func TestOracleFile(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	ops := []string{"x.lz", "notes.txt"}
	var vs []variant
	for _, name := range []string{"uncompress", "uncompress-noreport"} {
		for n := 1; n <= len(name); n++ {
			vs = append(vs, around([]string{"--" + name[:n]}, ops)...)
		}
	}
	for _, f := range [][]string{{"-z"}, {"-Z"}, {"-bz"}, {"-zb"}, {"-bZ"}} {
		vs = append(vs, around(f, ops)...)
	}
	vs = append(vs, variant{args: ops}, v("-b", "--mime-type", "x.lz"))
	runOracle(t, "file", checkFile, "", vs, true)
}

func TestOracleNpm(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	var vs []variant
	for _, f := range [][]string{{"--script-shell=CANARY"}, {"--script-shell", "CANARY"}, {"--script-sh=CANARY"},
		{"--script-she", "CANARY"}, {"-script-shell=CANARY"}, {"--script_shell=CANARY"}} {
		vs = append(vs, variant{args: append([]string{"run", "t"}, f...)})
	}
	for _, cmd := range []string{"exec", "exe", "x"} {
		vs = append(vs, v(cmd, "-c", "CANARY"), v(cmd, "--call=CANARY"))
	}
	vs = append(vs, v("run", "t"), v("run-script", "t"))
	runOracle(t, "npm", checkNpm, "", vs, true)
}

// TestOracleGo runs the go command on a one-file module. The build cache
// is shared between variants and filled first by a warm-up build (minutes
// on a loaded two-core machine, so the test runs only under
// MCP_SHELL_TEST_HEAVY=1, which CI's heavy step sets); GOENV points
// outside the working directory so go env -w shows up as an outside
// write.
func TestOracleGo(t *testing.T) {
	t.Parallel()
	oracleShort(t)
	if !testenv.Heavy() {
		t.Skip("compiles the runtime once: runs under MCP_SHELL_TEST_HEAVY=1")
	}
	goPath := testenv.Program(t, "go")
	cache := evalDir(t)
	tmp := filepath.Join(cache, "tmp") // go ignores a go.mod in the TMPDIR root
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"GOCACHE=" + cache, "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=-modcacherw",
		"GOENV=OUTSIDE/goenv", "GOPATH=" + cache + "/gopath", "TMPDIR=" + tmp}
	t.Cleanup(func() { // the build cache holds read-only files
		_ = filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o755)
			}
			return nil
		})
	})
	warm := newOracleEnv(t, "")
	for _, args := range [][]string{{"build", "-o", "app", "."}, {"test", "."}, {"vet", "."}} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := exec.CommandContext(ctx, goPath, args...)
		cmd.Dir = warm.work
		cmd.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + warm.work}, warm.expand(env)...)
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("warm-up go %v failed: %v\n%s", args, err, out)
		}
	}
	var vs []variant
	for _, name := range []string{"exec"} {
		for _, f := range [][]string{{"-" + name + "=CANARY"}, {"--" + name + "=CANARY"}, {"-" + name, "CANARY"}, {"--" + name, "CANARY"}} {
			vs = append(vs, variant{args: append(append([]string{"run"}, f...), ".")})
			vs = append(vs, variant{args: append([]string{"test", "."}, f...)})
		}
	}
	vs = append(vs,
		v("build", "-toolexec=CANARY", "-o", "app", "."), v("build", "--toolexec", "CANARY", "."),
		v("vet", "-vettool=CANARY", "."), v("vet", "--vettool", "CANARY", "."),
		v("build", "-ldflags=-linkmode=external -extld=CANARY", "-o", "app", "."),
		v("build", "-o", "OUTSIDE/app", "."), v("build", "-o=OUTSIDE/", "."),
		v("test", "-coverprofile=OUTSIDE/c.out", "."), v("test", ".", "-cpuprofile", "OUTSIDE/cpu.out"),
		v("env", "-w", "GOFLAGS=-x"), v("env", "--w", "GOFLAGS=-x"),
		v("build", "-gcflags=-asmhdr=OUTSIDE/h", "-o", "app", "."), v("build", "-gcflags", "-N -cpuprofile OUTSIDE/p", "-o", "app", "."),
		v("build", "-gcflags=x=-N -l", "-o", "app", "."), v("build", "-ldflags=-s -w -X main.v=1", "-o", "app", "."),
		v("fix", "-fixtool=CANARY", "."), v("tool", "nm", "app"), v("tool", "buildid", "app"),
		v("build", "."), v("vet", "."), v("test", "."), v("run", "."), v("env", "GOPATH"), v("version"))
	runOracle(t, "go", checkGo, "", vs, true, env...)
}
