package policy

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// TestRefusalListSystematic: the programs that run a shell
// under a broad pattern, and the rest of their kind,
// are refused by name.
func TestRefusalListSystematic(t *testing.T) {
	for _, n := range []string{
		"i386", "x86_64", "linux32", "uname26", "aarch64", "choom", "uclampset", "runcon", "pdb3", "pdb3.11", "lli", "lli-14",
		"sotruss", "memusage", "xtrace", "perf", "perf_6.1", "heaptrack", "msgexec", "msgfilter", "scriptlive", "ldd",
		"numactl", "gdbserver", "gdb-multiarch", "chpst", "inotifyd", "tcpsvd", "qemu-x86_64", "qemu-aarch64-static",
		"ld-musl-x86_64.so.1", "ccache", "hyperfine", "entr", "xdg-open", "clang-repl", "tcc", "mim", "cttyhack",
	} {
		if _, _, ok := Refused(n); !ok {
			t.Errorf("%s is not refused", n)
		}
	}
	for _, n := range []string{"zip", "unzip", "make", "go", "git", "awk", "install", "cmake", "qemu", "ld", "ldconfig"} {
		if name, _, ok := Refused(n); ok {
			t.Errorf("%s refused as %s", n, name)
		}
	}
	for _, g := range refusedGroups {
		if g.source == "" || g.category == "" {
			t.Errorf("group %q has no source", g.category)
		}
	}
}

// programFixture is a directory with bin/ (the program PATH) holding a
// fake setarch and busybox, symlinks to them, and an allowed working
// directory work/ with bin/cat planted inside.
type programFixture struct {
	root, bin, work string
	dir             *workdir.Dir
}

func newProgramFixture(t *testing.T) programFixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := programFixture{root: root, bin: filepath.Join(root, "bin"), work: filepath.Join(root, "work")}
	for _, d := range []string{f.bin, filepath.Join(f.work, "bin"), filepath.Join(f.work, "git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := func(p string) {
		if err := os.WriteFile(p, []byte("#!/bin/true\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	exe(filepath.Join(f.bin, "setarch"))
	exe(filepath.Join(f.bin, "busybox"))
	exe(filepath.Join(f.bin, "tool"))
	exe(filepath.Join(root, "tool"))
	exe(filepath.Join(f.work, "bin", "cat"))
	link("setarch", filepath.Join(f.bin, "myarch"))
	link("busybox", filepath.Join(f.bin, "awk"))
	link("busybox", filepath.Join(f.bin, "busyboxy"))
	link(filepath.Join(f.work, "bin", "cat"), filepath.Join(f.bin, "viawork"))
	link("/bin/sh", filepath.Join(f.work, "git", "x"))
	if f.dir, err = workdir.Open(f.work, []string{f.work}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.dir.Close() })
	return f
}

func (f programFixture) policy(pattern string, commands ...string) *Policy {
	return New(Config{
		Commands:       commands,
		Patterns:       []*regexp.Regexp{regexp.MustCompile(`^(?:` + pattern + `)$`)},
		PatternSources: []string{pattern},
		Recognize:      argvrules.Check,
		ChildEnv:       childenv.Config{SafePath: f.bin + ":" + filepath.Join(f.work, "bin")},
		AllowedDirs:    []string{f.work},
	})
}

// TestProgramResolution: argv[0] is judged by
// where it leads through the program PATH and its symlink chain; a pattern
// admits names, not paths into the working directory; a program inside a
// directory calls can write runs only when its absolute path is
// allowlisted exactly; a multi-call binary is judged by the applet name.
func TestProgramResolution(t *testing.T) {
	f := newProgramFixture(t)
	for _, tt := range []struct {
		name string
		p    *Policy
		argv []string
		code refusal.Code
	}{
		{"symlink to a refused program", f.policy("[a-z]+"), []string{"myarch", "/bin/sh"}, CodeRefusedProgram},
		{"busybox applet by name", f.policy("[a-z]+"), []string{"awk", "BEGIN{print 1}"}, ""},
		{"busybox applet judged by its family", f.policy("[a-z]+"), []string{"awk", "BEGIN{system(\"id\")}"}, "awk.system"},
		{"busybox-prefixed name takes argv[1]", f.policy("[a-z]+"), []string{"busyboxy", "sh"}, CodeRefusedProgram},
		{"pattern never admits a relative path", f.policy("git.*"), []string{"git/x", "-c", "id"}, CodeNotAllowed},
		{"exact relative path is still in the working directory", f.policy("zzz", "git/x"), []string{"git/x"}, CodeWritableProgram},
		{"pattern admits an absolute path in a PATH directory", f.policy(".*"), []string{f.bin + "/tool"}, ""},
		{"pattern does not admit other absolute paths", f.policy(".*"), []string{f.root + "/tool"}, CodeNotAllowed},
		{"pattern admits a PATH directory inside an allowed directory, then refused", f.policy(".*"), []string{f.work + "/bin/cat"}, CodeWritableProgram},
		{"PATH entry inside an allowed directory", f.policy("[a-z]+"), []string{"cat", "x"}, CodeWritableProgram},
		{"symlink into an allowed directory", f.policy("[a-z]+"), []string{"viawork"}, CodeWritableProgram},
		{"exact absolute path allowlisted", f.policy("zzz", f.work+"/bin/cat"), []string{f.work + "/bin/cat"}, ""},
	} {
		_, err := decideIn(t, tt.p, tt.argv, f.dir)
		switch rj := refusal.As(err); {
		case tt.code == "" && err != nil:
			t.Errorf("%s: %q refused: %v", tt.name, tt.argv, err)
		case tt.code != "" && (rj == nil || rj.Code != tt.code):
			t.Errorf("%s: %q: got %v, want %s", tt.name, tt.argv, err, tt.code)
		case rj != nil && rj.Index != 0 && rj.Code != "awk.system":
			t.Errorf("%s: index %d", tt.name, rj.Index)
		}
	}
}
