package argvrules

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// sedRow is one sed table case: the implementation the program resolves
// to ("gnu", "busybox", or "" for an unresolved name read both ways),
// argv and the expected verdict ("" allows).
type sedRow struct {
	impl string
	argv []string
	rule refusal.Code
}

// sedPrograms are the resolved programs of each implementation.
var sedPrograms = map[string]Program{
	"gnu":     {Path: "/usr/bin/gsed"},
	"busybox": {Path: "/bin/sed", Links: []string{"/bin/busybox"}},
	"":        {},
}

// sedRows are the sed family's table: everyday scripts, every way to
// hide a program or a write, and in-place editing. Placeholders: none;
// the directory is sedTestDir's.
var sedRows = []sedRow{
	// everyday scripts, both implementations
	{"", a("sed", "s/foo/bar/g", "in.txt"), ""},
	{"", a("sed", "-n", "1,5p", "in.txt"), ""},
	{"", a("sed", "-e", "s/a/b/", "-e", "/^$/d", "in.txt"), ""},
	{"", a("sed", "-E", "s/([0-9]+)/<\\1>/g"), ""},
	{"", a("sed", "--expression=s/x/y/", "--quiet", "in.txt"), ""},
	{"", a("sed", "/e/d", "in.txt"), ""},
	{"", a("sed", "s/x/e/", "in.txt"), ""},
	{"", a("sed", ":a;N;$!ba;s/\\n/,/g", "in.txt"), ""},
	{"", a("sed", "$!N;P;D", "in.txt"), ""},
	{"", a("sed", "a foo; e id", "in.txt"), ""},
	{"", a("sed", "1i\\\ne touch x", "in.txt"), ""},
	{"", a("sed", "-e", "a\\", "-e", "1e touch x", "in.txt"), ""},
	{"", a("sed", "s/a/b/w out.txt", "in.txt"), ""},
	{"", a("sed", "-n", "/x/w sub/matches.txt", "in.txt"), ""},
	{"", a("sed", "w /dev/stdout", "in.txt"), ""},
	{"", a("sed", "1r /etc/hostname", "in.txt"), ""},
	{"", a("sed", "-f", "ok.sed", "in.txt"), ""},
	{"", a("sed", "--", "s/a/b/", "-n"), ""},
	{"", a("sed", "s/a/b/", "-i", "in.txt"), ""},
	{"", a("sed", "-i", "s/a/b/", "in.txt"), ""},
	{"", a("sed", "-i.bak", "s/a/b/", "in.txt"), ""},
	{"", a("sed", "--in-place=.orig", "-e", "s/a/b/", "in.txt", "sub/f.txt"), ""},
	{"", a("sed", "-i", "s/a/b/", "link_in"), ""},
	// GNU extensions
	{"gnu", a("sed", "0,/re/d", "in.txt"), ""},
	{"gnu", a("sed", "1~3p;2,~4d;/x/,+2d", "in.txt"), ""},
	{"gnu", a("sed", "/a/I,/b/Mp;s/x/y/gI3", "in.txt"), ""},
	{"gnu", a("sed", "F;z;=;l 20;q5", "in.txt"), ""},
	{"gnu", a("sed", "1Q3", "in.txt"), ""},
	{"gnu", a("sed", "-z", "-s", "-u", "-l", "40", "--debug", "--posix", "p", "in.txt"), ""},
	{"gnu", a("sed", "--sandbox", "s/a/b/", "in.txt"), ""},
	{"gnu", a("sed", "s|[/]|x|;y/abc/xyz/;T;b end;:end", "in.txt"), ""},
	{"gnu", a("sed", "#n\np", "in.txt"), ""},
	{"gnu", a("sed", "v 4.2", "in.txt"), ""},
	{"gnu", a("sed", "1R /etc/hostname", "in.txt"), ""},
	{"gnu", a("sed", "1W w.txt", "in.txt"), ""},
	{"gnu", a("sed", "-i'bak/*'", "s/a/b/", "in.txt"), ""},
	{"gnu", a("sed", "--follow-symlinks", "-i.bak", "s/a/b/", "link_in"), ""},
	// programs
	{"gnu", a("sed", "1e touch x", "in.txt"), "sed.exec"},
	{"gnu", a("sed", "e"), "sed.exec"},
	{"gnu", a("sed", "-n", "1s|.*|touch x|e", "in.txt"), "sed.exec"},
	{"gnu", a("sed", "s/a/b/ge"), "sed.exec"},
	{"gnu", a("sed", "-n", "1{\ne touch x\n}", "in.txt"), "sed.exec"},
	{"gnu", a("sed", "--expr=1e touch x", "in.txt"), "sed.exec"},
	{"gnu", a("sed", "-e", "1{", "-e", "e id", "-e", "}"), "sed.exec"},
	{"gnu", a("sed", "-e", "a foo", "-e", "e id"), "sed.exec"},
	{"gnu", a("sed", "s/[/]/x/;e id"), "sed.exec"},
	{"gnu", a("sed", "s/a/b/;#c\\\ne id"), "sed.exec"},
	{"gnu", a("sed", "y/a/b/;$!e id"), "sed.exec"},
	{"gnu", a("sed", "-f", "exec.sed", "in.txt"), "sed.exec"},
	{"gnu", a("sed", "in.txt", "-e", "1e id"), "sed.exec"},
	{"", a("sed", "1e touch x", "in.txt"), "sed.exec"},
	// writes
	{"", a("sed", "-e", "1w /tmp/x", "in.txt"), "sed.output-path"},
	{"", a("sed", "-n", "1s/.*/DATA/w /tmp/outside/file", "/etc/hosts"), "sed.output-path"},
	{"gnu", a("sed", "-n", "1W /tmp/outside/file", "/etc/hosts"), "sed.output-path"},
	{"", a("sed", "1{w /tmp/x\n}"), "sed.output-path"},
	{"", a("sed", "1!w ../x"), "sed.output-path"},
	{"", a("sed", "w out/x"), "sed.output-path"},
	{"", a("sed", "w link_out"), "sed.output-path"},
	{"", a("sed", "w .git/config"), "sed.output-path"},
	{"", a("sed", "w -"), ""},
	{"gnu", a("sed", "-f", "wout.sed", "in.txt"), "sed.output-path"},
	{"busybox", a("sed", "s/a/b/;#c\\\nw /tmp/x"), "sed.output-path"},
	{"busybox", a("sed", "-e", "w\\", "-e", "/tmp/y"), "sed.output-path"}, // joined: w /tmp/y
	{"busybox", a("sed", "-e", "w\\", "-e", "tmp/y"), ""},
	{"gnu", a("sed", "-e", "w\\", "-e", "p"), "sed.output-path"}, // a file named "\": refused as a Windows root
	// dialect-specific readings
	{"busybox", a("sed", "e id"), "sed.syntax"},
	{"busybox", a("sed", "s/a/b/e"), "sed.syntax"},
	{"busybox", a("sed", "y/abc/xyz/p", "in.txt"), ""},
	{"gnu", a("sed", "y/abc/xyz/p", "in.txt"), "sed.syntax"},
	{"gnu", a("sed", "--posix", "a foo", "in.txt"), "sed.syntax"},
	{"gnu", a("sed", "-e", "a foo", "--posix", "in.txt"), ""},
	{"gnu", a("sed", "v 9.0", "in.txt"), "sed.syntax"},
	{"gnu", a("sed", "b nowhere", "in.txt"), "sed.syntax"},
	{"gnu", a("sed", "s\xc3a\xc3b\xc3", "in.txt"), "sed.syntax"},
	// options
	{"", a("sed", "-f", "-", "in.txt"), "sed.script-file"},
	{"", a("sed", "-f", "/dev/stdin", "in.txt"), "sed.script-file"},
	{"", a("sed", "-f", "missing.sed", "in.txt"), "sed.script-file"},
	{"", a("sed", "-f", "../x.sed", "in.txt"), "sed.script-file"},
	{"", a("sed", "-f", "out/x.sed", "in.txt"), "sed.script-file"},
	{"", a("sed", "--help"), "sed.no-script"},
	{"", a("sed", "--version"), "sed.no-script"},
	{"", a("sed"), "sed.no-script"},
	{"gnu", a("sed", "--s", "p"), "sed.ambiguous-option"},
	{"gnu", a("sed", "-V", "x", "p"), "sed.unknown-option"},
	{"busybox", a("sed", "-z", "p"), "sed.unknown-option"},
	{"gnu", a("sed", "-e"), "sed.missing-value"},
	// in place
	{"", a("sed", "-i", "s/a/b/", "link_out"), "sed.output-path"},
	{"", a("sed", "-i", "s/a/b/", "out/f"), "sed.output-path"},
	{"", a("sed", "-i", "s/a/b/", "/tmp/f"), "sed.output-path"},
	{"", a("sed", "-i", "s/a/b/", "../f"), "sed.output-path"},
	{"", a("sed", "-i", "s/a/b/", "in.txt", "/etc/hostname"), "sed.output-path"},
	{"", a("sed", "-i../x", "s/a/b/", "in.txt"), ""}, // in.txt../x: a directory named "in.txt.." inside, or no rename
	{"", a("sed", "-i/../../x", "s/a/b/", "in.txt"), "sed.output-path"},
	{"gnu", a("sed", "-i/tmp/x*", "s/a/b/", "in.txt"), "sed.output-path"},
	{"gnu", a("sed", "-i*/../../x", "s/a/b/", "in.txt"), "sed.output-path"},
	{"gnu", a("sed", "-iout/*", "s/a/b/", "in.txt"), "sed.output-path"},
	{"gnu", a("sed", "--in-place=../*.bak", "s/a/b/", "in.txt"), "sed.output-path"},
	{"gnu", a("sed", "--in-pl=.git/*", "s/a/b/", "in.txt"), "sed.output-path"},
	{"gnu", a("sed", "-irc", "s/a/b/", ".npm"), "sed.output-path"},
	{"gnu", a("sed", "--follow-symlinks", "-i", "s/a/b/", "link_out"), "sed.output-path"},
	{"busybox", a("sed", "-i/tmp/x*", "s/a/b/", "in.txt"), "sed.output-path"}, // in.txt/tmp/x*: not a directory
	{"", a("sed", "-n", "-i", "s/a/b/", "-"), ""},
	{"gnu", a("sed", "-ni", "p", "in.txt"), ""},
	{"gnu", a("sed", "-in", "p", "in.txt"), ""},
}

// sedTestDir is a working directory with in.txt, sub/f.txt, script files
// (ok.sed, exec.sed with an e command, wout.sed writing /tmp), a link
// inside (link_in) and links leading out (out -> a directory, link_out ->
// a file outside).
func sedTestDir(t testing.TB) string {
	t.Helper()
	dir := testDir(t)
	outside := t.TempDir()
	files := map[string]string{
		"in.txt": "a\nb\n", "sub/f.txt": "a\n", "ok.sed": "s/a/b/\nw out.txt\n",
		"exec.sed": "s/a/b/\n1e touch x\n", "wout.sed": "1w /tmp/x\n", ".npm": "",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(dir, "out"))
	for link, target := range map[string]string{"out": outside, "link_in": "in.txt", "link_out": filepath.Join(outside, "f")} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestSedRows(t *testing.T) {
	base := pinCtx(t, sedTestDir(t))
	seen := map[string]bool{}
	for _, r := range sedRows {
		key := r.impl + "\x00" + strings.Join(r.argv, "\x00")
		if seen[key] {
			t.Errorf("duplicate row %q %q", r.impl, r.argv)
		}
		seen[key] = true
		ctx := base
		ctx.Program = sedPrograms[r.impl]
		expectSed(t, ctx, r)
	}
}

// expectSed checks one row's verdict, and that a refusal of a script
// names the command (or error) and the byte offset.
func expectSed(t *testing.T, ctx Context, r sedRow) {
	t.Helper()
	got := checkSed(r.argv, ctx)
	switch {
	case r.rule == "" && got != nil:
		t.Errorf("%s %q: want allow, got %s: %s", r.impl, r.argv, got.Code, got.Message)
		return
	case r.rule != "" && got == nil:
		t.Errorf("%s %q: want %s, got allow", r.impl, r.argv, r.rule)
		return
	case got == nil:
		return
	case got.Code != r.rule:
		t.Errorf("%s %q: want %s, got %s: %s", r.impl, r.argv, r.rule, got.Code, got.Message)
	}
	checkDeclared(t, got.Code)
	checkRejection(t, r.argv, got)
	scriptWrite := got.Code == "sed.output-path" && !sedInPlace(r.argv)
	switch {
	case got.Code == "sed.exec", got.Code == "sed.syntax", scriptWrite:
		if !strings.Contains(got.Message, "byte offset") {
			t.Errorf("%q: %s names no byte offset: %s", r.argv, got.Code, got.Message)
		}
	}
	if scriptWrite && !strings.Contains(got.Message, "w command") && !strings.Contains(got.Message, "W command") && !strings.Contains(got.Message, "w flag of s") {
		t.Errorf("%q: the message does not name the command: %s", r.argv, got.Message)
	}
	if got.Code == "sed.exec" && !strings.Contains(got.Message, "e command") && !strings.Contains(got.Message, "e flag of s") {
		t.Errorf("%q: the message does not name the command: %s", r.argv, got.Message)
	}
}

// sedInPlace reports whether argv asks for in-place editing (-i, a
// cluster holding i, --in-place and its abbreviations), whose refusals
// name an operand or the backup name rather than a script command.
func sedInPlace(argv []string) bool {
	for _, w := range argv[1:] {
		if w == "--" {
			return false
		}
		if strings.HasPrefix(w, "--in-pl") || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "i") {
			return true
		}
	}
	return false
}

// TestSedDialectChoice: the file the chain ends in picks the grammar; a
// BSD or toybox sed is refused rather than misread.
func TestSedDialectChoice(t *testing.T) {
	for _, c := range []struct {
		argv0 string
		prog  Program
		want  []sedImpl
	}{
		{"sed", Program{Path: "/usr/bin/sed"}, []sedImpl{sedGNU}},
		{"sed", Program{Path: "/bin/sed", Links: []string{"/bin/busybox"}}, []sedImpl{sedBusybox}},
		{"sed", Program{Path: "/usr/local/bin/sed", Links: []string{"/usr/local/Cellar/gnu-sed/4.9/bin/gsed"}}, []sedImpl{sedGNU}},
		{"gsed", Program{}, []sedImpl{sedGNU}},
		{"sed", Program{}, []sedImpl{sedGNU, sedBusybox}},
		{"sed", Program{Path: "/bin/sed", Links: []string{"/bin/toybox"}}, nil},
	} {
		if c.prog.Path == "/usr/bin/sed" && bsdSedPlatform(runtime.GOOS) {
			c.want = nil // that file is BSD sed there
		}
		if got, _ := sedImpls(c.argv0, c.prog); !equalImpls(got, c.want) {
			t.Errorf("sedImpls(%q, %v) = %v, want %v", c.argv0, c.prog, got, c.want)
		}
	}
}

func equalImpls(a, b []sedImpl) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
