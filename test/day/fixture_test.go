//go:build linux

package day

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fixture is one mode's machine: a home, an allowed directory holding the
// projects, and a server started in that mode.
type fixture struct {
	mode             string // "off" or "default"
	root, home, work string
	env              []string // the setup commands' environment
	gpgKey           string   // fingerprint of the signing key ("" without gpg)
	agentSock        string   // the ssh-agent's socket ("" without one)
	session          *mcp.ClientSession
	server           *exec.Cmd
	// cold is a second server of the default configuration (the
	// allowlist and nothing else: the sandbox's own caches) in a home
	// of its own, whose caches are empty until its first call.
	coldHome    string
	coldSession *mcp.ClientSession
	serverLog   string
	auditLog    string
}

// newFixture builds the projects and the home, then starts the server.
func newFixture(t *testing.T, mode string) *fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{mode: mode, root: root, home: filepath.Join(root, "home"), work: filepath.Join(root, "work")}
	f.serverLog, f.auditLog = filepath.Join(root, "server.log"), filepath.Join(root, "audit.log")
	for _, d := range []string{f.home, f.work, filepath.Join(root, "retain")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	f.env = []string{"HOME=" + f.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "GIT_CONFIG_NOSYSTEM=1"}
	f.buildHome(t)
	f.buildProjects(t)
	f.start(t)
	return f
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// write creates path (relative to the allowed directory unless absolute)
// with body.
func (f *fixture) write(t *testing.T, path, body string) {
	t.Helper()
	if !filepath.IsAbs(path) {
		path = filepath.Join(f.work, path)
	}
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte(body), 0o644))
}

// run runs a setup command in dir (relative to the allowed directory),
// unconfined, and fails the test when it fails.
func (f *fixture) run(t *testing.T, dir string, argv ...string) string {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = filepath.Join(f.work, dir)
	cmd.Env = f.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("setup %q in %s: %v\n%s", argv, dir, err, out)
	}
	return string(out)
}

func has(name string) bool { _, err := exec.LookPath(name); return err == nil }

// buildHome writes the developer's configuration: git identity and
// signing keys (gpg with a running agent, ssh), npm's settings without a
// reachable registry, the toolchains installed beneath the real home
// (rustup) and the go build cache of the test's own user.
func (f *fixture) buildHome(t *testing.T) {
	t.Helper()
	f.write(t, filepath.Join(f.home, ".gitconfig"), "[user]\n\tname = Day Tester\n\temail = day@example.invalid\n"+
		"[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n[advice]\n\tdetachedHead = false\n")
	// npm: no registry but a closed loopback port, so nothing leaves
	// the machine.
	f.write(t, filepath.Join(f.home, ".npmrc"), "registry=http://127.0.0.1:9/\naudit=false\nfund=false\nupdate-notifier=false\n")
	if has("ssh-keygen") {
		ssh := filepath.Join(f.home, ".ssh")
		must(t, os.MkdirAll(ssh, 0o700))
		f.run(t, "", "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "day@example.invalid", "-f", filepath.Join(ssh, "id_ed25519"))
		pub, err := os.ReadFile(filepath.Join(ssh, "id_ed25519.pub"))
		must(t, err)
		f.write(t, filepath.Join(f.home, ".config/git/allowed_signers"), "day@example.invalid "+string(pub))
		f.run(t, "", "git", "config", "--global", "user.signingkey", "~/.ssh/id_ed25519.pub")
		f.run(t, "", "git", "config", "--global", "gpg.ssh.allowedSignersFile", "~/.config/git/allowed_signers")
		if has("ssh-agent") && has("ssh-add") {
			f.startSSHAgent(t, filepath.Join(ssh, "id_ed25519"))
		}
	}
	if has("gpg") && has("gpgconf") {
		f.run(t, "", "gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", "", "--quick-gen-key", "Day Tester <day@example.invalid>", "ed25519", "sign", "never")
		for _, line := range strings.Split(f.run(t, "", "gpg", "--list-secret-keys", "--with-colons"), "\n") {
			if fields := strings.Split(line, ":"); len(fields) > 9 && fields[0] == "fpr" && f.gpgKey == "" {
				f.gpgKey = fields[9]
			}
		}
		// A developer's session has its agent running.
		f.run(t, "", "gpgconf", "--launch", "gpg-agent")
		t.Cleanup(func() {
			cmd := exec.Command("gpgconf", "--kill", "gpg-agent")
			cmd.Env = f.env
			cmd.Run()
		})
	}
	if has("git-lfs") {
		f.run(t, "", "git", "lfs", "install", "--skip-repo")
	}
	// The test user's warm go build cache, as a developer's own.
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		if cache := strings.TrimSpace(string(out)); filepath.IsAbs(cache) {
			must(t, os.MkdirAll(filepath.Join(f.home, ".cache"), 0o755))
			must(t, os.Symlink(cache, filepath.Join(f.home, ".cache", "go-build")))
		}
	}
	// rustup's toolchains where the real home has them.
	if real, err := os.UserHomeDir(); err == nil {
		for _, d := range []string{".rustup", ".cargo/bin"} {
			if _, err := os.Stat(filepath.Join(real, d)); err == nil {
				must(t, os.MkdirAll(filepath.Dir(filepath.Join(f.home, d)), 0o755))
				must(t, os.Symlink(filepath.Join(real, d), filepath.Join(f.home, d)))
			}
		}
	}
}

// gitRepo initialises dir as a repository with files committed.
func (f *fixture) gitRepo(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		f.write(t, filepath.Join(dir, name), body)
	}
	must(t, os.MkdirAll(filepath.Join(f.work, dir), 0o755))
	f.run(t, dir, "git", "init", "-q")
	f.run(t, dir, "git", "add", "-A")
	f.run(t, dir, "git", "commit", "-q", "-m", "initial")
}

// buildProjects writes every project the corpus works in.
func (f *fixture) buildProjects(t *testing.T) {
	t.Helper()
	f.gitRepo(t, "repo", map[string]string{"README": "day\n", "a.txt": "one\n"})
	for i, body := range []string{"two\n", "three\n", "four\n", "five\n"} {
		f.write(t, "repo/a.txt", strings.Repeat("line\n", i)+body)
		f.run(t, "repo", "git", "commit", "-q", "-am", fmt.Sprintf("change %d", i))
	}
	f.run(t, "repo", "git", "tag", "v0.1")
	for _, b := range []string{"b1", "b2", "b3"} {
		f.run(t, "repo", "git", "branch", b)
		f.run(t, "repo", "git", "switch", "-q", b)
		f.write(t, "repo/"+b+".txt", b+"\n")
		f.run(t, "repo", "git", "add", b+".txt")
		f.run(t, "repo", "git", "commit", "-q", "-m", "on "+b)
		f.run(t, "repo", "git", "switch", "-q", "main")
	}
	f.gitRepo(t, "sub", map[string]string{"lib.txt": "library\n"})
	f.gitRepo(t, "lfs", map[string]string{"README": "lfs\n"})
	f.write(t, "lfs/blob.bin", strings.Repeat("\x00\x01binary", 64))
	f.gitRepo(t, "gpgsig", map[string]string{"README": "signed with gpg\n"})
	if f.gpgKey != "" {
		f.run(t, "gpgsig", "git", "config", "user.signingkey", f.gpgKey)
		f.run(t, "gpgsig", "git", "config", "gpg.format", "openpgp")
	}
	f.gitRepo(t, "sshsig", map[string]string{"README": "signed with ssh\n"})
	f.run(t, "sshsig", "git", "config", "gpg.format", "ssh")

	f.gitRepo(t, "gomod", map[string]string{
		"go.mod":               "module example.invalid/day\n\ngo 1.22\n",
		"day.go":               "package day\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n",
		"day_test.go":          "package day\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"sum\")\n\t}\n}\n",
		"cmd/hello/main.go":    "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.invalid/day\"\n)\n\nfunc main() { fmt.Println(\"hello\", day.Add(1, 1)) }\n",
		"cgo/cgo.go":           "package cgo\n\n// int twice(int x) { return 2 * x; }\nimport \"C\"\n\n// Twice doubles through C.\nfunc Twice(x int) int { return int(C.twice(C.int(x))) }\n",
		"cgo/cgo_test.go":      "package cgo\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif Twice(2) != 4 {\n\t\tt.Fatal(\"twice\")\n\t}\n}\n",
		".gitignore":           "hello\n",
		"internal/x/x.go":      "package x\n\n// X is x.\nconst X = 1\n",
		"internal/x/x_test.go": "package x\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {\n\tif X != 1 {\n\t\tt.Fatal(X)\n\t}\n}\n",
	})

	// A fresh module for the cold server's first go vet: its import
	// needs the export data of encoding/json and its dependencies,
	// compiled into an empty build cache.
	f.write(t, "coldvet/go.mod", "module example.invalid/coldvet\n\ngo 1.22\n")
	f.write(t, "coldvet/coldvet.go", "package coldvet\n\nimport \"encoding/json\"\n\n// Encode encodes.\nfunc Encode(v any) ([]byte, error) { return json.Marshal(v) }\n")

	f.write(t, "dep/package.json", `{"name":"dep","version":"1.0.0","main":"index.js","bin":{"dep-hello":"bin.js"}}`+"\n")
	f.write(t, "dep/index.js", "module.exports = (a, b) => a + b;\n")
	f.write(t, "dep/bin.js", "#!/usr/bin/env node\nconsole.log('dep says hello');\n")
	must(t, os.Chmod(filepath.Join(f.work, "dep/bin.js"), 0o755))
	f.write(t, "app/package.json", `{"name":"app","version":"1.0.0","private":true,"dependencies":{"dep":"file:../dep"},`+
		`"scripts":{"test":"node test.js","build":"node build.js","hello":"dep-hello"}}`+"\n")
	f.write(t, "app/test.js", "const add = require('dep');\nif (add(1, 2) !== 3) { process.exit(1); }\nconsole.log('ok');\n")
	f.write(t, "app/build.js", "require('fs').writeFileSync('built.txt', 'built\\n');\n")
	if has("npm") {
		f.run(t, "dep", "npm", "pack", "--silent")
	}

	f.write(t, "c/m.c", "int m(int x) { return x + 1; }\n")
	f.write(t, "c/main.c", "#include <stdio.h>\nint m(int);\nint main(void) { printf(\"%d\\n\", m(41)); return 0; }\n")
	f.write(t, "c/a.cpp", "#include <iostream>\nint main() { std::cout << \"cpp\" << std::endl; }\n")
	f.write(t, "c/s.s", "\t.text\n\t.globl f\nf:\n\tret\n")

	f.gitRepo(t, "mk", map[string]string{"Makefile": makefile, "main.c": "int main(void) { return 0; }\n"})
	f.buildProbe(t)

	f.write(t, "rs/Cargo.toml", "[package]\nname = \"day\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n")
	f.write(t, "rs/src/main.rs", "fn add(a: i32, b: i32) -> i32 { a + b }\n\nfn main() { println!(\"{}\", add(1, 2)); }\n\n"+
		"#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(1, 2), 3); }\n}\n")

	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		f.run(t, "", "/usr/bin/python3", "-m", "venv", "venv")
		f.writeWheel(t, "dist/dayhello-0.1-py3-none-any.whl")
	}

	for i := range 3 {
		f.write(t, fmt.Sprintf("arc/dir/f%d.txt", i), strings.Repeat(fmt.Sprintf("file %d\n", i), 100))
	}
	f.write(t, "data/d.json", `{"name":"day","items":[1,2,3]}`+"\n")
	f.write(t, "data/d.yaml", "name: day\nitems:\n  - 1\n  - 2\n")
	f.write(t, "data/words.txt", "pear\napple\nfig\n")
}

// makefile's targets wrap go, git, cc and npm, as a project's would.
const makefile = `.PHONY: all git test gotest gobuild npmtest ccbuild
all: ccbuild
ccbuild:
	cc -o hello main.c
git:
	git rev-parse --short HEAD
	git log --oneline -1
test:
	cd ../gomod && go test -count=1 ./...
gotest:
	cd ../gomod && go test ./...
gobuild:
	cd ../gomod && go build -o hello ./cmd/hello
npmtest:
	cd ../app && npm test
outside:
	echo changed > ../../canary.txt
`

// writeWheel writes a pure-Python wheel by hand (PEP 427): the corpus
// installs it without an index.
func (f *fixture) writeWheel(t *testing.T, rel string) {
	t.Helper()
	files := map[string]string{
		"dayhello/__init__.py":                 "def hello():\n    return 'hello'\n",
		"dayhello-0.1.dist-info/METADATA":      "Metadata-Version: 2.1\nName: dayhello\nVersion: 0.1\n",
		"dayhello-0.1.dist-info/WHEEL":         "Wheel-Version: 1.0\nGenerator: day\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
		"dayhello-0.1.dist-info/top_level.txt": "dayhello\n",
	}
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	var record strings.Builder
	for _, name := range []string{"dayhello/__init__.py", "dayhello-0.1.dist-info/METADATA", "dayhello-0.1.dist-info/WHEEL", "dayhello-0.1.dist-info/top_level.txt"} {
		body := files[name]
		fw, err := w.Create(name)
		must(t, err)
		fw.Write([]byte(body))
		sum := sha256.Sum256([]byte(body))
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", name, base64.RawURLEncoding.EncodeToString(sum[:]), len(body))
	}
	record.WriteString("dayhello-0.1.dist-info/RECORD,,\n")
	fw, err := w.Create("dayhello-0.1.dist-info/RECORD")
	must(t, err)
	fw.Write([]byte(record.String()))
	must(t, w.Close())
	f.write(t, rel, buf.String())
}

// allowlist is the developer's: the programs of the corpus.
var allowlist = []string{
	"git", "go", "gofmt", "make", "npm", "npx", "cc", "gcc", "g++", "c++", "gcc-12", "x86_64-linux-gnu-gcc-12", "clang", "ld", "as", "ar",
	"cargo", "rustc", "tar", "zip", "unzip", "gzip", "gunzip", "zcat", "bzip2", "xz", "zstd", "lz4", "7z", "rg", "jq", "yq",
	"grep", "find", "sort", "ls", "cat", "head", "wc", "diff", "tee", "mkdir", "cp", "mv", "rm", "touch", "echo",
}

// start runs the server on the allowed directory with the developer's
// allowlist and nothing else configured but the mode.
// startSSHAgent runs the ssh-agent a developer's session has, holding
// key: the sandbox never lets git read a private key, so ssh signing goes
// through the agent.
func (f *fixture) startSSHAgent(t *testing.T, key string) {
	t.Helper()
	f.agentSock = filepath.Join(f.root, "ssh-agent.sock")
	agent := exec.Command("ssh-agent", "-D", "-a", f.agentSock)
	agent.Env = f.env
	stdout, err := agent.StdoutPipe()
	must(t, err)
	must(t, agent.Start())
	t.Cleanup(func() { agent.Process.Kill(); agent.Wait() })
	// It prints its environment lines once its socket listens.
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || !strings.Contains(line, "SSH_AUTH_SOCK") {
		t.Fatalf("ssh-agent did not start: %q %v", line, err)
	}
	add := exec.Command("ssh-add", "-q", key)
	add.Env = append(append([]string{}, f.env...), "SSH_AUTH_SOCK="+f.agentSock)
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("ssh-add: %v\n%s", err, out)
	}
}

func (f *fixture) start(t *testing.T) {
	t.Helper()
	allow := append([]string{}, allowlist...)
	allow = append(allow, filepath.Join(f.work, "venv/bin/pip"), f.probe())
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + f.home, "LANG=C.UTF-8", "USER=" + os.Getenv("USER"),
		"ALLOW_COMMANDS=" + strings.Join(allow, ","),
		"MCP_SHELL_GIT_ALLOW_SUBCOMMANDS=lfs",
		"MCP_SHELL_CHILD_ENV_ALLOWLIST=GOCACHE",
		"MCP_SHELL_RETAIN_DIR=" + filepath.Join(f.root, "retain"),
		"MCP_SHELL_AUDIT_LOG=" + f.auditLog,
		"MCP_SHELL_LOG_LEVEL=info",
		// A developer who shares their warm caches with the sandbox.
		"MCP_SHELL_SANDBOX_USER_CACHES=1",
	}
	if f.agentSock != "" {
		env = append(env, "SSH_AUTH_SOCK="+f.agentSock)
		env[slices.Index(env, "MCP_SHELL_CHILD_ENV_ALLOWLIST=GOCACHE")] = "MCP_SHELL_CHILD_ENV_ALLOWLIST=GOCACHE,SSH_AUTH_SOCK"
	}
	// The cold server: the developer's allowlist and nothing else. With
	// the sandbox off its go uses the developer's own warm cache, as in
	// their shell; under the default the sandbox's own, which starts
	// empty in a home without caches.
	f.coldHome = filepath.Join(f.root, "coldhome")
	must(t, os.MkdirAll(f.coldHome, 0o755))
	if f.mode == "off" {
		must(t, os.Symlink(filepath.Join(f.home, ".cache"), filepath.Join(f.coldHome, ".cache")))
	}
	cold := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + f.coldHome, "LANG=C.UTF-8", "USER=" + os.Getenv("USER"),
		"ALLOW_COMMANDS=" + strings.Join(allow, ","), "MCP_SHELL_AUDIT_LOG=" + filepath.Join(f.root, "cold-audit.log")}
	if f.mode == "off" {
		env = append(env, "MCP_SHELL_SANDBOX=off")
		cold = append(cold, "MCP_SHELL_SANDBOX=off")
	}
	f.session, f.server = f.connect(t, env, f.serverLog)
	f.coldSession, _ = f.connect(t, cold, filepath.Join(f.root, "cold-server.log"))
}

// connect starts the server with env, its stderr in logPath, and
// connects a client to it.
func (f *fixture) connect(t *testing.T, env []string, logPath string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	logFile, err := os.Create(logPath)
	must(t, err)
	t.Cleanup(func() { logFile.Close() })
	cmd := exec.Command(binary, f.work)
	cmd.Env = env
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "day", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		log, _ := os.ReadFile(logPath)
		t.Fatalf("connect: %v\n%s", err, log)
	}
	t.Cleanup(func() { s.Close() })
	return s, cmd
}

// warmCache is a build cache beneath the cold server's home that go has
// already filled (its "00" entry directory), "" while there is none.
func (f *fixture) warmCache() string {
	var found string
	filepath.WalkDir(f.coldHome, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "go-build" && found == "" {
			if _, err := os.Stat(filepath.Join(path, "00")); err == nil {
				found = path
			}
		}
		return nil
	})
	return found
}

// outcome is what one call did.
type outcome struct {
	ok   bool
	exit string // exit status, "refused", "timeout" ...
	text string // the result's text
}

// call runs one row and returns its outcome.
func (f *fixture) call(t *testing.T, r row) outcome {
	t.Helper()
	args := map[string]any{"command": r.argv, "directory": filepath.Join(f.work, r.dir)}
	if r.stdin != "" {
		args["stdin"] = r.stdin
	}
	if len(r.envs) > 0 {
		args["envs"] = r.envs
	}
	session := f.session
	if r.cold {
		// No timeout in the call: the default's, with every package's
		// export data compiled into the empty cache.
		if c := f.warmCache(); c != "" && f.mode != "off" {
			return outcome{exit: "warm", text: "the cold server already has a build cache: " + c}
		}
		session = f.coldSession
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: args})
	if err != nil {
		return outcome{exit: "protocol", text: err.Error()}
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	o := outcome{text: text.String()}
	var out struct {
		ExitCode *int `json:"exit_code"`
		TimedOut bool `json:"timed_out"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	switch {
	case res.StructuredContent == nil || json.Unmarshal(raw, &out) != nil:
		o.exit = "refused"
	case out.TimedOut:
		o.exit = "timeout"
	case out.ExitCode == nil:
		o.exit = "signal"
	default:
		o.exit = fmt.Sprint(*out.ExitCode)
		o.ok = *out.ExitCode == 0 && !res.IsError
	}
	if o.ok && r.want != "" && !strings.Contains(o.text, r.want) {
		o.ok, o.exit = false, "output"
	}
	return o
}
