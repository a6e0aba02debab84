//go:build darwin || linux

// Launches POSIX programs through the launcher: Linux and macOS (Landlock parts skip off Linux).

package sandbox

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fixture is a working directory (writable under the sandbox), a private
// temporary directory, and an "outside" directory that is neither, with
// a secret file in it.
type fixture struct {
	work, tmp, outside string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	f := fixture{work: t.TempDir(), tmp: t.TempDir(), outside: t.TempDir()}
	writeFile(t, filepath.Join(f.work, "in.txt"), "DATA\n", 0o644)
	writeFile(t, filepath.Join(f.outside, "secret"), "SECRET\n", 0o644)
	writeFile(t, filepath.Join(f.outside, "existing"), "KEEP\n", 0o644)
	return f
}

// landlock returns a call confined to f.work and f.tmp under the network
// policy, with sh (the harness of some rows) allowed to run programs.
func (f fixture) landlock(t *testing.T, network string, reexec bool) call {
	t.Helper()
	requireLandlock(t)
	l := newLauncherMethod(t, Config{Mode: ModeLandlock, WriteDirs: []string{f.work}, Network: network, Limits: DefaultLimits(), Exec: shAny}, reexec)
	// These tests prove the Landlock layer alone: where the mounts outside
	// the writable trees are read-only too (a root server), a write there
	// would fail with EROFS before Landlock is asked. TestReadOnlyMounts
	// proves that layer.
	l.readOnly = false
	return call{l: l, dir: f.work, extra: []string{f.tmp}, env: []string{testPath, "TMPDIR=" + f.tmp}}
}

// TestLandlockFilesystem runs real programs under the ruleset: system
// files are readable, the working and temporary directories writable, and
// every write outside them fails with EACCES, also through a program's
// own operand.
func TestLandlockFilesystem(t *testing.T) {
	for _, m := range methods {
		t.Run(m.name, func(t *testing.T) { testLandlockFilesystem(t, m.reexec) })
	}
}

func testLandlockFilesystem(t *testing.T, reexec bool) {
	f := newFixture(t)
	c := f.landlock(t, NetworkDeny, reexec)
	out := func(name string) string { return filepath.Join(f.outside, name) }
	hostname, err := os.ReadFile("/etc/hostname")
	if err != nil {
		t.Skipf("no /etc/hostname: %v", err)
	}
	tests := []struct {
		name    string
		argv    []string
		stdin   string
		ok      bool
		stdout  string
		created string // must exist afterwards (relative to work) when ok
		absent  string // must not exist afterwards
		intact  string // outside file that must keep "KEEP\n"
	}{
		{name: "cat /etc/hostname", argv: []string{"cat", "/etc/hostname"}, ok: true, stdout: string(hostname)},
		{name: "cp inside", argv: []string{"cp", "in.txt", "copy.txt"}, ok: true, created: "copy.txt"},
		{name: "mv and ln inside", argv: []string{"sh", "-c", "cp in.txt m && mkdir d && mv m d/moved && ln -s d/moved link && cat link"}, ok: true, stdout: "DATA\n"},
		{name: "write to TMPDIR", argv: []string{"sh", "-c", `echo hi > "$TMPDIR/x" && cat "$TMPDIR/x"`}, ok: true, stdout: "hi\n"},
		{name: "/dev/null", argv: []string{"sh", "-c", "echo x > /dev/null && head -c 3 /dev/zero | wc -c"}, ok: true, stdout: "3\n"},
		{name: "cp to outside", argv: []string{"cp", "in.txt", out("x")}, absent: out("x")},
		{name: "tee to outside", argv: []string{"tee", out("x")}, stdin: "DATA", absent: out("x")},
		{name: "dd of= outside", argv: []string{"dd", "if=in.txt", "of=" + out("x")}, absent: out("x")},
		{name: "overwrite outside", argv: []string{"cp", "in.txt", out("existing")}, intact: "existing"},
		{name: "truncate outside", argv: []string{"truncate", "-s", "0", out("existing")}, intact: "existing"},
		{name: "remove outside", argv: []string{"rm", "-f", out("existing")}, intact: "existing"},
		{name: "mkdir outside", argv: []string{"mkdir", out("d")}, absent: out("d")},
		{name: "symlink escape", argv: []string{"sh", "-c", "ln -s " + f.outside + " esc && echo x > esc/x"}, absent: out("x")},
		{name: "read outside", argv: []string{"cat", out("secret")}},
		{name: "list outside", argv: []string{"ls", f.outside}},
		{name: "write next to the working directory", argv: []string{"sh", "-c", "echo x > ../sibling"}, absent: filepath.Join(filepath.Dir(f.work), "sibling")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := c
			c.stdin = tt.stdin
			o := c.run(t, tt.argv...)
			if o.startErr != nil {
				t.Fatalf("launch failed: %v", o.startErr)
			}
			if tt.ok {
				if o.exit != 0 || (tt.stdout != "" && o.stdout != tt.stdout) {
					t.Errorf("got %v, want exit 0 with stdout %q", o, tt.stdout)
				}
				if tt.created != "" && !exists(filepath.Join(f.work, tt.created)) {
					t.Errorf("%s was not created", tt.created)
				}
				return
			}
			if o.exit == 0 || !strings.Contains(o.stderr, "ermission denied") {
				t.Errorf("got %v, want a failure with EACCES (Permission denied)", o)
			}
			if strings.Contains(o.stdout, "SECRET") {
				t.Errorf("read the outside file: %v", o)
			}
			if tt.absent != "" && exists(tt.absent) {
				t.Errorf("%s was created outside the writable trees", tt.absent)
			}
			if tt.intact != "" {
				if got := readFile(t, out(tt.intact)); got != "KEEP\n" {
					t.Errorf("outside file changed to %q", got)
				}
			}
		})
	}
}

// TestLandlockNetwork: with the network denied, a TCP connect to a
// loopback listener of the test fails and never reaches it (git clone of
// a loopback URL, and curl); under the family policy curl and git clone
// reach it and other programs do not; with NetworkAllow everything does.
func TestLandlockNetwork(t *testing.T) {
	f := newFixture(t)
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	url := "http://" + ln.Addr().String() + "/repo.git"
	// noConnection checks that no connection reached the listener: a
	// completed handshake sits in the backlog by the time the client exits.
	noConnection := func(t *testing.T) {
		t.Helper()
		ln.(*net.TCPListener).SetDeadline(time.Now())
		if conn, err := ln.Accept(); err == nil {
			conn.Close()
			t.Error("a connection reached the loopback listener")
		}
	}
	// serve answers one HTTP request and reports whether one arrived.
	serve := func() <-chan error {
		accepted := make(chan error, 1)
		go func() {
			ln.(*net.TCPListener).SetDeadline(time.Now().Add(callTimeout))
			conn, err := ln.Accept()
			if err == nil {
				conn.Write([]byte("HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nok\n"))
				conn.Close()
			}
			accepted <- err
		}()
		return accepted
	}
	denied := f.landlock(t, NetworkDeny, false)
	t.Run("git clone denied", func(t *testing.T) {
		requirePrograms(t, "git")
		o := denied.run(t, "git", "clone", "-q", url, "clone")
		if o.exit == 0 || !strings.Contains(strings.ToLower(o.stderr), "permission denied") && !strings.Contains(o.stderr, "Failed to connect") {
			t.Errorf("got %v, want git to fail connecting", o)
		}
		noConnection(t)
	})
	t.Run("curl denied", func(t *testing.T) {
		requirePrograms(t, "curl")
		if o := denied.run(t, "curl", "-sS", "--max-time", "5", url); o.exit == 0 {
			t.Errorf("got %v, want curl to fail", o)
		}
		noConnection(t)
	})
	// Landlock does not see these sockets; the seccomp filter refuses to
	// create them. python3 is only the test's probe.
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	for _, s := range []struct{ name, socket string }{
		{"MPTCP connect", "socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262)"},
		{"SCTP socket", "socket.socket(socket.AF_INET, socket.SOCK_STREAM, 132)"},
		{"raw socket", "socket.socket(socket.AF_INET, socket.SOCK_RAW, 6)"},
		{"IPv6 MPTCP", "socket.socket(socket.AF_INET6, socket.SOCK_STREAM | socket.SOCK_CLOEXEC, 262)"},
		{"plain TCP connect", "socket.socket(socket.AF_INET, socket.SOCK_STREAM, 0)"},
	} {
		t.Run(s.name+" denied", func(t *testing.T) {
			requirePrograms(t, "python3")
			o := denied.run(t, "python3", "-c", "import socket\ns = "+s.socket+"\ns.connect(('127.0.0.1', "+port+"))\nprint('connected')")
			if o.exit == 0 || !strings.Contains(o.stderr, "PermissionError") {
				t.Errorf("got %v, want PermissionError", o)
			}
			noConnection(t)
		})
	}
	t.Run("pathname UNIX socket outside denied", func(t *testing.T) {
		requirePrograms(t, "python3")
		sock := filepath.Join(f.outside, "s.sock")
		uln, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer uln.Close()
		o := denied.run(t, "python3", "-c", "import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect('"+sock+"')\nprint('connected')")
		if o.exit == 0 || !strings.Contains(o.stderr, "PermissionError") {
			t.Errorf("got %v, want PermissionError", o)
		}
	})
	t.Run("unix socketpair created, UDP refused", func(t *testing.T) {
		requirePrograms(t, "python3")
		o := denied.run(t, "python3", "-c", "import socket\nsocket.socketpair()\nprint('pair')\nsocket.socket(socket.AF_INET, socket.SOCK_DGRAM)\nprint('udp')")
		if o.stdout != "pair\n" || !strings.Contains(o.stderr, "PermissionError") {
			t.Errorf("got %v, want socketpair to work and a UDP socket refused", o)
		}
	})
	family := f.landlock(t, NetworkFamily, false)
	t.Run("family: curl allowed", func(t *testing.T) {
		requirePrograms(t, "curl")
		accepted := serve()
		o := family.run(t, "curl", "-sS", "--max-time", "5", url)
		if err := <-accepted; err != nil || o.exit != 0 || o.stdout != "ok\n" {
			t.Errorf("got %v (accept %v), want the response", o, err)
		}
	})
	t.Run("family: git clone reaches the remote", func(t *testing.T) {
		requirePrograms(t, "git")
		accepted := serve()
		o := family.run(t, "git", "clone", "-q", url, "clone2")
		if err := <-accepted; err != nil {
			t.Errorf("no connection arrived (%v): %v", err, o)
		}
	})
	// A network stage's own program makes the raw socket(AF_UNIX) +
	// connect (curl --unix-socket, which the policy refuses; the kernel
	// must too): below ABI 9 nothing would limit which pathname socket
	// it reached (ssh-agent, gpg-agent, the session bus).
	t.Run("family: curl cannot reach a pathname UNIX socket", func(t *testing.T) {
		requirePrograms(t, "curl")
		sock := filepath.Join(f.outside, "agent.sock")
		uln, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer uln.Close()
		reached := make(chan bool, 1)
		go func() {
			c, err := uln.Accept()
			if err == nil {
				c.Close()
			}
			reached <- err == nil
		}()
		o := family.run(t, "curl", "-sS", "--max-time", "5", "--unix-socket", sock, "http://agent/")
		uln.Close() // ends the Accept of a socket nothing reached
		if <-reached || o.exit == 0 {
			t.Errorf("a network stage connected to a UNIX socket outside: %v", o)
		}
	})
	t.Run("family: python3 denied", func(t *testing.T) {
		requirePrograms(t, "python3")
		o := family.run(t, "python3", "-c", "import socket\ns = socket.socket()\ns.connect(('127.0.0.1', "+port+"))")
		if o.exit == 0 || !strings.Contains(o.stderr, "PermissionError") {
			t.Errorf("got %v, want PermissionError", o)
		}
		noConnection(t)
	})
	t.Run("allow: curl allowed", func(t *testing.T) {
		requirePrograms(t, "curl")
		accepted := serve()
		o := f.landlock(t, NetworkAllow, true).run(t, "curl", "-sS", "--max-time", "5", url)
		if err := <-accepted; err != nil || o.exit != 0 || o.stdout != "ok\n" {
			t.Errorf("got %v (accept %v), want the response", o, err)
		}
	})
}

// TestEnvAndArgv: the target sees exactly the given environment and its
// own argv (argv[0] as given), nothing of the launcher's configuration,
// and not the re-executed launcher's status descriptor.
func TestEnvAndArgv(t *testing.T) {
	work := t.TempDir()
	for _, mode := range []string{ModeOff, ModeLimits, ModeLandlock} {
		for _, m := range methods {
			t.Run(mode+"/"+m.name, func(t *testing.T) {
				if mode == ModeLandlock {
					requireLandlock(t)
				}
				c := call{l: newLauncherMethod(t, Config{Mode: mode, WriteDirs: []string{work}, Limits: DefaultLimits()}, m.reexec), dir: work,
					env: []string{testPath, "A=1", "EMPTY=", "A=2"}}
				if o := c.run(t, "env"); o.stdout != testPath+"\nA=1\nEMPTY=\nA=2\n" {
					t.Errorf("env printed %q", o.stdout)
				}
				o := c.run(t, "sh", "-c", `echo "$0"; if [ -e /proc/self/fd/3 ] || [ -e /proc/$$/fd/3 ]; then echo fd3 open; fi`, "my-argv0")
				if o.stdout != "my-argv0\n" {
					t.Errorf("got %v, want argv[0] my-argv0 and fd 3 closed", o)
				}
			})
		}
	}
	t.Run("cmdline", func(t *testing.T) {
		for _, m := range methods {
			c := call{l: newLauncherMethod(t, Config{Mode: ModeLimits}, m.reexec), dir: work}
			if o := c.run(t, "cat", "/proc/self/cmdline"); o.stdout != "cat\x00/proc/self/cmdline\x00" {
				t.Errorf("%s: cmdline %q, want exactly the target argv", m.name, o.stdout)
			}
		}
	})
}

// TestLaunchFailures: failures before the target runs are a *StartError
// with the errno, and the target does not run.
func TestLaunchFailures(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "badexec")
	writeFile(t, bad, "\x00\x01 not an executable format", 0o755)
	noexec := filepath.Join(dir, "noexec")
	writeFile(t, noexec, "#!/bin/sh\necho ran\n", 0o644)
	for _, mode := range []string{ModeOff, ModeLimits, ModeLandlock} {
		for _, m := range methods {
			t.Run(mode+"/"+m.name, func(t *testing.T) {
				if mode == ModeLandlock {
					requireLandlock(t)
				}
				l := newLauncherMethod(t, Config{Mode: mode, WriteDirs: []string{dir}, Limits: DefaultLimits()}, m.reexec)
				for _, tt := range []struct {
					argv  []string
					errno error
				}{
					{[]string{bad}, syscall.ENOEXEC},
					{[]string{noexec}, fs.ErrPermission},
					{[]string{filepath.Join(dir, "missing")}, fs.ErrNotExist},
				} {
					o := call{l: l, dir: dir}.run(t, tt.argv...)
					var se *StartError
					if !errors.As(o.startErr, &se) || se.Step != "exec" || !errors.Is(o.startErr, tt.errno) {
						t.Errorf("%s: %v (%T), want a StartError at step exec wrapping %v", tt.argv[0], o.startErr, o.startErr, tt.errno)
					}
				}
			})
		}
	}
}

// TestLauncherRefusals: the re-executed launcher refuses a bad
// configuration on its status pipe (step, errno), and runs nothing.
func TestLauncherRefusals(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, config, step string
	}{
		{"bad config", "{not json", "config"},
		{"unknown mode", `{"mode":"chroot"}`, "config"},
		{"landlock ABI 0", `{"mode":"landlock","policy":{"abi":0}}`, "landlock"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			cmd := exec.Command(self, LauncherArg, tt.config, separator, "/bin/echo", "echo", "ran")
			cmd.ExtraFiles = []*os.File{w}
			out, runErr := cmd.Output()
			w.Close()
			var se *StartError
			if err := ReadStatus(r); !errors.As(err, &se) || se.Step != tt.step {
				t.Errorf("status %v, want a StartError at step %q", err, tt.step)
			}
			var ee *exec.ExitError
			if !errors.As(runErr, &ee) || ee.ExitCode() != launchExitCode || strings.Contains(string(out), "ran") {
				t.Errorf("exit %v output %q, want %d without running the target", runErr, out, launchExitCode)
			}
		})
	}
}

// TestLimits checks the rlimits and no_new_privs the target inherits in
// mode limits, through both start methods.
func TestLimits(t *testing.T) {
	work := t.TempDir()
	lim := Limits{CPUSeconds: 7, ASBytes: 8 << 30, NProc: 4096, FSizeBytes: 1 << 20, NoFile: 64}
	for _, m := range methods {
		t.Run(m.name, func(t *testing.T) {
			c := call{l: newLauncherMethod(t, Config{Mode: ModeLimits, Limits: lim}, m.reexec), dir: work}
			o := c.run(t, "sh", "-c", "ulimit -t; ulimit -v; ulimit -n; ulimit -f; grep NoNewPrivs /proc/self/status")
			// dash reports -v and -f in KiB and 512-byte blocks.
			want := "7\n" + strconv.Itoa(8<<20) + "\n64\n" + strconv.Itoa(1<<20/512) + "\nNoNewPrivs:\t1\n"
			if o.stdout != want {
				t.Errorf("limits seen by the target:\n%s\nwant\n%s", o.stdout, want)
			}
			if o := c.run(t, "sh", "-c", "ulimit -n 65"); o.exit == 0 {
				t.Errorf("raising NOFILE succeeded: %v", o)
			}
		})
	}
	t.Run("inherit when zero", func(t *testing.T) {
		var cur syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &cur); err != nil || cur.Cur != ^uint64(0) {
			t.Skip("the test's own RLIMIT_FSIZE is not unlimited")
		}
		c := call{l: newLauncher(t, Config{Mode: ModeLimits}), dir: work}
		if o := c.run(t, "sh", "-c", "ulimit -f"); o.stdout != "unlimited\n" {
			t.Errorf("ulimit -f = %q, want unlimited", o.stdout)
		}
	})
}

// TestFileSizeLimit: a write past FSizeBytes is stopped by SIGXFSZ and the
// file stays at the limit.
func TestFileSizeLimit(t *testing.T) {
	work := t.TempDir()
	for _, mode := range []string{ModeLimits, ModeLandlock} {
		for _, m := range methods {
			t.Run(mode+"/"+m.name, func(t *testing.T) {
				if mode == ModeLandlock {
					requireLandlock(t)
				}
				c := call{l: newLauncherMethod(t, Config{Mode: mode, WriteDirs: []string{work}, Limits: Limits{FSizeBytes: 1 << 20}}, m.reexec), dir: work}
				name := "big-" + mode + "-" + m.name
				o := c.run(t, "dd", "if=/dev/zero", "of="+name, "bs=64k", "count=1024")
				fi, err := os.Stat(filepath.Join(work, name))
				if o.signal != syscall.SIGXFSZ || err != nil || fi.Size() > 1<<20 {
					t.Errorf("got %v, file %v %v; want SIGXFSZ and at most 1 MiB written", o, fi, err)
				}
			})
		}
	}
}

// TestLandlockEveryday: everyday commands of a coding agent keep working
// under the default configuration (mode auto, network by family), with
// the server's default child environment, which has no HOME.
func TestLandlockEveryday(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	origin := t.TempDir()
	for _, m := range methods {
		t.Run(m.name, func(t *testing.T) {
			work := t.TempDir()
			writeFile(t, filepath.Join(work, "in.txt"), "b\na\n", 0o644)
			l := newLauncherMethod(t, Config{Mode: ModeAuto, WriteDirs: []string{work, origin}, Limits: DefaultLimits()}, m.reexec)
			c := call{l: l, dir: work, extra: []string{f.tmp}, env: []string{testPath, "TMPDIR=" + f.tmp}}
			for _, argv := range [][]string{
				{"git", "init", "-q", "."},
				{"git", "-c", "user.name=a", "-c", "user.email=a@example.com", "commit", "-q", "--allow-empty", "-m", "x"},
				{"git", "status", "--short"},
				{"git", "log", "--oneline"},
				{"git", "clone", "-q", ".", filepath.Join(origin, m.name)},
				{"sort", "-u", "in.txt"},
				{"tar", "-czf", "a.tgz", "in.txt"},
				{"tar", "-tzf", "a.tgz"},
				{"tar", "-cJf", "a.txz", "in.txt"},
				{"tar", "-xJf", "a.txz", "-O"},
				{"grep", "-r", "a", "."},
				{"gawk", "{print NR\": \"$0}", "in.txt"},
				{"ls", "-la", "/usr/bin/env"},
				{"date"},
			} {
				t.Run(strings.Join(argv[:min(2, len(argv))], " "), func(t *testing.T) {
					requirePrograms(t, argv[0])
					if o := c.run(t, argv...); o.exit != 0 || o.startErr != nil {
						t.Errorf("%q: %v", argv, o)
					}
				})
			}
		})
	}
}

// TestMethod: where ptrace works (here the test runs as root without
// Yama), stages start from a restricted thread, not through the
// re-executed launcher.
func TestMethod(t *testing.T) {
	l := newLauncher(t, Config{Mode: ModeLimits, Limits: DefaultLimits()})
	if got := l.Method(); got != "thread" && traceWorks() {
		t.Errorf("Method = %q, want thread", got)
	}
	if got := newLauncher(t, Config{}).Method(); got != "direct" {
		t.Errorf("mode off: Method = %q, want direct", got)
	}
}

// TestAgentsOfNetworkStages: git's ssh transport keeps ssh-agent under a
// fetching subcommand, while npm install, pip download and curl, which
// have the network and no agents, get no socket at all.
func TestAgentsOfNetworkStages(t *testing.T) {
	requireLandlock(t)
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	work, home := t.TempDir(), t.TempDir()
	l := newLauncher(t, Config{Mode: ModeAuto, WriteDirs: []string{work}, Limits: DefaultLimits()})
	env := []string{testPath, "HOME=" + home, "SSH_AUTH_SOCK=" + sock}
	for _, tc := range []struct {
		argv  []string
		agent bool
	}{
		{[]string{"git", "fetch", "origin"}, true},
		{[]string{"git", "clone", "ssh://h/r"}, true},
		{[]string{"git", "status"}, false},
		{[]string{"npm", "install"}, false},
		{[]string{"pip", "download", "x"}, false},
		{[]string{"curl", "https://example.invalid/"}, false},
	} {
		t.Run(strings.Join(tc.argv, " "), func(t *testing.T) {
			conf := stageOf(t, l.Rules, work, env, nil, tc.argv...).Confinement
			if got := slices.Contains(conf.Sockets, sock); got != tc.agent {
				t.Errorf("ssh-agent's socket granted: %v, want %v (%+v)", got, tc.agent, conf)
			}
			if !tc.agent && len(conf.Sockets) > 0 {
				t.Errorf("sockets granted: %q", conf.Sockets)
			}
		})
	}
}
