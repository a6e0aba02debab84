//go:build darwin || linux

// Containment against a POSIX fixture (symlinks to /etc, a FIFO, O_NONBLOCK): Linux and macOS.

package redirect

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// fixture builds the redirect fixture of shared/cases/README.md in a fresh
// directory: regular files in.txt and sub/in.txt, directory sub/, symlink
// link_in -> in.txt, symlinks leading outside (link_out -> /etc/hostname,
// dirlink_out -> /etc, dangling_out -> /nonexistent-outside/x), plus a FIFO,
// an executable script, a hard-linked file, and links for the dangling and
// relative-escape cases. outside is a directory next to the fixture that a
// link points into; nothing may ever be created there.
func fixture(t *testing.T) (dir, outside string) {
	t.Helper()
	base := t.TempDir()
	dir = filepath.Join(base, "ws")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{dir, outside, filepath.Join(dir, "sub")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{"in.txt": "top\n", "sub/in.txt": "sub\n", "script.sh": "#!/bin/sh\n", "hard.txt": "h\n"}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, "script.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, "hard.txt"), filepath.Join(outside, "hard.txt")); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"link_in":          "in.txt",
		"link_out":         "/etc/hostname",
		"dirlink_out":      "/etc",
		"dangling_out":     "/nonexistent-outside/x",
		"dangling_in":      "sub/new.txt",
		"dangling_rel_out": "../outside/new.txt",
		"rel_out":          "../outside",
		"sub/up":           "..",
		"loop":             "loop",
	}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := unix.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, outside
}

func TestCheck(t *testing.T) {
	tests := []struct {
		target string
		want   refusal.Code
	}{
		{"out.txt", ""},
		{"sub/out.txt", ""},
		{"sub/./x", ""},
		{"..hidden", ""},
		{"a..b/c..", ""},
		{"~/x", ""},
		{"$HOME", ""},
		{"sub/", ""},
		{".", ""},
		{"", CodeMissingTarget},
		{"a\x00b", CodeNUL},
		{"/etc/passwd", CodeAbsolute},
		{"/", CodeAbsolute},
		{"..", CodeParent},
		{"../x", CodeParent},
		{"sub/../x", CodeParent},
		{"sub/..", CodeParent},
		{"a//../b", CodeParent},
	}
	for _, tt := range tests {
		err := Check(tt.target)
		if got := code(err); got != tt.want {
			t.Errorf("Check(%q) = %q (%v), want %q", tt.target, got, err, tt.want)
		}
		if err != nil && tt.target != "" && !strings.Contains(err.Error(), tt.target) &&
			!strings.Contains(err.Error(), strings.ReplaceAll(tt.target, "\x00", `\x00`)) {
			t.Errorf("Check(%q) message %q does not name the target", tt.target, err)
		}
	}
}

func TestProbe(t *testing.T) {
	dir, outside := fixture(t)
	tests := []struct {
		target string
		output bool
		want   refusal.Code
	}{
		{"in.txt", false, ""},
		{"sub/in.txt", false, ""},
		{"link_in", false, ""},
		{"sub/up/in.txt", false, ""},
		{"missing.txt", false, CodeInput},
		{"sub/missing.txt", false, CodeInput},
		{"sub", false, CodeNotRegular},
		{"fifo", false, CodeNotRegular},
		{"link_out", false, CodeEscape},
		{"dirlink_out/hostname", false, CodeEscape},
		{"dangling_out", false, CodeEscape},
		{"rel_out/x", false, CodeEscape},
		{"/etc/hostname", false, CodeAbsolute},
		{"../in.txt", false, CodeParent},
		{"", false, CodeMissingTarget},
		{"in.txt\x00", false, CodeNUL},

		{"in.txt", true, ""},
		{"new.txt", true, ""},
		{"sub/new.txt", true, ""},
		{"link_in", true, ""},
		{"dangling_in", true, ""},
		{"sub/up/new.txt", true, ""},
		{"nodir/new.txt", true, CodeOutput},
		{"in.txt/x", true, CodeOutput},
		{"sub", true, CodeOutput},
		{"newdir/", true, CodeOutput},
		{"fifo", true, CodeNotRegular},
		{"hard.txt", true, CodeOutput},
		{"loop", true, CodeOutput},
		{"link_out", true, CodeEscape},
		{"dirlink_out/new", true, CodeEscape},
		{"dangling_out", true, CodeEscape},
		{"dangling_rel_out", true, CodeEscape},
		{"rel_out/new.txt", true, CodeEscape},
		{"sub/../new.txt", true, CodeParent},
	}
	for _, tt := range tests {
		err := Probe(pin(t, dir), tt.target, tt.output)
		if got := code(err); got != tt.want {
			t.Errorf("Probe(%q, output=%v) = %q (%v), want %q", tt.target, tt.output, got, err, tt.want)
		}
	}
	assertEmpty(t, outside)
	if _, err := os.Lstat(filepath.Join(dir, "new.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Probe created new.txt: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "in.txt")); string(b) != "top\n" {
		t.Errorf("Probe modified in.txt: %q", b)
	}
}

// TestEscapeDetection pins the os.Root error text that isEscape relies on.
func TestEscapeDetection(t *testing.T) {
	dir, _ := fixture(t)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	_, err = root.Stat("link_out")
	if !isEscape(err) {
		t.Fatalf("os.Root escape error %v not recognised; os.Root changed its error text", err)
	}
}

func TestOpenInput(t *testing.T) {
	dir, _ := fixture(t)
	tests := []struct {
		target string
		want   refusal.Code
		body   string
	}{
		{"in.txt", "", "top\n"},
		{"link_in", "", "top\n"},
		{"sub/in.txt", "", "sub\n"},
		{"fifo", CodeNotRegular, ""},
		{"sub", CodeNotRegular, ""},
		{"missing", CodeInput, ""},
		{"link_out", CodeEscape, ""},
		{"dirlink_out/hostname", CodeEscape, ""},
		{"dangling_out", CodeEscape, ""},
		{"../x", CodeParent, ""},
	}
	for _, tt := range tests {
		f, err := OpenInput(pin(t, dir), tt.target)
		if got := code(err); got != tt.want {
			t.Errorf("OpenInput(%q) = %q (%v), want %q", tt.target, got, err, tt.want)
		}
		if f == nil {
			continue
		}
		assertBlocking(t, f)
		b, err := io.ReadAll(f)
		f.Close()
		if err != nil || string(b) != tt.body {
			t.Errorf("OpenInput(%q) read %q, %v; want %q", tt.target, b, err, tt.body)
		}
	}
}

func TestOpenOutput(t *testing.T) {
	dir, outside := fixture(t)
	tests := []struct {
		target  string
		append  bool
		want    refusal.Code
		wantOut string // content of the file after writing "X"
		file    string // where the content lands, default target
	}{
		{target: "new.txt", wantOut: "X"},
		{target: "in.txt", wantOut: "X"},
		{target: "sub/in.txt", append: true, wantOut: "sub\nX"},
		{target: "link_in", append: true, wantOut: "XX", file: "in.txt"}, // in.txt was truncated to "X" above
		{target: "dangling_in", wantOut: "X", file: "sub/new.txt"},
		{target: "script.sh", wantOut: "X"},
		{target: "fifo", want: CodeNotRegular},
		{target: "sub", want: CodeOutput},
		{target: "hard.txt", want: CodeOutput},
		{target: "nodir/x", want: CodeOutput},
		{target: "link_out", want: CodeEscape},
		{target: "dirlink_out/new", want: CodeEscape},
		{target: "dangling_out", want: CodeEscape},
		{target: "dangling_rel_out", want: CodeEscape},
		{target: "rel_out/new.txt", want: CodeEscape},
		{target: "/tmp/x", want: CodeAbsolute},
	}
	for _, tt := range tests {
		f, err := OpenOutput(pin(t, dir), tt.target, tt.append)
		if got := code(err); got != tt.want {
			t.Errorf("OpenOutput(%q, %v) = %q (%v), want %q", tt.target, tt.append, got, err, tt.want)
		}
		if f == nil {
			continue
		}
		assertBlocking(t, f)
		if _, err := f.WriteString("X"); err != nil {
			t.Errorf("write %q: %v", tt.target, err)
		}
		fi, _ := f.Stat()
		f.Close()
		if fi.Mode()&0o111 != 0 {
			t.Errorf("OpenOutput(%q) left mode %v executable", tt.target, fi.Mode())
		}
		file := tt.file
		if file == "" {
			file = tt.target
		}
		if b, _ := os.ReadFile(filepath.Join(dir, file)); string(b) != tt.wantOut {
			t.Errorf("after OpenOutput(%q): %s holds %q, want %q", tt.target, file, b, tt.wantOut)
		}
	}
	assertEmpty(t, outside)
	if b, _ := os.ReadFile(filepath.Join(dir, "hard.txt")); string(b) != "h\n" {
		t.Errorf("refused hard-linked output was modified: %q", b)
	}
}

// TestOpenFIFOWithReader: even with a reader present, a FIFO is refused
// and the open does not block.
func TestOpenFIFOWithReader(t *testing.T) {
	dir, _ := fixture(t)
	r, err := os.OpenFile(filepath.Join(dir, "fifo"), os.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, app := range []bool{false, true} {
		if _, err := OpenOutput(pin(t, dir), "fifo", app); code(err) != CodeNotRegular {
			t.Errorf("OpenOutput(fifo with reader) = %v, want %s", err, CodeNotRegular)
		}
	}
}

func assertBlocking(t *testing.T, f *os.File) {
	t.Helper()
	fl, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	if err != nil {
		t.Fatal(err)
	}
	if fl&unix.O_NONBLOCK != 0 {
		t.Errorf("%s still has O_NONBLOCK", f.Name())
	}
}

func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "hard.txt" {
			t.Errorf("file created outside the working directory: %s", filepath.Join(dir, e.Name()))
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{"out.txt", "sub/./x", "..hidden", "", "a\x00b", "/abs", "..", "sub/../x", "a//..//b", "\xff\xfe", "./", "..."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		err := Check(target)
		if err == nil {
			// An independent formulation of the rules: no "", NUL, leading
			// "/", or ".." component.
			if target == "" || strings.IndexByte(target, 0) >= 0 || strings.HasPrefix(target, "/") ||
				strings.Contains("/"+target+"/", "/../") {
				t.Fatalf("Check(%q) accepted a refused target", target)
			}
			return
		}
		re := refusal.As(err)
		if re == nil || re.Code == "" || re.Message == "" || re.Arg != target {
			t.Fatalf("Check(%q) returned a malformed error %#v", target, err)
		}
	})
}

// TestOpenOutputSwapRace (bugreport br-26): while "sub" is swapped between
// a real directory and a symlink to a directory outside, every OpenOutput
// either writes inside or fails with an escape; nothing appears outside.
func TestOpenOutputSwapRace(t *testing.T) {
	dir, outside := fixture(t)
	sub, real, link := filepath.Join(dir, "sub"), filepath.Join(dir, "sub.real"), filepath.Join(dir, "sub.link")
	if err := os.Rename(sub, real); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	swapped := make(chan struct{})
	go func() {
		defer close(swapped)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			from := real
			if i%2 == 1 {
				from = link
			}
			// Replace "sub" atomically by a symlink leading inside
			// (sub.real) or outside, alternately.
			tmp := sub + ".tmp"
			_ = os.Remove(tmp)
			if from == link {
				_ = os.Symlink(outside, tmp)
			} else {
				_ = os.Symlink("sub.real", tmp)
			}
			_ = os.Rename(tmp, sub)
		}
	}()
	var opened, refused int
	for range 300 {
		f, err := OpenOutput(pin(t, dir), "sub/out.txt", false)
		if err != nil {
			if c := code(err); c != CodeEscape && c != CodeOutput {
				t.Errorf("unexpected refusal %v", err)
			}
			refused++
			continue
		}
		opened++
		f.Close()
	}
	close(stop)
	<-swapped
	t.Logf("%d opened inside, %d refused", opened, refused)
	assertEmpty(t, outside)
}

// TestGitThroughSymlink: a symlink inside the working directory (a cloned
// repository can carry one) must not carry a ">" into .git.
func TestGitThroughSymlink(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "r", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "r", ".git", "config"), []byte("[core]\n"), 0o644)
	if err := os.Symlink(".git", filepath.Join(dir, "r", "gl")); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"r/gl/config", "r/gl/hooks-new"} {
		if err := Probe(pin(t, dir), target, true); code(err) != CodeGit {
			t.Errorf("Probe(%q) = %v, want %s", target, err, CodeGit)
		}
		f, err := OpenOutput(pin(t, dir), target, false)
		if code(err) != CodeGit {
			t.Errorf("OpenOutput(%q) = %v, want %s", target, err, CodeGit)
		}
		if f != nil {
			f.Close()
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "r", ".git", "config")); string(b) != "[core]\n" {
		t.Errorf(".git/config changed: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "r", ".git", "hooks-new")); err == nil {
		t.Error("a refused open left a file in .git")
	}
	if f, err := OpenOutput(pin(t, dir), "r/notes.txt", false); err != nil {
		t.Errorf("ordinary output refused: %v", err)
	} else {
		f.Close()
	}
}
