//go:build linux

package wall

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testcases"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// binary and probe are the server and the probe, built once.
var binary, probe string

func TestMain(m *testing.M) {
	var removeServer, removeProbe func()
	binary, removeServer = testcases.BuildServer("../../cmd/mcp-shell-server")
	probe, removeProbe = testcases.BuildServer("../wallprobe")
	os.Chmod(filepath.Dir(binary), 0o755) // the unprivileged run starts it too
	code := m.Run()
	removeServer()
	removeProbe()
	os.Exit(code)
}

// routes are the ways a stage's code reaches the probe: the probe itself,
// allowlisted by its absolute path, and programs that families running
// other programs start (a make recipe, an npm test script, a go test),
// also with a fetch word among the script's or test binary's arguments.
// Each route's call has a timeout (the go test route, as uid 65534,
// compiles the standard library into a cold cache), and the client waits
// answerMargin longer: a call that runs too long answers timed_out with
// its output, and one that does not answer at all is a server fault the
// test diagnoses (fixture.diagnose).
var routes = []struct {
	name string
	argv func(probe string) []string
	need []string
	// network: the route's stage has the network (its family's fetching
	// subcommand), and the probe skips the classes that network is.
	network bool
	timeout time.Duration
	// background: the route runs as a background job, its output read
	// once it ended.
	background bool
}{
	{"leaf", func(probe string) []string { return []string{probe, "targets.txt"} }, nil, false, 2 * time.Minute, false},
	{"make", func(string) []string { return []string{"make", "-s"} }, []string{"make"}, false, 2 * time.Minute, false},
	{"npm test", func(string) []string { return []string{"npm", "test", "--silent"} }, []string{"npm", "node"}, false, 2 * time.Minute, false},
	{"npm install", func(string) []string { return []string{"npm", "install", "--silent"} }, []string{"npm", "node"}, true, 2 * time.Minute, false},
	{"go test", func(string) []string { return []string{"go", "test", "-count=1"} }, []string{"go"}, false, 4 * time.Minute, false},
	// A fetch word passed to a script or to the test binary grants the
	// stage nothing: the network follows the parsed subcommand.
	{"npm test install", func(string) []string { return []string{"npm", "test", "--silent", "install"} }, []string{"npm", "node"}, false, 2 * time.Minute, false},
	{"npm run build view", func(string) []string { return []string{"npm", "run", "--silent", "build", "view"} }, []string{"npm", "node"}, false, 2 * time.Minute, false},
	{"go test -args get", func(string) []string { return []string{"go", "test", "-count=1", "-v", ".", "-args", "get"} }, []string{"go"}, false, 4 * time.Minute, false},
	// Every other way a stage starts: behind the wrappers the policy
	// looks through, as a later stage of a pipeline and as xargs's
	// child, and as a background job.
	{"timeout", func(probe string) []string { return []string{"timeout", "100", probe, "targets.txt"} }, []string{"timeout"}, false, 2 * time.Minute, false},
	{"env", func(probe string) []string { return []string{"env", "WALL=1", probe, "targets.txt"} }, []string{"env"}, false, 2 * time.Minute, false},
	{"nice", func(probe string) []string { return []string{"nice", "-n", "5", probe, "targets.txt"} }, []string{"nice"}, false, 2 * time.Minute, false},
	{"pipeline stage 1", func(probe string) []string { return []string{probe, "targets.txt", "|", "cat"} }, []string{"cat"}, false, 2 * time.Minute, false},
	{"cat | xargs", func(probe string) []string { return []string{"cat", "args.txt", "|", "xargs", probe} }, []string{"cat", "xargs"}, false, 2 * time.Minute, false},
	{"background job", func(probe string) []string { return []string{probe, "targets.txt"} }, nil, false, 2 * time.Minute, true},
}

// answerMargin is how much longer than a call's timeout the client waits
// for its answer: the kill grace and the audit record take milliseconds.
const answerMargin = time.Minute

// TestWall runs the probe by every route under the default
// configuration, as the server's own user and, when that is root, as an
// unprivileged one, and requires every class to be blocked: the stage
// cannot signal, trace or read the server, reach the network, leave its
// cgroup, use the kernel interfaces no stage needs, hold a capability, or
// change files outside the allowed directories; a route whose stage has
// the network (npm install) may use it, and nothing else. It prints the
// table class × route.
func TestWall(t *testing.T) {
	if abi, err := sandbox.KernelABI(); err != nil || abi < sandbox.ABINetwork {
		if os.Getenv("MCP_SHELL_REQUIRE_LANDLOCK") != "" {
			t.Fatalf("Landlock ABI %d (%v) and MCP_SHELL_REQUIRE_LANDLOCK is set", abi, err)
		}
		t.Skipf("Landlock ABI %d (%v): the default sandbox is not the kernel wall here", abi, err)
	}
	testenv.EachUser(t, wallAs)
}

func wallAs(t *testing.T, cred *syscall.Credential) {
	f := newFixture(t, cred)
	// The server runs unprivileged when the test drops to uid 65534 or
	// is not root itself: then the metadata classes are the gap.
	unprivileged := cred != nil || os.Geteuid() != 0
	table := map[string]map[string]string{} // class → route → verdict
	var classes []string
	for _, r := range routes {
		if missing := missingPrograms(r.need); missing != "" {
			testenv.Absent(t, r.name+": "+missing+" not installed")
			continue
		}
		if strings.HasPrefix(r.name, "go test") && cred != nil && !testenv.Heavy() {
			t.Logf("%s: skipped as uid 65534 without MCP_SHELL_TEST_HEAVY=1 (a cold build cache compiles the standard library)", r.name)
			continue
		}
		var out string
		if r.background {
			out = f.callBackground(t, r.argv(f.probe), r.timeout)
		} else {
			out = f.call(t, r.argv(f.probe), r.timeout)
		}
		for _, line := range strings.Split(out, "\n") {
			fields := strings.SplitN(line, " ", 3)
			if len(fields) < 2 || (fields[1] != "blocked" && fields[1] != "OPEN" && fields[1] != "allowed") {
				continue
			}
			if fields[1] == "allowed" && !r.network {
				t.Errorf("%s via %s: the probe skipped it: %s", fields[0], r.name, line)
			}
			if table[fields[0]] == nil {
				table[fields[0]] = map[string]string{}
				classes = append(classes, fields[0])
			}
			verdict := fields[1]
			if verdict == "allowed" {
				verdict = "network"
			} else if verdict == "OPEN" && unprivileged && metadataGap[fields[0]] {
				verdict = "gap"
			} else if verdict == "OPEN" {
				t.Errorf("%s via %s: %s", fields[0], r.name, line)
			}
			table[fields[0]][r.name] = verdict
		}
		if len(table) == 0 {
			t.Fatalf("%s: the probe printed no classes:\n%s", r.name, out)
		}
		for _, c := range classes {
			if table[c][r.name] == "" {
				t.Errorf("%s via %s: no verdict in the output:\n%s", c, r.name, out)
			}
		}
	}
	f.checkUntouched(t, unprivileged)
	var b strings.Builder
	width := len("class")
	for _, c := range classes {
		width = max(width, len(c))
	}
	fmt.Fprintf(&b, "%-*s", width, "class")
	for _, r := range routes {
		fmt.Fprintf(&b, " %-*s", max(len(r.name), len("blocked")), r.name)
	}
	for _, c := range classes {
		fmt.Fprintf(&b, "\n%-*s", width, c)
		for _, r := range routes {
			v := table[c][r.name]
			if v == "" {
				v = "-"
			}
			fmt.Fprintf(&b, " %-*s", max(len(r.name), len("blocked")), v)
		}
	}
	t.Logf("kernel wall, %s:\n%s", testenv.UserName(cred), b.String())
}

// metadataGap are the classes an unprivileged server cannot close: the
// stage may change the timestamps and mode of files its user owns outside
// the writable trees (Landlock has no right for metadata, and the
// read-only mount namespace that closes them for a root server needs
// CAP_SYS_ADMIN). SECURITY.md names the gap; the canary, owned by
// another user under the unprivileged run, is still untouched.
var metadataGap = map[string]bool{"timestamps-outside": true, "timestamps-outside-by-dotdot": true, "mode-outside": true}

func missingPrograms(names []string) string {
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			return n
		}
	}
	return ""
}

// fixture is one server with its allowed directory, targets and canaries.
type fixture struct {
	work, outside, probe string
	session              *mcp.ClientSession
	server               *exec.Cmd
	canary               string
	canaryInfo           os.FileInfo
	conns                *atomic.Int32
}

func newFixture(t *testing.T, cred *syscall.Credential, serverEnv ...string) *fixture {
	t.Helper()
	root := tempDir(t, cred)
	f := &fixture{work: filepath.Join(root, "work"), outside: filepath.Join(root, "outside"), conns: &atomic.Int32{}}
	for _, d := range []string{f.work, f.outside, filepath.Join(root, "home"), filepath.Join(root, "retain")} {
		mkdir(t, d, cred)
	}
	f.probe = filepath.Join(f.work, "probe")
	copyFile(t, probe, f.probe, 0o755, cred)
	f.canary = filepath.Join(f.outside, "canary")
	writeOwned(t, f.canary, "canary\n", 0o644, cred)
	var err error
	if f.canaryInfo, err = os.Stat(f.canary); err != nil {
		t.Fatal(err)
	}
	writeOwned(t, filepath.Join(f.work, "Makefile"), "all:\n\t./probe targets.txt\nslow:\n\tsleep 60\n", 0o644, cred)
	writeOwned(t, filepath.Join(f.work, "package.json"), `{"name":"wall","version":"1.0.0","scripts":{"test":"./probe targets.txt","build":"./probe targets.txt","preinstall":"./probe targets.txt network"}}`+"\n", 0o644, cred)
	// npm install has nothing to fetch; audit, fund and the update check
	// would still ask the registry.
	writeOwned(t, filepath.Join(f.work, ".npmrc"), "audit=false\nfund=false\nupdate-notifier=false\n", 0o644, cred)
	writeOwned(t, filepath.Join(f.work, "go.mod"), "module wall.invalid/probe\n\ngo 1.22\n", 0o644, cred)
	writeOwned(t, filepath.Join(f.work, "probe_test.go"), goProbeTest, 0o644, cred)
	writeOwned(t, filepath.Join(f.work, "args.txt"), "targets.txt\n", 0o644, cred)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.conns.Add(1)
			c.Close()
		}
	}()
	sock := filepath.Join(f.outside, "daemon.sock")
	uln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { uln.Close() })
	os.Chmod(sock, 0o777)
	go func() {
		for {
			c, err := uln.Accept()
			if err != nil {
				return
			}
			f.conns.Add(1)
			c.Close()
		}
	}()
	f.start(t, cred, root, serverEnv)
	var targets strings.Builder
	pid := f.server.Process.Pid
	fmt.Fprintf(&targets, "server %d\n", pid)
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, e := range tasks {
		fmt.Fprintf(&targets, "thread %s\n", e.Name())
	}
	fmt.Fprintf(&targets, "tcp %d\nunix %s\nfile %s\ncgroup %s\n", ln.Addr().(*net.TCPAddr).Port, sock, f.canary, cgroupRoot())
	writeOwned(t, filepath.Join(f.work, "targets.txt"), targets.String(), 0o644, cred)
	return f
}

// goProbeTest is the go test route: a test that runs the probe.
const goProbeTest = `package probe

import (
	"flag"
	"os"
	"os/exec"
	"testing"
)

func TestProbe(t *testing.T) {
	cmd := exec.Command("./probe", append([]string{"targets.txt"}, flag.Args()...)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
}
`

// start runs the server in its default sandbox configuration with the
// probe, make, npm and go allowlisted, /proc added to the read trees (the
// server's environment must stay unreadable whatever they say), and
// connects a client.
func (f *fixture) start(t *testing.T, cred *syscall.Credential, root string, extra []string) {
	t.Helper()
	goBin, _ := exec.LookPath("go")
	safePath := "/usr/local/bin:/usr/bin:/bin"
	if goBin != "" {
		safePath = filepath.Dir(goBin) + ":" + safePath
	}
	env := []string{
		"PATH=" + safePath, "HOME=" + filepath.Join(root, "home"), "SECRET_TOKEN=wall-secret",
		"ALLOW_COMMANDS=" + f.probe + ",make,npm,go,timeout,env,nice,xargs,cat",
		"MCP_SHELL_SAFE_PATH=" + safePath,
		"MCP_SHELL_SANDBOX_READ_DIRS=" + strings.Join(append(slices.Clone(sandbox.DefaultReadDirs), "/proc"), ","),
		"MCP_SHELL_RETAIN_DIR=" + filepath.Join(root, "retain"),
		"MCP_SHELL_LOG_LEVEL=error", "MCP_SHELL_DEFAULT_TIMEOUT_SECONDS=300", "MCP_SHELL_MAX_TIMEOUT_SECONDS=300",
	}
	if cred == nil {
		// The test's own warm build cache, delegated: the go test route
		// then compiles one small package.
		if cache, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			env = append(env, "GOCACHE="+strings.TrimSpace(string(cache)), "MCP_SHELL_CHILD_ENV_ALLOWLIST=GOCACHE")
		}
	}
	cmd := exec.Command(binary, f.work)
	cmd.Env = append(env, extra...)
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "wall", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	f.session, f.server = s, cmd
	t.Cleanup(func() { s.Close() })
}

// call runs argv in the allowed directory under timeout and returns its
// output. A call the server does not answer within answerMargin after
// its timeout fails the test with what diagnose finds.
func (f *fixture) call(t *testing.T, argv []string, timeout time.Duration) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout+answerMargin)
	defer cancel()
	res, err := f.session.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": argv, "timeout": int(timeout.Seconds())}})
	if err != nil {
		if ctx.Err() != nil {
			t.Fatalf("%q: no answer %v after the call's timeout of %v:\n%s", argv, answerMargin, timeout, f.diagnose())
		}
		t.Fatalf("%q: %v", argv, err)
	}
	var out strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out.WriteString(tc.Text)
		}
	}
	if res.IsError {
		t.Fatalf("%q: %s", argv, out.String())
	}
	return out.String()
}

// callBackground runs argv as a background job under timeout, waits for
// it to end (job_status waits) and returns its retained stdout.
func (f *fixture) callBackground(t *testing.T, argv []string, timeout time.Duration) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout+answerMargin)
	defer cancel()
	res, err := f.session.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": argv, "timeout": int(timeout.Seconds()), "background": true}})
	if err != nil || res.IsError {
		t.Fatalf("%q as a job: %v %v", argv, err, res)
	}
	var started struct {
		JobID string `json:"job_id"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if json.Unmarshal(raw, &started) != nil || started.JobID == "" {
		t.Fatalf("%q: no job started: %s", argv, raw)
	}
	for ended := false; !ended; {
		st, err := f.session.CallTool(ctx, &mcp.CallToolParams{Name: "job_status", Arguments: map[string]any{"id": started.JobID, "wait": 30}})
		if err != nil {
			t.Fatalf("job_status %s: %v:\n%s", started.JobID, err, f.diagnose())
		}
		var out struct {
			State string `json:"state"`
		}
		raw, _ := json.Marshal(st.StructuredContent)
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("job_status %s: %v", started.JobID, err)
		}
		ended = out.State != "running" && out.State != "queued"
	}
	var out strings.Builder
	for offset := 0; ; {
		rd, err := f.session.CallTool(ctx, &mcp.CallToolParams{Name: "read_output", Arguments: map[string]any{"id": started.JobID, "offset": offset, "length": 1 << 20}})
		if err != nil || rd.IsError {
			t.Fatalf("read_output %s: %v %v", started.JobID, err, rd)
		}
		var page struct {
			Data       string `json:"data"`
			NextOffset int    `json:"next_offset"`
			EOF        bool   `json:"eof"`
		}
		raw, _ := json.Marshal(rd.StructuredContent)
		if err := json.Unmarshal(raw, &page); err != nil {
			t.Fatalf("read_output %s: %v", started.JobID, err)
		}
		out.WriteString(page.Data)
		if page.EOF || page.NextOffset <= offset {
			break
		}
		offset = page.NextOffset
	}
	return out.String()
}

// diagnose describes a server that does not answer: where each of its
// threads and each of their children is in the kernel (state, tracer,
// wait channel, system call), then it makes the server print its
// goroutines (SIGQUIT: on the test's stderr, where the server's goes) and
// waits for it to exit.
func (f *fixture) diagnose() string {
	var b strings.Builder
	pid := f.server.Process.Pid
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, e := range tasks {
		dir := fmt.Sprintf("/proc/%d/task/%s", pid, e.Name())
		fmt.Fprintf(&b, "server thread %s: %s\n", e.Name(), procState(dir))
		children, _ := os.ReadFile(dir + "/children")
		for _, c := range strings.Fields(string(children)) {
			fmt.Fprintf(&b, "  child %s: %s\n", c, procState("/proc/"+c))
			ctasks, _ := os.ReadDir("/proc/" + c + "/task")
			for _, ct := range ctasks {
				if ct.Name() != c {
					fmt.Fprintf(&b, "    thread %s: %s\n", ct.Name(), procState("/proc/"+c+"/task/"+ct.Name()))
				}
			}
		}
	}
	if err := f.server.Process.Signal(syscall.SIGQUIT); err == nil {
		f.server.Process.Signal(syscall.SIGCONT) // a stopped server dumps too
		kill := time.AfterFunc(dumpWithin, func() { f.server.Process.Kill() })
		f.server.Process.Wait() // its goroutine dump is written by then
		kill.Stop()
		b.WriteString("the server's goroutines are on stderr (SIGQUIT)\n")
	}
	return b.String()
}

// dumpWithin bounds the wait for the server's goroutine dump: it takes
// milliseconds, unless the server is stuck where the runtime cannot run.
const dumpWithin = 10 * time.Second

// procState is a process's or thread's state, tracer, wait channel,
// system call and kernel stack, from dir (/proc/PID or /proc/PID/task/TID).
func procState(dir string) string {
	read := func(name string) string {
		b, _ := os.ReadFile(dir + "/" + name)
		return strings.TrimSpace(string(b))
	}
	var state, tracer string
	for _, line := range strings.Split(read("status"), "\n") {
		if v, ok := strings.CutPrefix(line, "State:"); ok {
			state = strings.TrimSpace(v)
		} else if v, ok := strings.CutPrefix(line, "TracerPid:"); ok {
			tracer = strings.TrimSpace(v)
		}
	}
	stack := strings.ReplaceAll(read("stack"), "\n", " < ")
	return fmt.Sprintf("%s tracer=%s wchan=%s syscall=[%s] cmdline=%q stack=[%s]", state, tracer, read("wchan"), read("syscall"), strings.ReplaceAll(read("cmdline"), "\x00", " "), stack)
}

// checkUntouched: the server is still running, nothing connected to the
// listeners, and the canary outside has its content and, unless
// metadataGap applies, its mode and times.
func (f *fixture) checkUntouched(t *testing.T, gap bool) {
	t.Helper()
	if err := f.server.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the server is gone: %v", err)
	}
	if n := f.conns.Load(); n != 0 {
		t.Errorf("%d connections reached the listeners", n)
	}
	fi, err := os.Stat(f.canary)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(f.canary)
	if string(b) != "canary\n" || !gap && (fi.Mode() != f.canaryInfo.Mode() || !fi.ModTime().Equal(f.canaryInfo.ModTime())) {
		t.Errorf("the canary changed: %q %v %v (was %v %v)", b, fi.Mode(), fi.ModTime(), f.canaryInfo.Mode(), f.canaryInfo.ModTime())
	}
}

func cgroupRoot() string {
	out, err := exec.Command("findmnt", "-n", "-t", "cgroup2", "-o", "TARGET").Output()
	if err != nil || len(out) == 0 {
		return "/sys/fs/cgroup"
	}
	return strings.Fields(string(out))[0]
}

// tempDir is a fresh directory the server's user can use.
func tempDir(t *testing.T, cred *syscall.Credential) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if cred != nil {
		os.Chmod(d, 0o755)
		for p := d; p != "/"; p = filepath.Dir(p) {
			if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o001 == 0 {
				os.Chmod(p, fi.Mode().Perm()|0o001) // searchable on the way down
			}
		}
	}
	return d
}

func mkdir(t *testing.T, d string, cred *syscall.Credential) {
	t.Helper()
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	own(t, d, cred)
}

func writeOwned(t *testing.T, path, body string, mode os.FileMode, cred *syscall.Credential) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	own(t, path, cred)
}

func copyFile(t *testing.T, from, to string, mode os.FileMode, cred *syscall.Credential) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeOwned(t, to, string(b), mode, cred)
}

func own(t *testing.T, path string, cred *syscall.Credential) {
	t.Helper()
	if cred == nil {
		return
	}
	if err := os.Chown(path, int(cred.Uid), int(cred.Gid)); err != nil {
		t.Fatal(err)
	}
}
