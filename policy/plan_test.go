package policy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// TestRecognizersSeeTheChildEnvironment: a recognizer judges by the
// environment the child receives. kubectl with a .kube directory in the
// working directory is refused only when the child really gets no HOME;
// with the configured child HOME (childenv.Config.Home, which Build always
// sets) it is allowed, as `printenv HOME` under the same configuration
// prints it.
func TestRecognizersSeeTheChildEnvironment(t *testing.T) {
	dir := fixture(t)
	if err := os.MkdirAll(filepath.Join(dir.Real(), ".kube"), 0o755); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	bin := fakeBin(t, "kubectl", "printenv")
	for _, tt := range []struct {
		home string
		ok   bool
	}{{home, true}, {"", false}} {
		p := New(Config{Commands: []string{"kubectl", "printenv"}, Recognize: argvrules.Check,
			ChildEnv: childenv.Config{Home: tt.home, SafePath: bin}, Getenv: noEnv})
		if _, err := decideIn(t, p, []string{"kubectl", "get", "pods"}, dir); (err == nil) != tt.ok {
			t.Errorf("HOME %q: kubectl get pods: %v, want allowed %v", tt.home, err, tt.ok)
		}
		call, err := decideIn(t, p, []string{"printenv", "HOME"}, dir)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := childenv.Lookup(call.Stages[0].Env, "HOME"); ok != (tt.home != "") || got != tt.home {
			t.Errorf("HOME %q: the child gets HOME %q (%v)", tt.home, got, ok)
		}
	}
}

// TestPlanHoldsTheCompleteEnvironment: a confined stage's environment in
// the plan is everything the child gets, the sandbox's cache variables
// and TMPDIR included, so the audit's child_env names GOCACHE for a
// confined go stage; every stage gets git's hardening.
func TestPlanHoldsTheCompleteEnvironment(t *testing.T) {
	dir := fixture(t)
	bin := fakeBin(t, "go", "cat")
	rules, err := sandbox.NewRules(sandbox.Config{Mode: sandbox.ModeAuto, WriteDirs: []string{dir.Real()}, CacheDir: t.TempDir(), Limits: sandbox.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	tmp := &countingDirs{dir: t.TempDir()}
	p := New(Config{Commands: []string{"go", "cat"}, Recognize: argvrules.Check, ChildEnv: childenv.Config{SafePath: bin}, Getenv: noEnv,
		Sandbox: rules, TempDirs: tmp})
	call, err := decideIn(t, p, []string{"go", "env", "GOCACHE", "|", "cat"}, dir)
	if err != nil {
		t.Fatal(err)
	}
	names := call.EnvNames()
	for _, want := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GIT_CONFIG_COUNT", "PATH"} {
		if !slices.Contains(names, want) {
			t.Errorf("child_env %q lacks %s", names, want)
		}
	}
	if _, ok := childenv.Lookup(call.Stages[1].Env, "GOCACHE"); ok {
		t.Error("cat got go's GOCACHE")
	}
	if _, ok := childenv.Lookup(call.Stages[1].Env, "GIT_CONFIG_COUNT"); !ok {
		t.Error("cat lacks git's hardening")
	}
	if rules.Confined() {
		if v, _ := childenv.Lookup(call.Stages[0].Env, "TMPDIR"); v != tmp.dir || !slices.Contains(call.Stages[0].Confinement.Write, tmp.dir) {
			t.Errorf("TMPDIR %q, writable %q; want the call's %s", v, call.Stages[0].Confinement.Write, tmp.dir)
		}
		if call.Stages[0].Family != "go" || !call.Stages[0].Confinement.RunAny || call.Stages[1].Confinement.RunAny {
			t.Errorf("families %q/%q, run_any %v/%v", call.Stages[0].Family, call.Stages[1].Family, call.Stages[0].Confinement.RunAny, call.Stages[1].Confinement.RunAny)
		}
	}
	call.Close()
	if tmp.released != 1 {
		t.Errorf("the call's temporary directory was released %d times, want once", tmp.released)
	}
}

// TestRequestChecksAreThePolicys: a NUL byte is argv.nul wherever the
// argv comes from, and request.nul in the directory or envs; per-call
// variables are refused with childenv's typed error as the cause and a
// code per reason.
func TestRequestChecksAreThePolicys(t *testing.T) {
	dir := fixture(t)
	p := New(Config{Commands: []string{"echo"}, ChildEnv: childenv.Config{Allowlist: []string{"LANG", "LD_PRELOAD"}}, Getenv: noEnv})
	nul := "a\x00"
	for _, tt := range []struct {
		req  Request
		code refusal.Code
	}{
		{Request{Argv: []string{"echo", nul}}, CodeNUL},
		{Request{Argv: []string{"echo", nul}, Exact: true}, CodeNUL},
		{Request{Argv: []string{" "}, Exact: true}, CodeProgram},
		{Request{Argv: []string{"echo"}, Dir: &nul}, CodeRequestNUL},
		{Request{Argv: []string{"echo"}, Envs: map[string]string{"LANG": nul}}, CodeRequestNUL},
		{Request{Argv: []string{"echo"}, Envs: map[string]string{"HOME": "/x"}}, CodeEnv},
		{Request{Argv: []string{"echo"}, Envs: map[string]string{"LD_PRELOAD": "/x.so"}}, CodeEnvSteering},
		{Request{Argv: []string{"echo"}, Envs: map[string]string{"MCPGODEBUG": "x"}}, CodeEnvReserved},
		{Request{Argv: []string{"echo"}, Envs: map[string]string{"1X": "x"}}, CodeEnvName},
	} {
		_, err := decideReq(t, p, tt.req, dir)
		rj := refusal.As(err)
		if rj == nil || rj.Code != tt.code {
			t.Errorf("%+v: %v, want %s", tt.req, err, tt.code)
			continue
		}
		if strings.HasPrefix(string(tt.code), "request.env") && rj.Err == nil {
			t.Errorf("%s: the refusal lost childenv's typed error", tt.code)
		}
	}
}

// TestSwappedSymlinkDoesNotChangeWhatRuns: the plan records the file the
// policy resolved; a symlink on the way swapped afterwards makes the
// program's Verify fail (the runner then starts nothing), and the path
// the runner executes is the resolved file itself, not the link.
func TestSwappedSymlinkDoesNotChangeWhatRuns(t *testing.T) {
	dir := fixture(t)
	bin := fakeBin(t, "echo-real", "evil")
	link := filepath.Join(bin, "tool")
	if err := os.Symlink("echo-real", link); err != nil {
		t.Fatal(err)
	}
	p := New(Config{Commands: []string{"tool"}, ChildEnv: childenv.Config{SafePath: bin}, Getenv: noEnv})
	call, err := decideIn(t, p, []string{"tool"}, dir)
	if err != nil {
		t.Fatal(err)
	}
	prog := call.Stages[0].Program
	if prog.ExecPath() != filepath.Join(bin, "echo-real") {
		t.Errorf("executes %s, want the resolved file", prog.ExecPath())
	}
	if err := prog.Verify(); err != nil {
		t.Fatalf("Verify before the swap: %v", err)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("evil", link); err != nil {
		t.Fatal(err)
	}
	if err := prog.Verify(); err != nil {
		t.Errorf("the swapped link changed the checked file: %v", err)
	}
	if prog.ExecPath() != filepath.Join(bin, "echo-real") {
		t.Errorf("after the swap the runner would execute %s", prog.ExecPath())
	}
	// The file itself replaced (same name, new inode): Verify refuses.
	real := filepath.Join(bin, "echo-real")
	os.Remove(real)
	writeExe(t, real)
	if err := prog.Verify(); err == nil {
		t.Error("a replaced program passed Verify")
	}
}

// fakeBin is a directory of small executables named names.
func fakeBin(t *testing.T, names ...string) string {
	t.Helper()
	bin := t.TempDir()
	for _, n := range names {
		writeExe(t, filepath.Join(bin, n))
	}
	return bin
}

func writeExe(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("\x7fELF not really\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// noEnv is an empty operator environment.
func noEnv(string) (string, bool) { return "", false }

// countingDirs hands out one temporary directory and counts releases.
type countingDirs struct {
	dir      string
	released int
}

func (c *countingDirs) CallDir() (string, error) { return c.dir, nil }
func (c *countingDirs) ReleaseCallDir(string)    { c.released++ }

// TestProgramsWhereStagesWriteAreRefused: a program found beneath a tree
// the sandbox makes writable outside the allowed directories (an
// operator's delegated GOPATH, whose bin directory go install fills) is
// refused as one inside an allowed directory is, unless its absolute path
// is allowlisted exactly.
func TestProgramsWhereStagesWriteAreRefused(t *testing.T) {
	dir := fixture(t)
	gopath := t.TempDir()
	bin := filepath.Join(gopath, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	writeExe(t, filepath.Join(bin, "golangci-lint"))
	rules, err := sandbox.NewRules(sandbox.Config{Mode: sandbox.ModeLimits, WriteDirs: []string{dir.Real()}, CacheDir: t.TempDir(), Limits: sandbox.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GOPATH": gopath}
	getenv := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	for _, tt := range []struct {
		allow string
		code  refusal.Code
	}{{"golangci-lint", CodeWritableProgram}, {filepath.Join(bin, "golangci-lint"), ""}} {
		p := New(Config{Commands: []string{tt.allow}, ChildEnv: childenv.Config{Allowlist: []string{"GOPATH"}, SafePath: bin}, Getenv: getenv, Sandbox: rules})
		_, err := decideIn(t, p, []string{tt.allow}, dir)
		if rj := refusal.As(err); tt.code == "" && err != nil || tt.code != "" && (rj == nil || rj.Code != tt.code) {
			t.Errorf("%s: %v, want %q", tt.allow, err, tt.code)
		}
	}
}
