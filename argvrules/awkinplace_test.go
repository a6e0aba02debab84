package argvrules

import (
	"os"
	"path/filepath"
	"testing"
)

// inplaceTestDir is sedTestDir plus a file ".npm" whose "rc" backup would
// be npm's configuration.
func inplaceTestDir(t testing.TB) string { return sedTestDir(t) }

// TestGawkInplaceRows: gawk's in-place editing is admitted for files
// inside the working directory, with every spelling of the include and of
// the backup suffix; whatever could make it write elsewhere is refused.
func TestGawkInplaceRows(t *testing.T) {
	gawk := Program{Path: "/usr/bin/gawk"}
	awkGawk := Program{Path: "/usr/bin/awk", Links: []string{"/etc/alternatives/awk", "/usr/bin/gawk"}}
	const prog = `{ sub(/foo/, "bar") } 1`
	ctx := pinCtx(t, inplaceTestDir(t))
	for _, tt := range []struct {
		argv []string
		prog Program
		rule string
	}{
		{a("gawk", "-i", "inplace", prog, "in.txt"), gawk, ""},
		{a("gawk", "-iinplace", prog, "in.txt", "sub/f.txt"), gawk, ""},
		{a("gawk", "--include=inplace", prog, "in.txt"), gawk, ""},
		{a("gawk", "--include", "inplace", prog, "in.txt"), gawk, ""},
		{a("gawk", "--incl=inplace.awk", prog, "in.txt"), gawk, ""},
		{a("gawk", "-W", "include=inplace", prog, "in.txt"), gawk, ""},
		{a("gawk", "-i", "inplace.awk", prog, "in.txt"), gawk, ""},
		{a("awk", "-i", "inplace", prog, "in.txt"), awkGawk, ""},
		{a("gawk", "-v", "inplace::suffix=.bak", "-i", "inplace", prog, "in.txt"), gawk, ""},
		{a("gawk", "-i", "inplace", "-v", "INPLACE_SUFFIX=.orig", prog, "in.txt"), gawk, ""},
		{a("gawk", "-i", "inplace", prog, "awk::INPLACE_SUFFIX=.b", "in.txt"), gawk, ""},
		{a("gawk", "-i", "inplace", prog, "inplace::enable=0", "in.txt"), gawk, ""},
		{a("gawk", "-i", "inplace", "-e", prog, "in.txt"), gawk, ""},
		{a("gawk", "-i", "inplace", prog), gawk, ""},
		{a("gawk", "-i", "inplace", prog, "-"), gawk, ""},
		{a("gawk", "-i", "inplace", prog, "link_in"), gawk, ""},
		// writes outside
		{a("gawk", "-i", "inplace", prog, "link_out"), gawk, "awk.output-path"},
		{a("gawk", "-i", "inplace", prog, "out/f"), gawk, "awk.output-path"},
		{a("gawk", "-i", "inplace", prog, "/tmp/x"), gawk, "awk.output-path"},
		{a("gawk", "-i", "inplace", prog, "in.txt", "../x"), gawk, "awk.output-path"},
		{a("gawk", "-i", "inplace", prog, "/dev/stdin"), gawk, "awk.output-path"},
		{a("gawk", "-i", "inplace", prog, ".npmrc"), gawk, "awk.output-path"},
		{a("gawk", "-v", "inplace::suffix=rc", "-i", "inplace", prog, ".npm"), gawk, "awk.output-path"},
		{a("gawk", "-v", "inplace::suffix=/../../x", "-i", "inplace", prog, "in.txt"), gawk, "awk.output-path"},
		{a("gawk", "-i", "inplace", "-v", `INPLACE_SUFFIX=\057..\057x`, prog, "in.txt"), gawk, "awk.output-path"},
		{a("gawk", "-i", "inplace", prog, `awk::INPLACE_SUFFIX=\x2f..\x2fx`, "in.txt"), gawk, "awk.output-path"},
		// steering the extension
		{a("gawk", "-i", "inplace", `BEGIN { INPLACE_SUFFIX = "/x" } 1`, "in.txt"), gawk, "awk.inplace"},
		{a("gawk", "-i", "inplace", `BEGIN { inplace::begin("/tmp/x", "") } 1`, "in.txt"), gawk, "awk.inplace"},
		{a("gawk", "-i", "inplace", `@namespace "inplace"; BEGIN { suffix = "/x" } 1`, "in.txt"), gawk, "awk.inplace"},
		{a("gawk", "-i", "inplace", "-e", `BEGIN { awk::INPLACE_SUFFIX = "x" }`, "-e", "1", "in.txt"), gawk, "awk.inplace"},
		{a("gawk", "-i", "inplace", prog, "in.txt", "inplace::filename=/tmp/x", "sub/f.txt"), gawk, "awk.inplace"},
		{a("gawk", "-v", "inplace::filename=/tmp/x", "-i", "inplace", prog, "in.txt"), gawk, "awk.inplace"},
		{a("/tmp/mygawk", "-i", "inplace", prog, "in.txt"), gawk, "awk.inplace"},
		// every other include
		{a("gawk", "-i", "other", prog, "in.txt"), gawk, "awk.program-file"},
		{a("gawk", "-i", "inplace", "-i", "x.awk", prog, "in.txt"), gawk, "awk.program-file"},
		{a("gawk", "-i", "/usr/share/awk/inplace.awk", prog, "in.txt"), gawk, "awk.program-file"},
		{a("gawk", "-i", "./inplace", prog, "in.txt"), gawk, "awk.program-file"},
		{a("gawk", "-l", "inplace", prog, "in.txt"), gawk, "awk.program-file"},
		{a("awk", "-i", "inplace", prog, "in.txt"), Program{}, "awk.unknown-option"},
		{a("gawk", "-i", "inplace", `{ print > "x" }`, "in.txt"), gawk, "awk.redirect"},
	} {
		c := ctx
		c.Program = tt.prog
		got := checkAwk(tt.argv, c)
		switch {
		case tt.rule == "" && got != nil:
			t.Errorf("%q: want allow, got %s: %s", tt.argv, got.Code, got.Message)
		case tt.rule != "" && (got == nil || string(got.Code) != tt.rule):
			t.Errorf("%q: want %s, got %v", tt.argv, tt.rule, got)
		case got != nil && (got.Index < 0 || got.Index >= len(tt.argv) || got.Arg != tt.argv[got.Index]):
			t.Errorf("%q: rejection names %q at %d", tt.argv, got.Arg, got.Index)
		case got != nil:
			checkDeclared(t, got.Code)
		}
	}
}

// TestGawkInplaceRefusesPlantedInclude: a working directory holding
// inplace or inplace.awk (which gawk's default AWKPATH would load) is
// refused.
func TestGawkInplaceRefusesPlantedInclude(t *testing.T) {
	for _, name := range []string{"inplace", "inplace.awk"} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(`BEGIN { system("id") }`), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx := pinCtx(t, dir)
		ctx.Program = Program{Path: "/usr/bin/gawk"}
		if r := checkAwk(a("gawk", "-i", "inplace", "1", "f"), ctx); r == nil || r.Code != "awk.inplace" {
			t.Errorf("%s planted: got %v", name, r)
		}
	}
}
