package policy

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

func testPolicy(commands ...string) *Policy {
	return New(Config{
		Commands: commands,
		Patterns: []*regexp.Regexp{regexp.MustCompile(`^(?:/usr/bin/.*)$`)}, PatternSources: []string{"/usr/bin/.*"},
		Recognize: func(argv []string, _ argvrules.Context) *argvrules.Rejection {
			if argv[0] != "fake" {
				return nil
			}
			for i, a := range argv {
				if a == "--evil" {
					return refusal.Rule{Code: "fake.evil", Phrase: "fake evil"}.Reject(i, a, "argument %d %q is evil", i, a)
				}
			}
			return nil
		},
	})
}

// decideIn decides argv in dir under p, as if dir were the only allowed
// directory; the plan is closed with the test.
func decideIn(t testing.TB, p *Policy, argv []string, dir *workdir.Dir) (*plan.Call, error) {
	return decideReq(t, p, Request{Argv: argv}, dir)
}

// exactIn is decideIn for an execute_command request (every element data).
func exactIn(t testing.TB, p *Policy, argv []string, dir *workdir.Dir) (*plan.Call, error) {
	return decideReq(t, p, Request{Argv: argv, Exact: true}, dir)
}

func decideReq(t testing.TB, p *Policy, req Request, dir *workdir.Dir) (*plan.Call, error) {
	in := *p
	in.cfg.AllowedDirs = append([]string{dir.Real()}, p.cfg.AllowedDirs...)
	if req.Dir == nil {
		d := dir.Real()
		req.Dir = &d
	}
	call, err := in.Decide(req)
	t.Cleanup(call.Close)
	return call, err
}

func fixture(t testing.TB) *workdir.Dir {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}

	os.WriteFile(filepath.Join(d, "in.txt"), []byte("x"), 0o644)
	os.Mkdir(filepath.Join(d, "sub"), 0o755)
	os.Symlink("/etc/hostname", filepath.Join(d, "link_out"))
	wd, err := workdir.Open(d, []string{d})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wd.Close() })
	return wd
}

func TestEvaluate(t *testing.T) {
	p := testPolicy("echo", "cat", "sort", "fake", "grep", "/bin/ls", "bash")
	dir := fixture(t)
	tests := []struct {
		argv  []string
		code  refusal.Code // "" = allowed
		index int
	}{
		{[]string{"echo", "a;b", "$(id)", "`x`", "&", "a||b"}, "", 0},
		{[]string{"grep", "", "in.txt"}, "", 0},
		{[]string{"echo", ";"}, CodeShellOperator, 1},
		{[]string{"echo", "x", "&&", "cat"}, CodeShellOperator, 2},
		{[]string{"echo", "x", "||", "cat"}, CodeShellOperator, 2},
		{[]string{}, CodeEmpty, -1},
		{[]string{""}, CodeEmpty, 0},
		{[]string{"", "echo"}, CodeEmpty, 0},
		{[]string{"echo", "a\x00"}, CodeNUL, 1},
		{[]string{"ls "}, CodeUnsafeName, 0},
		{[]string{"ls|"}, CodeUnsafeName, 0},
		{[]string{"/usr/bin/../../tmp/x"}, CodeUnsafeName, 0},
		{[]string{"/usr/bin/stat", "x"}, "", 0},
		{[]string{"/bin/ls"}, "", 0},
		{[]string{"ls"}, CodeNotAllowed, 0},
		{[]string{"bash", "-c", "id"}, CodeRefusedProgram, 0},
		{[]string{"BASH"}, CodeRefusedProgram, 0},
		{[]string{"/usr/bin/python3.12"}, CodeRefusedProgram, 0},
		{[]string{"perl5.36"}, CodeRefusedProgram, 0},
		{[]string{"fake", "ok"}, "", 0},
		{[]string{"echo", "|", "fake", "x", "--evil"}, "fake.evil", 4},
		{[]string{"|", "echo"}, CodePipeline, 0},
		{[]string{"echo", "|"}, CodePipeline, 1},
		{[]string{"echo", "|", "|", "cat"}, CodePipeline, 2},
		{[]string{"cat", "<", "in.txt", "|", "sort", ">", "out.txt"}, "", 0},
		{[]string{"echo", "x", ">", "mid", "|", "cat"}, CodeRedirectStage, 2},
		{[]string{"echo", "|", "cat", "<", "in.txt"}, CodeRedirectStage, 3},
		{[]string{"echo", ">"}, CodeRedirect, 1},
		{[]string{"cat", "<", "<", "in.txt"}, CodeRedirect, 2},
		{[]string{"echo", ">", ">>", "f"}, CodeRedirect, 2},
		{[]string{"echo", "x", ">", "a;b"}, CodeRedirect, 3},
		{[]string{"echo", "x", ">", ".git/config"}, CodeRedirect, 3},
		{[]string{"echo", "x", ">>", "sub/.GIT/hooks/pre-commit"}, CodeRedirect, 3},
		{[]string{">", "out.txt"}, CodeEmpty, 0},
		{pipelineOf(MaxStages), "", 0},
		{pipelineOf(MaxStages + 1), CodePipelineLength, 2*MaxStages - 1},
	}
	for _, tt := range tests {
		plan, err := decideIn(t, p, tt.argv, dir)
		if tt.code == "" {
			if err != nil {
				t.Errorf("%q: refused: %v", tt.argv, err)
			} else if len(plan.Rules()) != len(plan.Stages) {
				t.Errorf("%q: rules %v for %d stages", tt.argv, plan.Rules(), len(plan.Stages))
			}
			continue
		}
		rj := refusal.As(err)
		if rj == nil {
			t.Errorf("%q: want %s, got %v", tt.argv, tt.code, err)
			continue
		}
		if rj.Code != tt.code || rj.Index != tt.index || rj.Message == "" {
			t.Errorf("%q: got %s at %d (%s), want %s at %d", tt.argv, rj.Code, rj.Index, rj.Message, tt.code, tt.index)
		}
	}
}

func TestEvaluateRedirectTargets(t *testing.T) {
	p := testPolicy("echo", "cat")
	dir := fixture(t)
	for _, tt := range []struct {
		argv []string
		ok   bool
	}{
		{[]string{"cat", "<", "in.txt"}, true},
		{[]string{"echo", ">", "sub/new.txt"}, true},
		{[]string{"echo", "x", ">", "a.txt", ">", "b.txt"}, true},
		{[]string{"cat", "<", "missing.txt"}, false},
		{[]string{"cat", "<", "sub"}, false},
		{[]string{"echo", ">", "sub"}, false},
		{[]string{"echo", ">", "nodir/x"}, false},
		{[]string{"echo", ">", "link_out"}, false},
		{[]string{"cat", "<", "/etc/hostname"}, false},
		{[]string{"cat", "<", "sub/../in.txt"}, false},
	} {
		_, err := decideIn(t, p, tt.argv, dir)
		if (err == nil) != tt.ok {
			t.Errorf("%q: err %v, want ok=%v", tt.argv, err, tt.ok)
		}
	}
	if _, err := os.Stat(filepath.Join(dir.Real(), "sub", "new.txt")); err == nil {
		t.Error("evaluating a > redirection created the file")
	}
}

func TestPlanStagesDropRedirects(t *testing.T) {
	plan, err := decideIn(t, testPolicy("cat", "sort"), []string{"cat", "<", "in.txt", "|", "sort", "-r", ">>", "out"}, fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Stages) != 2 || !slices.Equal(plan.Stages[1].Argv, []string{"sort", "-r"}) || plan.StdinFile != "in.txt" || plan.StdoutFile != "out" || !plan.StdoutAppend {
		t.Errorf("plan %+v", plan)
	}
}

func TestRefusedNames(t *testing.T) {
	for _, n := range []string{"vim.basic", "vim.tiny", "busybox.static", "editor", "vimdiff", "sg", "fakeroot", "slogin", "ipython3", "pydoc3", "m4", "lua-5.4", "ld-linux-x86-64.so.2",
		"sh", "/bin/dash", "python3", "python3.9.18", "node", "nodejs", "deno", "bun", "busybox", "setsid", "chroot", "watch", "parallel", "sudo", "strace", "ed", "vim", "ssh", "Bash", "perl5.36", "ruby3.2", "lua5.4"} {
		if _, _, ok := Refused(n); !ok {
			t.Errorf("%s not refused", n)
		}
	}
	for _, n := range []string{"ls", "git", "sort", "sha256sum", "base64", "md5sum", "tar", "awk", "printenv", "x86_64-linux-gnu-gcc-12", "ld.bfd", "git-upload-pack", "file", "jq", "yq", "pip3", "sed", "gsed",
		"env", "xargs", "timeout", "nice", "ionice", "nohup", "stdbuf", "time", "flock"} { // wrapper families
		if name, _, ok := Refused(n); ok {
			t.Errorf("%s refused as %s", n, name)
		}
	}
}

func FuzzEvaluate(f *testing.F) {
	p := testPolicy("echo", "cat", "fake")
	dir := fixture(f)
	f.Add("echo\x1fa\x1f|\x1fcat\x1f>\x1fout")
	f.Add("cat\x1f<\x1f<\x1f")
	f.Add("|\x1f|")
	f.Fuzz(func(t *testing.T, joined string) {
		argv := splitUnit(joined)
		plan1, err1 := decideIn(t, p, argv, dir)
		plan2, err2 := decideIn(t, p, argv, dir)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("unstable verdict for %q", argv)
		}
		if err1 == nil && len(plan1.Stages) != len(plan2.Stages) {
			t.Fatalf("unstable plan for %q", argv)
		}
	})
}

func splitUnit(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1f {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func TestEvaluateArgvTreatsOperatorsAsData(t *testing.T) {
	p := testPolicy("echo", "fake", "bash")
	dir := fixture(t)
	plan, err := exactIn(t, p, []string{"echo", "|", ">", "/etc/x", ";", "&&"}, dir)
	if err != nil || len(plan.Stages) != 1 || len(plan.Stages[0].Argv) != 6 || plan.StdoutFile != "" {
		t.Fatalf("plan %+v err %v", plan, err)
	}
	for _, argv := range [][]string{{"fake", "--evil"}, {"bash"}, {"ls"}, {}, {"echo", "a\x00"}} {
		if _, err := exactIn(t, p, argv, dir); err == nil {
			t.Errorf("%q accepted", argv)
		}
	}
}

// pipelineOf is an argv of n stages, echo | echo | ...
func pipelineOf(n int) []string {
	argv := []string{"echo"}
	for range n - 1 {
		argv = append(argv, "|", "echo")
	}
	return argv
}
