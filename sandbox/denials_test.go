package sandbox

import (
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// The messages are the real programs' (dash 0.5.12, GNU coreutils 9.1,
// git 2.39, Go 1.26's os/exec and net, GNU make 4.3, curl 7.88).
func TestGuessDenials(t *testing.T) {
	for _, tc := range []struct {
		stderr string
		want   string // the denials' String, joined by "; "
	}{
		{"sh: 1: cannot create /etc/x: Permission denied\n", "write to /etc/x"},
		{"touch: cannot touch '/opt/y': Permission denied\n", "write to /opt/y"},
		{"fork/exec /bin/sh: permission denied\n", "exec of /bin/sh"},
		{"sh: 1: /usr/bin/cc1: Permission denied\n", "exec of /usr/bin/cc1"},
		{"make: /bin/sh: Permission denied\nmake: *** [Makefile:2: all] Error 127\n", "exec of /bin/sh"},
		{"warning: unable to access '/home/u/.gitconfig': Permission denied\nfatal: unable to access '/home/u/.gitconfig': Permission denied\n", "read of /home/u/.gitconfig"},
		{"dial tcp 127.0.0.1:8080: connect: permission denied\n", "TCP to 127.0.0.1:8080"},
		{"go: example.com/m@v1: Get \"https://proxy.golang.org/x\": dial tcp [2a00::1]:443: connect: permission denied\n", "TCP to [2a00::1]:443"},
		{"open /root/go/pkg/mod/cache/lock: permission denied\n", "write to /root/go/pkg/mod/cache/lock"},
		{"cat: /srv/data: Permission denied\n", "access to /srv/data"},
		{"/bin/sh: 1: cannot create ../../canary.txt: Read-only file system\n", "write to ../../canary.txt"},
		{"touch: setting times of '/etc/passwd': Read-only file system\n", "write to /etc/passwd"},
		{"error: something else\n", ""},
		{"x: Operation not permitted\nx: Operation not permitted\n", "access to a file"},
		// Without the argv tar's "Cannot open" stays a read: it is one
		// when tar creates (a member) or extracts (the archive).
		{"tar: src/a.txt: Cannot open: Permission denied\n", "read of src/a.txt"},
		{"tar: src: Cannot mkdir: Permission denied\n", "write to src"},
		// unzip 6.00 prints strerror on the line below the file.
		{"checkdir error:  cannot create ro/src\n                 Permission denied\n                 unable to process src/.\n", "write to a file"},
		{"error:  cannot create /t/src/a.txt\n        Permission denied\n", "write to /t/src/a.txt"},
		{"cp: cannot create regular file 'ro/a.txt': Permission denied\n", "write to ro/a.txt"},
		{"cp: cannot create directory 'ro/src': Permission denied\n", "write to ro/src"},
		{"cp: cannot open 'src/a.txt' for reading: Permission denied\n", "read of src/a.txt"},
		{"mkdir: cannot create directory ‘ro/x’: Permission denied\n", "write to ro/x"},
		{"fatal: could not create work tree dir 'ro/g': Permission denied\n", "write to ro/g"},
		{"fatal: cannot mkdir ro/g2: Permission denied\n", "write to a file"},
		{"error: unable to create file a.txt: Permission denied\n", "write to a file"},
		{"fatal: could not open '/t/.git/COMMIT_EDITMSG' for writing: Permission denied\n", "write to /t/.git/COMMIT_EDITMSG"},
	} {
		var got []string
		for _, d := range GuessDenials([]byte(tc.stderr)) {
			if !d.Guess {
				t.Errorf("%q: a denial read from stderr is not marked a guess", tc.stderr)
			}
			got = append(got, d.String())
		}
		if g := strings.Join(got, "; "); g != tc.want {
			t.Errorf("GuessDenials(%q) = %q, want %q", tc.stderr, g, tc.want)
		}
	}
}

// TestGuessCallDenials: the stage's argv settles the direction of tar's
// "Cannot open" (the messages are GNU tar 1.34's, run as uid 65534 into
// a directory it may not write, and under Landlock outside the allowed
// directory).
func TestGuessCallDenials(t *testing.T) {
	tar := func(argv ...string) *plan.Call {
		return &plan.Call{Stages: []plan.Stage{{Argv: append([]string{"tar"}, argv...)}}}
	}
	for _, tc := range []struct {
		p      *plan.Call
		stderr string
		want   string
	}{
		{tar("-xzf", "src.tar.gz", "-C", "/tmp/devday/tgt"), "tar: /tmp/devday/tgt: Cannot open: Permission denied\ntar: Error is not recoverable: exiting now\n", "write to /tmp/devday/tgt"},
		{tar("-xzf", "s.tgz", "-C", "ro2"), "tar: src/a.txt: Cannot open: Permission denied\ntar: src: Cannot utime: Operation not permitted\n", "write to src/a.txt; write to src"},
		{tar("xzf", "s.tgz", "--directory=/t"), "tar: src/a.txt: Cannot open: Permission denied\n", "write to src/a.txt"},
		{tar("--extract", "--file", "s.tgz"), "tar: src/a.txt: Cannot open: Permission denied\n", "write to src/a.txt"},
		{tar("--ext", "-f", "s.tgz"), "tar: src/a.txt: Cannot change mode to rwxr-xr-x: Operation not permitted\n", "write to src/a.txt"},
		// The archive extraction reads.
		{tar("-xzf", "s.tgz"), "tar: s.tgz: Cannot open: Permission denied\n", "read of s.tgz"},
		// Creating, a member is read and the archive written.
		{tar("-czf", "/t/o.tgz", "src"), "tar (child): /t/o.tgz: Cannot open: Permission denied\ntar: src/a.txt: Cannot open: Permission denied\n", "write to /t/o.tgz; read of src/a.txt"},
		{tar("--create", "--file=/t/x.tar", "src"), "tar: /t/x.tar: Cannot open: Permission denied\n", "write to /t/x.tar"},
		{tar("-tf", "s.tar"), "tar: s.tar: Cannot open: Permission denied\n", "read of s.tar"},
		// Another program's "cannot open" is not tar's.
		{tar("-xf", "s.tar"), "cat: x: Cannot open: Permission denied\n", "read of a file"},
	} {
		var got []string
		for _, d := range GuessCallDenials(tc.p, []byte(tc.stderr)) {
			got = append(got, d.String())
		}
		if g := strings.Join(got, "; "); g != tc.want {
			t.Errorf("%q: GuessCallDenials(%q) = %q, want %q", tc.p.Stages[0].Argv, tc.stderr, g, tc.want)
		}
	}
}

func TestGuessDenialsCapped(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		b.WriteString("sh: 1: cannot create /x" + strings.Repeat("y", i) + ": Permission denied\n")
	}
	if n := len(GuessDenials([]byte(b.String()))); n != MaxDenials {
		t.Errorf("%d denials, want the cap %d", n, MaxDenials)
	}
}

// TestGuessDenialsTargetBound: a "path" longer than any a system call
// takes is words a stage printed, not a file it was denied: the denial
// names no target, so the hint does not carry a stderr's worth (a
// recipe printing 300 KB before ": Permission denied" made a 300 KB
// hint past the text limit, and a READ_DIRS suggestion of "/").
func TestGuessDenialsTargetBound(t *testing.T) {
	for _, tc := range []struct {
		name, target string
		want         string
	}{
		{"PATH_MAX's longest", "/" + strings.Repeat("a", pathMax-2), "/" + strings.Repeat("a", pathMax-2)},
		{"one past", "/" + strings.Repeat("a", pathMax-1), ""},
		{"a stderr's worth", "/" + strings.Repeat("a", 300000), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := GuessDenials([]byte(tc.target + ": Permission denied\n"))
			if len(ds) != 1 || ds[0].Target != tc.want {
				t.Fatalf("denials %d, target of %d bytes, want one of %d", len(ds), len(ds[0].Target), len(tc.want))
			}
			if h := Hint(ds, nil); len(h) > 2*pathMax+1024 {
				t.Errorf("hint of %d bytes", len(h))
			}
		})
	}
}

func TestHint(t *testing.T) {
	if Hint(nil, nil) != "" {
		t.Error("a hint without denials")
	}
	h := Hint([]Denial{{Kind: DeniedExec, Target: "/bin/sh", Guess: true}, {Kind: DeniedConnect, Target: "1.2.3.4:80", Guess: true}}, DefaultReadDirs)
	for _, want := range []string{"a guess", "exec of /bin/sh", "TCP to 1.2.3.4:80", "MCP_SHELL_SANDBOX_EXEC", "MCP_SHELL_SANDBOX_NETWORK", "MCP_SHELL_SANDBOX=off"} {
		if !strings.Contains(h, want) {
			t.Errorf("hint %q lacks %q", h, want)
		}
	}
	if strings.Contains(h, "\n") {
		t.Errorf("hint %q is more than one line", h)
	}
	if h := Hint([]Denial{{Kind: DeniedWrite, Target: "/x"}}, DefaultReadDirs); strings.Contains(h, "guess") {
		t.Errorf("a kernel-reported denial's hint says guess: %q", h)
	}
}

// FuzzGuessDenials: any stderr yields at most MaxDenials guesses of a
// known kind, each once.
func FuzzGuessDenials(f *testing.F) {
	f.Add([]byte("sh: 1: cannot create /etc/x: Permission denied\n"))
	f.Add([]byte("dial tcp 127.0.0.1:1: connect: permission denied"))
	f.Add([]byte("\xff: EACCES\n\n: EPERM"))
	f.Fuzz(func(t *testing.T, stderr []byte) {
		ds := GuessDenials(stderr)
		if len(ds) > MaxDenials {
			t.Fatalf("%d denials", len(ds))
		}
		for i, d := range ds {
			switch d.Kind {
			case DeniedExec, DeniedWrite, DeniedRead, DeniedConnect, DeniedAccess:
			default:
				t.Fatalf("kind %q", d.Kind)
			}
			if !d.Guess || containsDenial(ds[:i], d) {
				t.Fatalf("denial %d %+v of %+v", i, d, ds)
			}
		}
		if h := Hint(ds, DefaultReadDirs); strings.Contains(h, "\n") && !strings.ContainsAny(string(stderr), "\n") {
			t.Fatalf("hint of two lines: %q", h)
		}
	})
}
