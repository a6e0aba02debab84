//go:build unix

package argvrules

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpensslLoadCodeOracle builds a shared library whose constructor
// creates a canary (as the red team's e.so did) and runs openssl with
// every way the recognizer knows to load it: -engine by path, a
// -provider-path directory, a -config whose openssl_conf section names it
// as an engine. Each must create the canary (the oracle sees danger) and
// be refused; the everyday forms must create none and be allowed.
func TestOpensslLoadCodeOracle(t *testing.T) {
	t.Parallel()
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		requireProgram(t, "openssl")
	}
	cc, err := exec.LookPath("cc")
	if err != nil {
		requireProgram(t, "cc")
	}
	w, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	canary := filepath.Join(t.TempDir(), "canary")
	writeFiles(t, map[string]string{filepath.Join(w, "e.c"): "#include <stdio.h>\n__attribute__((constructor)) static void pwn(void) { FILE *f = fopen(\"" + canary + "\", \"w\"); if (f) fclose(f); }\n"})
	mkdirs(t, filepath.Join(w, "pd"))
	build := exec.Command(cc, "-shared", "-fPIC", "-o", filepath.Join(w, "e.so"), filepath.Join(w, "e.c"))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("cc: %v: %s", err, out)
	}
	lib, _ := os.ReadFile(filepath.Join(w, "e.so"))
	writeFiles(t, map[string]string{
		filepath.Join(w, "pd", "x.so"): string(lib),
		filepath.Join(w, "mod.cnf"):    "openssl_conf = init\n[init]\nengines = eng\n[eng]\nmy = dyn\n[dyn]\ndynamic_path = " + filepath.Join(w, "e.so") + "\n[req]\ndistinguished_name = dn\n[dn]\n",
		filepath.Join(w, "req.cnf"):    "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = x\n",
	})
	req := func(extra ...string) []string {
		return append(append([]string{"openssl", "req"}, extra...), "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=x", "-keyout", "k.pem", "-out", "r.pem")
	}
	cases := [][]string{
		req(), req("-config", "req.cnf"), {"openssl", "version"}, {"openssl", "list", "-provider", "default", "-providers"},
		req("-engine", "./e.so"), req("-engine", filepath.Join(w, "e.so")),
		{"openssl", "list", "-provider-path", "pd", "-provider", "x", "-providers"},
		req("-config", "mod.cnf"),
	}
	dangerous, allowed := 0, 0
	ctx := pinCtx(t, w)
	for _, argv := range cases {
		os.Remove(canary)
		rej := checkOpenssl(argv, ctx)
		runIn(t, openssl, w, []string{"PATH=/usr/bin:/bin", "OPENSSL_CONF=/dev/null"}, argv[1:]...)
		_, err := os.Stat(canary)
		ran := err == nil
		if rej == nil {
			allowed++
		}
		if ran {
			dangerous++
			if rej == nil {
				t.Errorf("escape: %q was allowed and loaded the library", strings.Join(argv, " "))
			}
		}
	}
	if dangerous < 4 || allowed < 4 {
		t.Fatalf("%d dangerous runs (want 4), %d allowed (want 4): the oracle cannot tell", dangerous, allowed)
	}
}

// TestPygmentizeLoadCodeOracle: pygmentize -x imports the lexer file -l
// names (its code creates the canary); without -x it does not.
func TestPygmentizeLoadCodeOracle(t *testing.T) {
	t.Parallel()
	pyg, err := exec.LookPath("pygmentize")
	if err != nil {
		requireProgram(t, "pygmentize")
	}
	w, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	canary := filepath.Join(t.TempDir(), "canary")
	writeFiles(t, map[string]string{
		filepath.Join(w, "lex.py"): "open(" + `"` + canary + `"` + ", 'w').close()\nfrom pygments.lexers import PythonLexer as L\n",
		filepath.Join(w, "in.py"):  "print(1)\n",
	})
	ctx := pinCtx(t, w)
	dangerous := 0
	for _, argv := range [][]string{
		{"pygmentize", "-l", "python", "in.py"}, {"pygmentize", "-l", "lex.py:L", "in.py"},
		{"pygmentize", "-x", "-l", "lex.py:L", "in.py"}, {"pygmentize", "-vx", "-l", "lex.py:L", "in.py"},
	} {
		os.Remove(canary)
		rej := checkPygmentize(argv, ctx)
		runIn(t, pyg, w, os.Environ(), argv[1:]...)
		if _, err := os.Stat(canary); err == nil {
			dangerous++
			if rej == nil {
				t.Errorf("escape: %q was allowed and imported lex.py", argv)
			}
		}
	}
	if dangerous < 2 {
		t.Fatalf("%d dangerous runs, want 2: the oracle cannot see danger", dangerous)
	}
}
