//go:build linux

// The server's process lifetime end to end (cgroup, subreaper, pidfds): Linux only.

package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/proctest"
)

// lifetimeServer is the real binary over stdio, with its start-up line
// about the lifetime mechanism captured.
type lifetimeServer struct {
	e2e
	cmd       *exec.Cmd
	pidfd     int    // of cmd's process: the SDK's transport reaps it, so exits are watched here
	mechanism string // from the start-up line
	pid1      bool
}

// waitExit waits up to timeout for the server process to exit (without
// reaping it: the transport does) and reports whether it did.
func (s *lifetimeServer) waitExit(timeout time.Duration) bool {
	return proctest.WaitExit(s.pidfd, timeout)
}

var lifetimeLine = regexp.MustCompile(`msg="process lifetime" mechanism=(\w+) pid1=(\w+)`)

// startLifetime runs argv (the binary, or a wrapper around it) as an MCP
// server allowing only the proctest helper.
func startLifetime(t *testing.T, helper string, argv ...string) *lifetimeServer {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &lifetimeServer{e2e: e2e{t: t, dir: dir, audit: filepath.Join(t.TempDir(), "audit.jsonl")}}
	s.cmd = exec.Command(argv[0], append(argv[1:], dir)...)
	// The helper forks and writes pid files beside the allowed directory:
	// these tests are about process lifetime, so it runs unconfined (the
	// lifetime of sandboxed stages is covered in runner/).
	s.cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "MCP_SHELL_AUDIT_LOG=" + s.audit, "MCP_SHELL_LOG_LEVEL=info", "ALLOW_COMMANDS=" + helper, "MCP_SHELL_SANDBOX=off"}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s.cmd.Stderr = w
	line := make(chan []string, 1)
	go func() {
		defer r.Close()
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if m := lifetimeLine.FindStringSubmatch(sc.Text()); m != nil {
				line <- m
			}
		}
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: s.cmd, TerminateDuration: 2 * time.Second}, nil)
	w.Close()
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	s.session = session
	if s.pidfd, err = unix.PidfdOpen(s.cmd.Process.Pid, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close(); unix.Close(s.pidfd) })
	select {
	case m := <-line:
		s.mechanism, s.pid1 = m[1], m[2] == "true"
	case <-ctx.Done():
		t.Fatal("no start-up line about the process lifetime")
	}
	return s
}

// TestLifetimeInAuditAndStartup: the start-up line names the mechanism
// and every audit record carries it.
func TestLifetimeInAuditAndStartup(t *testing.T) {
	helper := proctest.Helper(t)
	s := startLifetime(t, helper, binary)
	if s.mechanism != "cgroup" && s.mechanism != "subreaper" && s.mechanism != "session" {
		t.Fatalf("start-up line mechanism %q", s.mechanism)
	}
	s.call(map[string]any{"command": []string{helper, os.DevNull, "say", "hi"}})
	s.call(map[string]any{"command": []string{"rm", "x"}}) // refused
	s.session.Close()
	if !s.waitExit(10 * time.Second) {
		t.Fatal("the server did not exit after stdin EOF")
	}
	recs := s.auditRecords()
	if len(recs) != 2 {
		t.Fatalf("%d audit records, want 2", len(recs))
	}
	for _, r := range recs {
		if r["lifetime"] != s.mechanism {
			t.Errorf("audit record %v: lifetime %v, want %q", r["result_type"], r["lifetime"], s.mechanism)
		}
	}
	t.Logf("figures: start-up line and %d audit records: lifetime=%s", len(recs), s.mechanism)
}

// TestKilledServerLeavesNothing: kill -9 of the real server with 16 calls
// running (a busy server's worth), each a stage with a
// grandchild, half of them setsid: no process is left. Under
// subreaper the setsid ones are killed only once a walk of the call's tree
// has seen them (runner.TestServerKilled checks that deterministically),
// so here only cgroup is held to all of them.
func TestKilledServerLeavesNothing(t *testing.T) {
	helper := proctest.Helper(t)
	s := startLifetime(t, helper, binary)
	col := proctest.NewCollector(t, t.TempDir())
	const calls = 16
	var wg sync.WaitGroup
	for i := range calls {
		grandchild := "spawn [ tag grandchild null-stdio report ready sleep ]"
		if i%2 == 1 {
			grandchild = "spawn [ tag grandchild setsid null-stdio report ready sleep ]"
		}
		argv := append([]string{helper, col.Path}, strings.Fields("tag stage "+grandchild+" report sleep")...)
		wg.Go(func() {
			_, _ = s.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": argv}})
		})
	}
	procs := col.Wait(t, 2*calls, 30*time.Second)
	killed := time.Now()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Every stage must exit: wait as long as a loaded machine may need
	// (the wait ends once they have). Under subreaper grandchildren may
	// survive, so waiting longer for them changes nothing but the time.
	survivors := proctest.Survivors(proctest.Tagged(procs, "stage"), exitWithin)
	within := exitWithin
	if s.mechanism == "subreaper" {
		within = time.Second
	}
	survivors = append(survivors, proctest.Survivors(proctest.Tagged(procs, "grandchild"), within)...)
	gone := time.Since(killed)
	proctest.Kill(survivors)
	s.session.Close()
	wg.Wait()
	var setsidSurvivors int
	for _, p := range survivors {
		if p.Tag == "grandchild" && s.mechanism == "subreaper" {
			setsidSurvivors++
		}
	}
	if len(survivors) > setsidSurvivors {
		t.Errorf("mechanism %s: %d of %d processes survived the server: %v", s.mechanism, len(survivors), len(procs), survivors)
	}
	t.Logf("figures: real server, mechanism=%s, kill -9 with %d calls: %d/%d processes survive after %v", s.mechanism, calls, len(survivors), len(procs), gone.Round(time.Millisecond))
}

// TestPID1NoZombiesE2E: the real server as PID 1 of a PID namespace (a
// container without --init) after 100 calls that each orphan two
// processes: no zombie is left.
func TestPID1NoZombiesE2E(t *testing.T) {
	if err := exec.Command("unshare", "-p", "-f", "--mount-proc", "true").Run(); err != nil {
		proctest.Unavailable(t, "pidns", "unshare -p -f --mount-proc (needs root): %v", err)
	}
	helper := proctest.Helper(t)
	s := startLifetime(t, helper, "unshare", "-p", "-f", "--mount-proc", "--", binary)
	if !s.pid1 {
		t.Fatal("the server under unshare -p does not say pid1=true")
	}
	const calls = 100
	argv := append([]string{helper, os.DevNull}, strings.Fields("spawn [ spawn [ ready wait-parent ] ] spawn [ setsid null-stdio ready sleep ]")...)
	start := time.Now()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for range calls {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			r, err := s.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": argv}})
			if err != nil || r.IsError {
				t.Errorf("call: %v %v", err, r)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	kids, err := os.ReadFile("/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/task/" + strconv.Itoa(s.cmd.Process.Pid) + "/children")
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(kids))
	if len(fields) != 1 {
		t.Fatalf("unshare has children %q, want the server alone", kids)
	}
	server, _ := strconv.Atoi(fields[0])
	zombies, err := proctest.Zombies(server)
	if err != nil {
		t.Fatal(err)
	}
	if len(zombies) > 0 {
		t.Errorf("%d zombies under the server (PID 1) after %d calls: %v", len(zombies), calls, zombies)
	}
	t.Logf("figures: real server as PID 1, mechanism=%s: %d calls in %v, %d zombies", s.mechanism, calls, elapsed.Round(time.Millisecond), len(zombies))
}

// TestShutdownKillsCalls: SIGTERM, SIGINT and stdin EOF each end the
// server with nothing of its calls left behind: two calls run, each a
// stage with a setsid grandchild. How soon the server stops over stdio is
// the fault suite's; here the calls' timeout (2 s) bounds it.
func TestShutdownKillsCalls(t *testing.T) {
	helper := proctest.Helper(t)
	for _, how := range []string{"SIGTERM", "SIGINT", "stdin EOF"} {
		t.Run(how, func(t *testing.T) {
			s := startLifetime(t, helper, binary)
			col := proctest.NewCollector(t, t.TempDir())
			argv := append([]string{helper, col.Path}, strings.Fields("tag stage spawn [ tag grandchild setsid null-stdio report ready sleep ] report sleep")...)
			for range 2 {
				go s.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": argv, "timeout": 2}})
			}
			procs := col.Wait(t, 4, 30*time.Second)
			asked := time.Now()
			switch how {
			case "SIGTERM":
				_ = s.cmd.Process.Signal(syscall.SIGTERM)
			case "SIGINT":
				_ = s.cmd.Process.Signal(syscall.SIGINT)
			default:
				s.session.Close() // closes the server's stdin
			}
			if !s.waitExit(20 * time.Second) {
				t.Fatal("the server did not exit")
			}
			took := time.Since(asked)
			survivors := proctest.Survivors(procs, 0)
			proctest.Kill(survivors)
			if len(survivors) > 0 {
				t.Errorf("%s: %d of %d processes outlived the server: %v", how, len(survivors), len(procs), survivors)
			}
			t.Logf("figures: mechanism=%s %s: server exited after %v, %d/%d processes left", s.mechanism, how, took.Round(time.Millisecond), len(survivors), len(procs))
		})
	}
}
