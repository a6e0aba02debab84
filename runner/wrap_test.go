//go:build darwin || linux

// Runs POSIX programs (coreutils, findutils, curl, openssl) through the runner and the
// policy: Linux and macOS.

package runner

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// wrapPolicy is the policy the wrapper tests run with: the default
// sandbox (proofLauncher) with work as the allowed directory.
func wrapPolicy(t *testing.T, work string, commands ...string) (*policy.Policy, *sandbox.Launcher) {
	t.Helper()
	l := proofLauncher(t, work, t.TempDir())
	p := policy.FromSettings(policy.Settings{Commands: commands, AllowedDirs: []string{work},
		ChildEnv: childenv.Config{SafePath: "/usr/bin:/bin"}}, policy.Sandbox{Rules: l.Rules, TempDirs: l})
	return p, l
}

// runDecided judges argv with p and runs the plan through l.
func runDecided(t *testing.T, p *policy.Policy, l *sandbox.Launcher, argv ...string) Result {
	t.Helper()
	call, err := p.Decide(policy.Request{Argv: argv})
	if err != nil {
		t.Fatalf("%q refused: %v", argv, err)
	}
	defer call.Close()
	r, err := Run(t.Context(), Spec{Plan: call, Sandbox: l, Timeout: 20 * time.Second, OutputLimit: 1 << 20, KillGrace: grace})
	if err != nil {
		t.Fatalf("Run %q: %v", argv, err)
	}
	return r
}

// TestWrapperStageProfile: a wrapper's stage runs confined as the program
// it wraps: timeout 5 curl reaches a loopback listener (curl's family
// has the network), timeout 5 openssl s_client does not (openssl's has
// none: the socket is refused, as for openssl alone), timeout 5 cat reads
// its file. The listener proves it sees connections (curl's).
func TestWrapperStageProfile(t *testing.T) {
	requireLandlock(t)
	tempRoot(t)
	requirePrograms(t, "timeout", "curl", "cat", "openssl")
	work := realDir(t, t.TempDir())
	if err := os.WriteFile(filepath.Join(work, "in.txt"), []byte("canary\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var accepted atomic.Int32
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			conn.Write([]byte("HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nok\n"))
			conn.Close()
		}
	}()
	addr := ln.Addr().String()
	p, l := wrapPolicy(t, work, "timeout", "curl", "cat", "openssl")

	call, err := p.Decide(policy.Request{Argv: []string{"timeout", "5", "curl", "-s", "http://" + addr + "/"}})
	if err != nil {
		t.Fatal(err)
	}
	st := call.Stages[0]
	call.Close()
	if !st.Confinement.Network || st.Wrapped == nil || st.Wrapped.Family != "curl" || !slices.Contains(st.Confinement.Exec, st.Program.Real) {
		t.Fatalf("timeout 5 curl: confinement %+v, wrapped %v", st.Confinement, st.Wrapped)
	}
	if st.Argv[2] != st.Wrapped.Program.Found || !filepath.IsAbs(st.Argv[2]) {
		t.Errorf("timeout runs %q, not the resolved %q", st.Argv[2], st.Wrapped.Program.Found)
	}
	r := runDecided(t, p, l, "timeout", "5", "curl", "-s", "http://"+addr+"/")
	if r.Outcome != Success || string(r.Stdout) != "ok\n" || accepted.Load() != 1 {
		t.Fatalf("timeout 5 curl: %s stdout %q stderr %q, %d connections", summary(r), r.Stdout, r.Stderr, accepted.Load())
	}

	for _, argv := range [][]string{
		{"openssl", "s_client", "-connect", addr},
		{"timeout", "5", "openssl", "s_client", "-connect", addr},
	} {
		call, err := p.Decide(policy.Request{Argv: argv})
		if err != nil {
			t.Fatal(err)
		}
		net := call.Stages[0].Confinement.Network
		call.Close()
		r := runDecided(t, p, l, argv...)
		if net || bytes.Contains(r.Stdout, []byte("CONNECTED")) || !denial(r.Stderr) {
			t.Errorf("%q: network %v, stdout %q stderr %q", argv, net, r.Stdout, r.Stderr)
		}
	}

	r = runDecided(t, p, l, "timeout", "5", "cat", "in.txt")
	if r.Outcome != Success || string(r.Stdout) != "canary\n" {
		t.Errorf("timeout 5 cat: %s stdout %q stderr %q", summary(r), r.Stdout, r.Stderr)
	}
	call, _ = p.Decide(policy.Request{Argv: []string{"timeout", "5", "cat", "in.txt"}})
	if c := call.Stages[0].Confinement; c.Network || c.RunAny {
		t.Errorf("timeout 5 cat: %+v", c)
	}
	call.Close()
}

// TestWrapperAttacks: the wrapper forms of known escapes, run with the
// real programs under the default sandbox, leave the canary untouched:
// each is refused, or runs without the power it asks for.
func TestWrapperAttacks(t *testing.T) {
	requireLandlock(t)
	tempRoot(t)
	requirePrograms(t, "xargs", "find", "timeout", "nice", "env", "stdbuf", "echo", "cat", "rm", "touch")
	work := realDir(t, t.TempDir())
	canary := filepath.Join(work, "canary")
	p, l := wrapPolicy(t, work, "xargs", "find", "timeout", "nice", "env", "stdbuf", "echo", "cat", "rm", "sh", "git", "touch")
	reset := func() {
		if err := os.WriteFile(canary, []byte("intact\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	intact := func(argv []string) {
		b, err := os.ReadFile(canary)
		if err != nil || string(b) != "intact\n" {
			t.Errorf("%q: the canary is %q (%v)", argv, b, err)
		}
	}

	// The oracle sees the harm: find -delete removes the canary.
	reset()
	if r := runDecided(t, p, l, "find", work, "-name", "canary", "-delete"); r.Outcome != Success {
		t.Fatalf("find -delete: %s %q", summary(r), r.Stderr)
	}
	if _, err := os.Stat(canary); err == nil {
		t.Fatal("find -delete left the canary: the oracle cannot see harm")
	}

	refused := [][]string{
		{"echo", "-delete", "|", "xargs", "find", work, "-name", "canary"},
		{"echo", "-exec", "rm", "{}", "+", "|", "xargs", "find", work},
		{"timeout", "5", "sh", "-c", "rm " + canary},
		{"env", "LD_PRELOAD=" + filepath.Join(work, "x.so"), "cat", canary},
		{"env", "-S", "rm " + canary},
		{"echo", "rm", canary, "|", "xargs", "timeout", "5"},
		{"echo", canary, "|", "xargs", "-I{}", "env", "{}", "cat"},
		{"timeout", "5", "nice", "env", "BASH_ENV=" + canary, "cat"},
	}
	for _, argv := range refused {
		reset()
		if call, err := p.Decide(policy.Request{Argv: argv}); err == nil {
			call.Close()
			t.Errorf("%q allowed", argv)
			r := runDecided(t, p, l, argv...)
			t.Logf("it ran: %s %q", summary(r), r.Stderr)
		}
		intact(argv)
	}

	// Allowed, and harmless: a negative niceness needs CAP_SYS_NICE, which
	// no stage has; stdbuf preloads only its own library.
	reset()
	r := runDecided(t, p, l, "nice", "-n", "-5", "cat", canary)
	if r.ExitCode == nil || *r.ExitCode != 0 || string(r.Stdout) != "intact\n" {
		t.Errorf("nice -n -5 cat: %s stdout %q stderr %q", summary(r), r.Stdout, r.Stderr)
	}
	intact([]string{"nice", "-n", "-5"})
	hostile := policy.Request{Argv: []string{"stdbuf", "-oL", "cat", canary}, Envs: map[string]string{"LD_PRELOAD": filepath.Join(work, "x.so")}}
	if call, err := p.Decide(hostile); err == nil {
		call.Close()
		t.Errorf("stdbuf with a per-call LD_PRELOAD allowed")
	}
	r = runDecided(t, p, l, "stdbuf", "-oL", "cat", canary)
	if string(r.Stdout) != "intact\n" || strings.Contains(string(r.Stderr), "cannot be preloaded") {
		t.Errorf("stdbuf -oL cat: %s stdout %q stderr %q", summary(r), r.Stdout, r.Stderr)
	}
	// xargs rm is as allowed as rm: it removes what standard input names,
	// inside the allowed directory.
	reset()
	victim := filepath.Join(work, "victim")
	os.WriteFile(victim, nil, 0o644)
	r = runDecided(t, p, l, "echo", victim, "|", "xargs", "rm")
	if _, err := os.Stat(victim); err == nil || r.Outcome != Success {
		t.Errorf("echo victim | xargs rm: %s %q", summary(r), r.Stderr)
	}
	intact([]string{"xargs", "rm"})
}
