//go:build darwin || linux

// Launches POSIX programs through the launcher: Linux and macOS (Landlock parts skip off Linux).

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
)

// TestExecAllowlist: a stage executes only its own program, that
// program's interpreters and its family's helpers. The dynamic loader it
// must be able to execute cannot load a program the stage could not
// execute (ld.so reads its program, so the program directories are
// unreadable to leaf stages), files in the writable trees are not
// executable for leaves, and Config.Exec widens one program.
func TestExecAllowlist(t *testing.T) {
	requireLandlock(t)
	requirePrograms(t, "find", "sh", "tar", "cp")
	ldso := childenv.Interpreters(lookPath(t, "find"), "")
	if len(ldso) != 1 {
		t.Skipf("find is not a dynamically linked ELF program (interpreters %q)", ldso)
	}
	script := "#!/bin/sh\necho \"$0\" ran > ran.txt\nsleep 0\n"
	envScript := "#!/usr/bin/env sh\necho env ran > ran.txt\n"
	tests := []struct {
		name   string
		argv   []string
		exec   map[string][]string
		ok     bool   // exits 0 (find exits 0 when an -exec fails)
		ran    bool   // ran.txt written by a program that should not run (or should)
		stderr string // substring of stderr
	}{
		{name: "find -exec another program", argv: []string{"find", ".", "-maxdepth", "0", "-exec", "sh", "-c", "echo x > ran.txt", ";"}, ok: true, stderr: "'sh': Permission denied"},
		{name: "find -exec widened", argv: []string{"find", ".", "-maxdepth", "0", "-exec", "sh", "-c", "echo x > ran.txt", ";"},
			exec: map[string][]string{"find": {"sh"}}, ok: true, ran: true},
		{name: "find -exec ld.so /bin/sh", argv: []string{"find", ".", "-maxdepth", "0", "-exec", ldso[0], "/bin/sh", "-c", "echo x > ran.txt", ";"},
			ok: true, stderr: "/bin/sh: cannot open shared object file"},
		{name: "ld.so as the program", argv: []string{ldso[0], "/bin/sh", "-c", "echo x > ran.txt"}, stderr: "cannot open shared object file"},
		{name: "ld.so on a program directory's program", argv: []string{ldso[0], "/bin/true"}, stderr: "cannot open shared object file"},
		{name: "copy a shell into the working directory", argv: []string{"cp", "/bin/sh", "mysh"}, stderr: "Permission denied"},
		{name: "leaf executes a file it wrote", argv: []string{"find", "script", "-exec", "./script", ";"}, ok: true, stderr: "'./script': Permission denied"},
		{name: "runner executes a file in the working directory", argv: []string{"find", "script", "-exec", "./script", ";"},
			exec: map[string][]string{"find": {ExecAny}}, ok: true, ran: true},
		{name: "script runs through its #! interpreter", argv: []string{"./script"}, stderr: "sleep: Permission denied", ran: true},
		{name: "script widened", argv: []string{"./script"}, exec: map[string][]string{"./script": {"sleep"}}, ok: true, ran: true},
		{name: "#!/usr/bin/env script", argv: []string{"./envscript"}, ok: true, ran: true},
		{name: "tar compresses through sh", argv: []string{"tar", "-czf", "a.tgz", "script"}, ok: true},
		{name: "tar --to-command runs no other program", argv: []string{"tar", "-xf", "a.tar", "--to-command", "cp /dev/stdin ran.txt"}, stderr: "Permission denied"},
	}
	if _, err := os.Stat("/usr/lib/git-core/git"); err == nil {
		// The documented gap: executables beneath library trees stay
		// readable, so ld.so runs them (confined like the stage itself).
		tests = append(tests, struct {
			name   string
			argv   []string
			exec   map[string][]string
			ok     bool
			ran    bool
			stderr string
		}{name: "ld.so on a program in a library tree (documented gap)", argv: []string{ldso[0], "/usr/lib/git-core/git", "--version"}, ok: true})
	}
	for _, m := range methods {
		for _, tt := range tests {
			t.Run(m.name+"/"+tt.name, func(t *testing.T) {
				work := t.TempDir()
				writeFile(t, filepath.Join(work, "script"), script, 0o755)
				writeFile(t, filepath.Join(work, "envscript"), envScript, 0o755)
				if o := (call{l: newLauncher(t, Config{Mode: ModeOff}), dir: work}).run(t, "tar", "-cf", "a.tar", "script"); o.exit != 0 {
					t.Fatalf("fixture: %v", o)
				}
				l := newLauncherMethod(t, Config{Mode: ModeLandlock, WriteDirs: []string{work}, Limits: DefaultLimits(), Exec: tt.exec}, m.reexec)
				o := call{l: l, dir: work}.run(t, tt.argv...)
				ran := exists(filepath.Join(work, "ran.txt"))
				if o.startErr != nil || (o.exit == 0) != tt.ok || ran != tt.ran || !strings.Contains(o.stderr, tt.stderr) {
					t.Errorf("got %v, ran.txt written %v; want exit 0 %v, ran %v, stderr containing %q", o, ran, tt.ok, tt.ran, tt.stderr)
				}
			})
		}
	}
}

// TestRunnerFamily: make, a family that runs programs, executes its
// recipes' programs and writes in the working directory.
func TestRunnerFamily(t *testing.T) {
	requireLandlock(t)
	requirePrograms(t, "make", "sh", "cat")
	work := t.TempDir()
	writeFile(t, filepath.Join(work, "Makefile"), "all:\n\techo built > out.txt\n\tcat out.txt\n", 0o644)
	l := newLauncher(t, Config{Mode: ModeAuto, WriteDirs: []string{work}, Limits: DefaultLimits()})
	if o := (call{l: l, dir: work}).run(t, "make", "-s"); o.exit != 0 || o.stdout != "built\n" {
		t.Errorf("make: %v", o)
	}
}

// TestCaches: a go stage gets GOCACHE, GOMODCACHE and GOPATH beneath the
// cache root, writable; a variable the operator passes is kept and its
// directory made writable; nothing else of HOME is.
func TestCaches(t *testing.T) {
	requireLandlock(t)
	goPath := "PATH=/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin"
	goBin := lookPathIn(t, "go", strings.TrimPrefix(goPath, "PATH="), "/")
	work, root, home, own := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	l := newLauncher(t, Config{Mode: ModeAuto, WriteDirs: []string{work}, Limits: DefaultLimits(), CacheDir: root})
	env := []string{goPath, "HOME=" + home}
	o := call{l: l, dir: work, env: env}.run(t, "go", "env", "GOCACHE", "GOMODCACHE", "GOPATH")
	want := strings.Join([]string{filepath.Join(root, "go-build"), filepath.Join(root, "go-mod"), filepath.Join(root, "go-path")}, "\n") + "\n"
	if o.exit != 0 || o.stdout != want {
		t.Errorf("go env: %v, want %q", o, want)
	}
	o = call{l: l, dir: work, env: append(env, "GOCACHE="+own)}.run(t, "go", "env", "GOCACHE")
	if o.stdout != own+"\n" {
		t.Errorf("operator's GOCACHE: %v", o)
	}
	for _, d := range []string{"go-build", "go-mod", "go-path"} {
		if fi, err := os.Stat(filepath.Join(root, d)); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("cache %s: %v %v, want a 0700 directory", d, fi, err)
		}
	}
	conf := stageOf(t, l.Rules, work, append(env, "GOCACHE="+own), nil, goBin, "build").Confinement
	for _, w := range conf.Write {
		if w == home {
			t.Errorf("HOME %s is writable", home)
		}
	}
	if !strings.Contains(strings.Join(conf.Write, ","), own) {
		t.Errorf("writable %q lacks the operator's GOCACHE %s", conf.Write, own)
	}
}

// TestHomeConfig: with HOME passed to children, git reads ~/.gitconfig
// (its family's HomeConfig) but nothing else of HOME, and no other
// program reads HOME at all.
func TestHomeConfig(t *testing.T) {
	requireLandlock(t)
	requirePrograms(t, "git", "cat")
	work, home := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".gitconfig"), "[user]\n\tname = From Home\n", 0o644)
	writeFile(t, filepath.Join(home, "secret"), "[user]\n\tname = SECRET\n", 0o644)
	l := newLauncher(t, Config{Mode: ModeAuto, WriteDirs: []string{work}, Limits: DefaultLimits()})
	c := call{l: l, dir: work, env: []string{testPath, "HOME=" + home}}
	if o := c.run(t, "git", "config", "--global", "user.name"); o.exit != 0 || o.stdout != "From Home\n" {
		t.Errorf("git config --global: %v", o)
	}
	for _, argv := range [][]string{{"git", "config", "--file", filepath.Join(home, "secret"), "user.name"}, {"cat", filepath.Join(home, ".gitconfig")}} {
		if o := c.run(t, argv...); o.exit == 0 || strings.Contains(o.stdout, "SECRET") || strings.Contains(o.stdout, "From Home") {
			t.Errorf("%q read HOME: %v", argv, o)
		}
	}
}
