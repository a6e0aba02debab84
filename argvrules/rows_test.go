package argvrules

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// The recognizer tables: one file per family (rg_test.go, tar_test.go,
// ...), each a []row registered with familyRows and checked by checkRows
// in rowDir, so every row of every family is one line with one checker of
// the Rejection contract (programs_test.go's a, expectRule and
// checkRejection were the model).

// row is one table case: argv and the expected verdict, "" for allow or
// the expected Rejection.Rule.
type row struct {
	argv []string
	rule refusal.Code
}

func a(s ...string) []string { return s }

// allRows is every row familyRows registered (the fuzzers' seeds), and
// rowSeen their argv, for the duplicate check.
var (
	allRows []row
	rowSeen = map[string]bool{}
)

// familyRows registers a family's table and returns it. A row whose argv
// is already registered panics at package initialisation, as mvdan/sh's
// parser tables do: a duplicate is a copy left behind, never a second
// case.
func familyRows(rows []row) []row {
	for _, r := range rows {
		k := strings.Join(r.argv, "\x00")
		if rowSeen[k] {
			panic(fmt.Sprintf("table row %q appears twice", r.argv))
		}
		rowSeen[k] = true
	}
	allRows = append(allRows, rows...)
	return rows
}

// checkRows checks every row with its family's recognizer in rowDir.
func checkRows(t *testing.T, rows []row) { checkRowsIn(t, rowDir(t), rows) }

// checkRowsIn checks every row with its family's recognizer in dir.
func checkRowsIn(t *testing.T, dir string, rows []row) {
	t.Helper()
	ctx := pinCtx(t, dir)
	for _, r := range rows {
		expectRule(t, ctx, r.argv, r.rule)
	}
}

// testDir returns a working directory with a regular file "file.txt", a
// directory "sub" and a symlink "out -> /tmp" leading outside.
func testDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/tmp", filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// rowDir is the working directory of every table row: testDir plus
// ordinary files, a package, an input list, and symlinks planted where
// programs write under names they make up (each leads outside).
func rowDir(t testing.TB) string {
	t.Helper()
	dir := testDir(t)
	mk := func(p, content string) {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(content), 0o644)
	}
	mk("data.txt", "b\na\n")
	mk("src.txt", "x\n")
	mk("package.json", `{"name":"p","version":"1.0.0"}`)
	mk("urls.txt", "https://example.com/a.tgz\nhttps://example.com/.gitconfig\n")
	mk("good-urls.txt", "https://example.com/a.tgz\n")
	mk("build/.keep", "")
	mk("cr/Cargo.toml", "[package]\nname = \"cr\"\n")
	mk("planted/.keep", "")
	for name, target := range map[string]string{
		"planted/dl.tgz": "/tmp/elsewhere/dl", "planted/xaa": "/tmp/elsewhere/xaa",
		"m.mgc": "/tmp/elsewhere/m", "planted/p-1.0.0.tgz": "/tmp/elsewhere/p",
		"planted/awkvars.out": "/tmp/elsewhere/v",
	} {
		os.Symlink(target, filepath.Join(dir, name))
	}
	return dir
}

// expectRule runs argv's recognizer and checks the verdict: allowed when
// rule is "", otherwise refused with that rule and a well-formed Rejection.
func expectRule(t *testing.T, ctx Context, argv []string, rule refusal.Code) {
	t.Helper()
	rec := recOf(famName(baseName(argv)))
	if rec == nil {
		t.Errorf("%q: no recognizer for %q", argv, argv[0])
		return
	}
	got := rec(argv, ctx)
	if got != nil {
		checkDeclared(t, got.Code)
	}
	switch {
	case rule == "" && got != nil:
		t.Errorf("%q: want allow, got %s: %s", argv, got.Code, got.Message)
	case rule != "" && got == nil:
		t.Errorf("%q: want %s, got allow", argv, rule)
	case rule != "" && got.Code != rule:
		t.Errorf("%q: want %s, got %s: %s", argv, rule, got.Code, got.Message)
	case got != nil:
		checkRejection(t, argv, got)
	}
}

// checkRejection asserts the shared Rejection contract: Arg is argv[Index]
// (or starts with it for "-o FILE" pairs) and Message names it.
func checkRejection(t *testing.T, argv []string, r *Rejection) {
	t.Helper()
	if !strings.HasPrefix(r.Message, "Command rejected by default security policy: ") {
		t.Errorf("%q: message %q lacks the policy prefix", argv, r.Message)
	}
	if r.Index < 0 || r.Index >= len(argv) {
		t.Errorf("%q: index %d out of range", argv, r.Index)
		return
	}
	if !strings.HasPrefix(r.Arg, argv[r.Index]) && r.Index != 0 {
		t.Errorf("%q: Arg %q is not argv[%d] %q", argv, r.Arg, r.Index, argv[r.Index])
	}
	// Named as written, or by position for an argument too long to repeat
	// (an awk program).
	if !strings.Contains(r.Message, strconv.Quote(r.Arg)) && !strings.Contains(r.Message, r.Arg) &&
		!strings.Contains(r.Message, fmt.Sprintf("argument %d ", r.Index)) && !strings.Contains(r.Message, fmt.Sprintf("argument %d:", r.Index)) {
		t.Errorf("%q: message %q does not name %q", argv, r.Message, r.Arg)
	}
}
