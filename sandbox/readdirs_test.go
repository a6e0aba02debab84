//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadDirsSetting(t *testing.T) {
	for _, tc := range []struct {
		current, add []string
		want         string
	}{
		{[]string{"/usr", "/etc"}, []string{"/proc"}, "MCP_SHELL_SANDBOX_READ_DIRS=/usr,/etc,/proc"},
		{[]string{"/usr", "/etc"}, []string{"/usr/lib/x86_64-linux-gnu", "/etc"}, "MCP_SHELL_SANDBOX_READ_DIRS=/usr,/etc"},
		{[]string{"/srv"}, []string{"/usr", "/usr", ""}, "MCP_SHELL_SANDBOX_READ_DIRS=/srv,/usr"},
		{nil, []string{"DIR"}, "MCP_SHELL_SANDBOX_READ_DIRS=DIR"},
	} {
		if got := ReadDirsSetting(tc.current, tc.add...); got != tc.want {
			t.Errorf("ReadDirsSetting(%q, %q) = %q, want %q", tc.current, tc.add, got, tc.want)
		}
	}
}

// dynamic skips a test on a system whose programs are not dynamically
// linked (no loader to leave out).
func dynamic(t *testing.T) string {
	t.Helper()
	in := interpreter(loaderProbe)
	if in == "" {
		t.Skipf("%s has no PT_INTERP", loaderProbe)
	}
	return in
}

// TestLoaderDirsOutside: the default list leaves nothing out; a list of
// one unrelated directory leaves out the default directory holding the
// dynamic loader; restoring what it names leaves nothing out.
func TestLoaderDirsOutside(t *testing.T) {
	in := dynamic(t)
	if got := LoaderDirsOutside(DefaultReadDirs); len(got) != 0 {
		t.Errorf("the default list leaves out %q", got)
	}
	narrow := []string{t.TempDir()}
	got := LoaderDirsOutside(narrow)
	if !slices.ContainsFunc(got, func(d string) bool { return within(d, in) || within(resolved(d), resolved(in)) }) {
		t.Errorf("LoaderDirsOutside(%q) = %q, lacks the directory of the loader %s", narrow, got, in)
	}
	if again := LoaderDirsOutside(append(narrow, got...)); len(again) != 0 {
		t.Errorf("after adding %q still leaves out %q", got, again)
	}
}

// TestLibraryDenials: the loader's message about a library that exists
// where readDirs does not reach is a library denial with the whole
// value in its hint; where it may read, or for a library found nowhere,
// none. The messages are glibc 2.36's and musl 1.2's.
func TestLibraryDenials(t *testing.T) {
	dynamic(t)
	libc := findLibrary("libc.so.6")
	if libc == "" {
		t.Skip("no glibc libc.so.6 in the library directories")
	}
	narrow := []string{t.TempDir()}
	glibc := "ls: error while loading shared libraries: libc.so.6: cannot open shared object file: No such file or directory\n"
	musl := "Error loading shared library libc.so.6: No such file or directory (needed by /usr/bin/x)\n"
	for _, tc := range []struct {
		name     string
		readDirs []string
		stderr   string
		want     string
	}{
		{"glibc narrowed", narrow, glibc, "read of the shared library " + libc + " (the program could not load)"},
		{"musl narrowed", narrow, musl, "read of the shared library " + libc + " (the program could not load)"},
		{"default list", DefaultReadDirs, glibc, ""},
		{"missing library", narrow, "x: error while loading shared libraries: libnowhere-mcp.so.9: cannot open shared object file: No such file or directory\n", ""},
		{"a path", narrow, "x: error while loading shared libraries: /opt/l/libx.so: cannot open shared object file: No such file or directory\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			ds := LibraryDenials(tc.readDirs, []byte(tc.stderr))
			for _, d := range ds {
				got = append(got, d.String())
			}
			if g := strings.Join(got, "; "); g != tc.want {
				t.Fatalf("GuessCallDenials = %q, want %q", g, tc.want)
			}
			if len(ds) == 0 {
				return
			}
			h := Hint(ds, tc.readDirs)
			m := strings.Fields(h[strings.Index(h, ReadDirsVar+"="):])[0]
			value := strings.Split(strings.TrimSuffix(strings.TrimPrefix(m, ReadDirsVar+"="), ";"), ",")
			if !strings.HasPrefix(strings.Join(value, ","), strings.Join(tc.readDirs, ",")+",") {
				t.Errorf("the hint's value %q does not keep the list %q: %s", value, tc.readDirs, h)
			}
			if !covered(value, libc) || len(LoaderDirsOutside(value)) != 0 {
				t.Errorf("the hint's value %q still leaves out the library or the loader: %s", value, h)
			}
			if !strings.Contains(h, "a guess") {
				t.Errorf("the hint does not say it is a guess: %s", h)
			}
		})
	}
}

// TestHintReadValue: a read hint gives the list plus the denied
// directory (the target's own when it is one, else its parent; DIR
// when the message names no absolute path), never the bare directory.
func TestHintReadValue(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	list := []string{"/usr", "/etc"}
	for _, tc := range []struct {
		d    Denial
		want string
	}{
		{Denial{Kind: DeniedRead, Target: dir, Guess: true}, "MCP_SHELL_SANDBOX_READ_DIRS=/usr,/etc," + dir},
		{Denial{Kind: DeniedRead, Target: file, Guess: true}, "MCP_SHELL_SANDBOX_READ_DIRS=/usr,/etc," + dir},
		{Denial{Kind: DeniedAccess, Target: "rel/x", Guess: true}, "MCP_SHELL_SANDBOX_READ_DIRS=/usr,/etc,DIR"},
	} {
		if h := Hint([]Denial{tc.d}, list); !strings.Contains(h, tc.want+";") {
			t.Errorf("Hint(%+v) = %q, lacks %q", tc.d, h, tc.want)
		}
	}
	// A write names the write setting, not the read one.
	h := Hint([]Denial{{Kind: DeniedWrite, Target: "/tmp/devday/tgt", Guess: true}}, list)
	if strings.Contains(h, ReadDirsVar) || !strings.Contains(h, "MCP_SHELL_ALLOWED_DIRECTORIES") {
		t.Errorf("a write's hint %q", h)
	}
}
