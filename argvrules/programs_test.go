package argvrules

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// row is one table case: argv and the expected verdict, "" for allow or
// the expected Rejection.Rule.
type row struct {
	argv []string
	rule refusal.Code
}

func a(s ...string) []string { return s }

// tableRows are the recognizer table tests, grouped by program.
var tableRows = []row{
	// rg
	{a("rg", "TODO", "."), ""},
	{a("rg", "-n", "-i", "--glob", "*.go", "func main"), ""},
	{a("rg", "-e", "--pre=./x", "."), ""},
	{a("rg", "--regexp=--pre", "."), ""},
	{a("rg", "--", "--pre=./x", "."), ""},
	{a("rg", "-uuu", "-A3", "-C", "2", "x"), ""},
	{a("rg", "--no-search-zip", "x"), ""},
	{a("rg", "--pre=./payload.sh", "TODO", "."), "rg.exec-option"},
	{a("rg", "--pre", "./payload.sh", "TODO"), "rg.exec-option"},
	{a("rg", "TODO", ".", "--pre=x"), "rg.exec-option"},
	{a("rg", "--pre-glob", "*.pdf", "x"), "rg.exec-option"},
	{a("rg", "--hostname-bin=./x", "x"), "rg.exec-option"},
	{a("rg", "-z", "x"), "rg.exec-option"},
	{a("rg", "-iz", "x"), "rg.exec-option"},
	{a("rg", "--search-zip", "x"), "rg.exec-option"},
	{a("rg", "--pr=./x", "x"), "rg.unknown-option"},
	{a("rg", "--pre-g=x", "x"), "rg.unknown-option"},
	{a("rg", "-Q", "x"), "rg.unknown-option"},
	{a("rg", "--engine", "--pre=./x", "TODO", "."), "rg.ambiguous-value"},
	{a("rg", "--engine", "pcre2", "TODO", "."), ""},
	{a("rg", "--engine=auto", "TODO", "."), ""},
	{a("wget", "--backups", "-O", "/tmp/x", "http://x/"), "wget.output-path"},
	{a("wget", "--backups=2", "-O", "page.html", "http://x/"), ""},
	// split, sdiff, diff3
	{a("split", "-l", "1000", "big.csv", "part_"), ""},
	{a("split", "-1000", "big.csv"), ""},
	{a("split", "-b", "999", "--additional-suffix", "suffix", "/etc/hosts", "prefix"), ""},
	{a("split", "--filter=/bin/sh", "/etc/hosts"), "split.exec-option"},
	{a("split", "--fil=touch x", "f"), "split.exec-option"},
	{a("split", "--f", "touch x", "f"), "split.exec-option"},
	{a("split", "f", "--filter", "x"), "split.exec-option"},
	{a("split", "--", "--filter=x"), ""},
	{a("sdiff", "a", "b"), ""},
	{a("sdiff", "-s", "-w", "80", "a", "b"), ""},
	{a("sdiff", "--diff-program=./x", "a", "b"), "sdiff.exec-option"},
	{a("sdiff", "--diff=./x", "a", "b"), "sdiff.exec-option"},
	{a("sdiff", "-o", "out", "a", "b"), "sdiff.interactive"},
	{a("sdiff", "-so", "out", "a", "b"), "sdiff.interactive"},
	{a("diff3", "-m", "a", "o", "b"), ""},
	{a("diff3", "--diff-program", "./x", "a", "o", "b"), "diff3.exec-option"},
	{a("diff3", "a", "o", "b", "--d=./x"), "diff3.exec-option"},
	// wget
	{a("wget", "-q", "https://example.com/f.tgz"), ""},
	{a("wget", "-O", "-", "http://127.0.0.1:9/"), ""},
	{a("wget", "-O", "out.html", "http://x/"), ""},
	{a("wget", "-nv", "-P", "sub", "http://x/"), ""},
	{a("wget", "-P", "newdir/deeper", "http://x/"), ""},
	{a("wget", "--no-check-certificate", "-c", "http://x/"), ""},
	{a("wget", "--use-askpass", "./payload.sh", "0"), "wget.exec-option"},
	{a("wget", "--use-ask=./payload.sh", "0"), "wget.exec-option"},
	{a("wget", "-e", "use_askpass=./payload.sh", "0"), "wget.exec-option"},
	{a("wget", "-qe", "x=y", "0"), "wget.exec-option"},
	{a("wget", "--exe=x", "0"), "wget.exec-option"},
	{a("wget", "--e=x", "0"), "wget.ambiguous-option"},
	{a("wget", "--config=f", "0"), "wget.config"},
	{a("wget", "-b", "http://x/"), "wget.background"},
	{a("wget", "-O", "/tmp/outside/file", "http://x/"), "wget.output-path"},
	{a("wget", "-O/tmp/x", "http://x/"), "wget.output-path"},
	{a("wget", "--output-document=../x", "http://x/"), "wget.output-path"},
	{a("wget", "--output-d", "/etc/x", "http://x/"), "wget.output-path"},
	{a("wget", "-i", "/etc/hosts", "-o", "/tmp/outside/file"), "wget.output-path"},
	{a("wget", "-a", "/tmp/log", "http://x/"), "wget.output-path"},
	{a("wget", "--append=/tmp/log", "http://x/"), "wget.output-path"},
	{a("wget", "-P", "/tmp", "http://x/"), "wget.output-path"},
	{a("wget", "--directory-prefix=..", "http://x/"), "wget.output-path"},
	{a("wget", "-P", "file.txt", "http://x/"), "wget.output-path"},
	{a("wget", "--save-cookies", "/tmp/c", "http://x/"), "wget.output-path"},
	// curl
	{a("curl", "-sI", "https://example.com"), ""},
	{a("curl", "-fsSL", "-o", "out.json", "https://x/"), ""},
	{a("curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "https://x/"), ""},
	{a("curl", "-X", "POST", "-H", "Content-Type: application/json", "-d", "@body.json", "http://x/"), ""},
	{a("curl", "--no-progress-meter", "--compressed", "http://x/"), ""},
	{a("curl", "--output-dir", "sub", "-O", "http://x/f"), ""},
	{a("curl", "file:///etc/hosts"), ""},
	{a("curl", "--", "-o"), ""},
	{a("curl", "file:///etc/hosts", "-o", "/tmp/outside/file"), "curl.output-path"},
	{a("curl", "-so/tmp/x", "http://x/"), "curl.output-path"},
	{a("curl", "http://x/", "--output", "../x"), "curl.output-path"},
	{a("curl", "-D", "/tmp/h", "http://x/"), "curl.output-path"},
	{a("curl", "--dump-header=/tmp/h", "http://x/"), "curl.output-path"},
	{a("curl", "--output-dir", "/tmp", "-O", "http://x/f"), "curl.output-path"},
	{a("curl", "-c", "/tmp/jar", "http://x/"), "curl.output-path"},
	{a("curl", "--trace", "/tmp/t", "http://x/"), "curl.output-path"},
	{a("curl", "--trace-ascii=/tmp/t", "http://x/"), "curl.output-path"},
	{a("curl", "--libcurl", "/tmp/c.c", "http://x/"), "curl.output-path"},
	{a("curl", "--stderr", "/tmp/e", "http://x/"), "curl.output-path"},
	{a("curl", "-w", "%output{/tmp/x}%{url}", "http://x/"), "curl.output-path"},
	{a("curl", "-w", "@fmt.txt", "http://x/"), "curl.output-path"},
	{a("curl", "-s", "-o", "/dev/stdout", "http://x/"), ""},
	{a("curl", "--engine", "./evil.so", "http://x/"), "curl.exec-option"},
	{a("curl", "-K", "cfg", "http://x/"), "curl.exec-option"},
	{a("curl", "-sK-", "http://x/"), "curl.exec-option"},
	{a("curl", "--config=cfg"), "curl.exec-option"},
	{a("curl", "--unix-socket", "/var/run/docker.sock", "http://x/containers/json"), "curl.exec-option"},
	{a("curl", "--out", "/tmp/x", "http://x/"), "curl.unknown-option"},
	{a("curl", "--eng", "x", "http://x/"), "curl.unknown-option"},
	// make
	{a("make"), ""},
	{a("make", "test"), ""},
	{a("make", "-j4", "build"), ""},
	{a("make", "-j", "4", "build"), ""},
	{a("make", "-C", "sub", "-f", "Makefile.ci", "all"), ""},
	{a("make", "-s", "--no-print-directory", "lint"), ""},
	{a("make", "--eval=$(shell /bin/sh 1>&0)", "."), "make.eval"},
	{a("make", "-s", "-E$(shell touch /tmp/PWNED)", "."), "make.eval"},
	{a("make", "-sE", "x"), "make.eval"},
	{a("make", "-s", "--eval", "$(shell touch /tmp/PWNED)", "."), "make.eval"},
	{a("make", "--ev=x"), "make.eval"},
	{a("make", "--e=x"), "make.ambiguous-option"},
	{a("make", "all", "-E", "x"), "make.eval"},
	{a("make", "-s", ".SHELLFLAGS=-c touch\\ /tmp/PWNED;:"), "make.variable-assignment"},
	{a("make", "CFLAGS=$(shell touch /tmp/PWNED)"), "make.variable-assignment"},
	{a("make", "SHELL:=/tmp/x"), "make.variable-assignment"},
	{a("make", "X+=y"), ""},
	{a("make", "X?=y"), ""},
	{a("make", "X!=id"), "make.variable-assignment"},
	{a("make", "--", "X=y"), ""},
	{a("make", "VERBOSE=1"), ""},
	{a("make", "test", "TESTS=unit"), ""},
	{a("make", "V=1", "-j4"), ""},
	{a("make", "CFLAGS=-O2 -g", "CC=clang"), ""},
	{a("make", "install", "PREFIX=/usr/local"), ""},
	{a("make", "O=sub"), ""},
	{a("make", "DEBUG="), ""},
	{a("make", "CC=/tmp/elsewhere/evil"), "make.variable-assignment"},
	{a("make", "CC=./evil"), "make.variable-assignment"},
	{a("make", "CC=sh"), "make.variable-assignment"},
	{a("make", "PYTHON=python3"), "make.variable-assignment"},
	{a("make", "CFLAGS=-fplugin=/tmp/x.so"), "make.variable-assignment"},
	{a("make", "CFLAGS=`id`"), "make.variable-assignment"},
	{a("make", "X=a;id"), "make.variable-assignment"},
	{a("make", "MAKEFLAGS=--eval=x"), "make.variable-assignment"},
	{a("make", "MAKEFILES=x.mk"), "make.variable-assignment"},
	{a("make", "SHELL=bash"), "make.variable-assignment"},
	{a("make", "$(X)=y"), "make.variable-assignment"},
	{a("make", "override X=y"), "make.variable-assignment"},
	{a("make", "-f", "-"), "make.stdin-makefile"},
	{a("make", "-f-"), "make.stdin-makefile"},
	{a("make", "--file=/dev/stdin"), "make.stdin-makefile"},
	{a("make", "--makef", "/proc/self/fd/0"), "make.stdin-makefile"},
	// go
	{a("go", "version"), ""},
	{a("go", "env", "GOPATH"), ""},
	{a("go", "build", "./..."), ""},
	{a("go", "list", "./..."), ""},
	{a("go", "test", "./..."), ""},
	{a("go", "test", "-race", "-count=1", "-run", "TestX", "./pkg/..."), ""},
	{a("go", "test", ".", "-fuzz=FuzzA", "-test.fuzzcachedir=/tmp/elsewhere/fz"), "go.output-path"}, // red-team 3
	{a("go", "test", ".", "-fuzz=FuzzA", "-test.fuzzcachedir=fz"), ""},
	{a("go", "vet", "./..."), ""},
	{a("go", "run", "."), ""},
	{a("go", "build", "-o", "bin/app", "./cmd/app"), ""},
	{a("go", "build", "-o", "sub/", "./..."), ""},
	{a("go", "build", "-o", "sub", "./..."), ""},
	{a("curl", "-o", "new/dir/f", "--create-dirs", "http://x/"), ""},
	{a("go", "build", "-ldflags", "-X main.version=1.0 -s -w", "."), ""},
	{a("go", "test", "-coverprofile=cover.out", "./..."), ""},
	{a("go", "tool", "cover", "-html=cover.out", "-o", "cover.html"), ""},
	{a("go", "tool", "cover", "-html=cover.out"), "go.exec-flag"},
	{a("go", "tool"), ""},
	{a("go", "-C", "sub", "build", "."), ""},
	{a("go", "mod", "tidy"), ""},
	{a("go", "run", "-exec", "touch /tmp/PWNED", "./payload.go"), "go.exec-flag"},
	{a("go", "test", "./...", "-exec=./x"), "go.exec-flag"},
	{a("go", "test", "--exec", "./x", "./..."), "go.exec-flag"},
	{a("go", "build", "-toolexec", "./x", "."), "go.exec-flag"},
	{a("go", "build", "--toolexec=./x", "."), "go.exec-flag"},
	{a("go", "vet", "-vettool=./x", "./..."), "go.exec-flag"},
	{a("go", "build", "-overlay", "o.json", "."), "go.exec-flag"},
	{a("go", "build", "-ldflags=-extld=./x -linkmode=external", "."), "go.exec-flag"},
	{a("go", "env", "-w", "GOFLAGS=-toolexec=x"), "go.env-write"},
	{a("go", "env", "-w", "CC=x"), "go.env-write"},
	{a("go", "env", "-u", "CC"), "go.env-write"},
	{a("go", "generate", "./..."), "go.exec-command"},
	{a("go", "bug"), "go.exec-command"},
	{a("go", "tool", "evil"), "go.external-tool"},
	{a("go", "tool", "example.com/x/cmd/y"), "go.external-tool"},
	{a("go", "run", "golang.org/x/tools/cmd/stringer@latest"), "go.remote-run"},
	{a("go", "build", "-o", "/tmp/app", "."), "go.output-path"},
	{a("go", "test", "-cpuprofile", "/tmp/cpu.out", "."), "go.output-path"},
	{a("go", "test", "-test.coverprofile=../c.out", "."), "go.output-path"},
	{a("go", "frobnicate"), "go.unknown-command"},
	{a("go", "-x", "build"), "go.unknown-option"},
	// npm, npx, pnpm, yarn
	{a("npm", "test"), ""},
	{a("npm", "ci"), ""},
	{a("npm", "install"), ""},
	{a("npm", "install", "--global", "typescript"), ""},
	{a("npm", "install", "--save-dev", "vitest"), ""},
	{a("npm", "run", "build"), ""},
	{a("npm", "run", "test", "--", "--watch=false"), ""},
	{a("npm", "init", "-y"), ""},
	{a("npm", "--prefix", "web", "run", "lint"), ""},
	{a("npm", "config", "get", "registry"), ""},
	{a("npm", "exec", "/bin/sh"), "npm.exec-command"},
	{a("npm", "exec", "-c", "touch /tmp/PWNED"), "npm.exec-command"},
	{a("npm", "x", "cowsay"), "npm.exec-command"},
	{a("npm", "--prefix", "web", "exec", "x"), "npm.exec-command"},
	{a("npm", "run", "t", "--script-shell=./payload.sh"), "npm.exec-option"},
	{a("npm", "--script-shell", "./x", "test"), "npm.exec-option"},
	{a("npm", "test", "--script-sh=./x"), "npm.exec-option"},
	{a("npm", "install", "--node-options=--require ./x.js"), "npm.exec-option"},
	{a("npm", "install", "--userconfig", "x.npmrc"), "npm.exec-option"},
	{a("npm", "init", "vite"), "npm.exec-command"},
	{a("npm", "create", "vite@latest", "app"), "npm.exec-command"},
	{a("npm", "explore", "x", "--", "sh"), "npm.exec-command"},
	{a("npm", "edit", "x"), "npm.exec-command"},
	{a("npm", "docs", "x"), "npm.exec-command"},
	{a("npm", "config", "edit"), "npm.exec-command"},
	{a("npm", "config", "set", "script-shell=./x"), "npm.config-write"},
	{a("npm", "set", "script-shell", "./x"), "npm.config-write"},
	{a("npm", "exe", "x"), "npm.exec-command"},
	{a("npm", "explo", "x"), "npm.exec-command"},
	{a("npm", "ex", "x"), "npm.exec-command"},
	{a("npm", "cre", "vite"), "npm.exec-command"},
	{a("npm", "in", "lodash"), ""},
	{a("npm", "i"), ""},
	{a("npm", "t"), ""},
	{a("npm", "r", "lodash"), ""},
	{a("npm", "help"), ""},
	{a("npm", "-g", "install", "x"), ""},
	{a("npm", "--global", "install", "docs"), ""},
	{a("npm", "--loglevel", "exec", "install"), "npm.exec-command"},
	{a("npm", "-script-shell=./x", "test"), "npm.exec-option"},
	{a("npx", "cowsay"), "npx.categorical"},
	{a("npx", "--version"), "npx.categorical"},
	{a("pnpm", "install"), ""},
	{a("pnpm", "run", "build"), ""},
	{a("pnpm", "--filter", "web", "run", "build"), ""},
	{a("pnpm", "exec", "sh"), "pnpm.exec-command"},
	{a("pnpm", "dlx", "x"), "pnpm.exec-command"},
	{a("pnpm", "create", "vite"), "pnpm.exec-command"},
	{a("pnpm", "sh", "-c", "id"), "pnpm.unknown-command"},
	{a("pnpm", "test", "--config.script-shell=./x"), "pnpm.exec-option"},
	{a("yarn"), ""},
	{a("yarn", "install", "--frozen-lockfile"), ""},
	{a("yarn", "build"), ""},
	{a("yarnpkg", "test"), ""},
	{a("yarn", "dlx", "x"), "yarn.exec-command"},
	{a("yarn", "exec", "id"), "yarn.exec-command"},
	{a("yarn", "node", "-e", "1"), "yarn.exec-command"},
	{a("yarn", "create", "react-app", "x"), "yarn.exec-command"},
	{a("yarn", "--use-yarnrc", "x", "install"), "yarn.exec-option"},
	// pip
	{a("pip", "install", "-r", "requirements.txt"), ""},
	{a("pip", "install", "-e", "."), ""},
	{a("pip", "install", "--editable", "."), ""},
	{a("pip", "list", "--local"), ""},
	{a("pip3", "download", "--python-version", "3.11", "x"), ""},
	{a("pip", "--cache-dir", "c", "install", "x"), ""},
	{a("pip", "config", "list"), ""},
	{a("pip", "config", "--editor", "/bin/sh -s", "edit"), "pip.exec-option"},
	{a("pip", "config", "--user", "--edit=touch /tmp/PWNED", "edit"), "pip.exec-option"},
	{a("pip", "config", "edit"), "pip.exec-command"},
	{a("pip", "--python", "./x", "list"), "pip.exec-option"},
	{a("pip", "list", "--pyth=./x"), "pip.exec-option"},
	{a("pip", "install", "x", "--log", "/tmp/log"), "pip.output-path"},
	{a("pip", "install", "x", "--local-log=/tmp/log"), "pip.output-path"},
	{a("pip", "frobnicate"), "pip.unknown-command"},
	// cargo
	{a("cargo", "check"), ""},
	{a("cargo", "build", "--release"), ""},
	{a("cargo", "+nightly", "test", "--", "--nocapture"), ""},
	{a("cargo", "test", "linker_tests"), ""},
	{a("cargo", "clippy", "--all-targets"), ""},
	{a("cargo", "install", "ripgrep"), ""},
	{a("cargo", "--config", "target.x86_64-unknown-linux-gnu.runner='sh -c id'", "run"), "cargo.config"},
	{a("cargo", "build", "--config=build.rustc-wrapper='./x'"), "cargo.config"},
	{a("cargo", "build", "--config", "extra.toml"), "cargo.config"},
	{a("cargo", "install", "--path", "."), "cargo.install-path"},
	{a("cargo", "install", "--path=."), "cargo.install-path"},
	{a("cargo", "rustc", "--", "-C", "linker=./x"), "cargo.exec-option"},
	{a("cargo", "rustc", "--", "-Clink-arg=-fuse-ld=./x"), "cargo.exec-option"},
	{a("cargo", "rustdoc", "--", "--runtool", "./x"), "cargo.exec-option"},
	{a("cargo", "build", "--target", "x.json"), "cargo.exec-option"},
	{a("cargo", "doc", "--open"), "cargo.exec-option"},
	{a("cargo", "evil"), "cargo.external-command"},
	// zip
	{a("zip", "-r", "out.zip", "dir"), ""},
	{a("zip", "out.zip", "/etc/hosts", "-T", "-TT", "/bin/sh #"), "zip.exec-option"},
	{a("zip", "-q", "out.zip", "/etc/hosts", "-T", "--unzip-command=touch /tmp/PWNED #"), "zip.exec-option"},
	{a("zip", "-qT", "out.zip", "f"), "zip.exec-option"},
	{a("zip", "--unzip=x", "out.zip", "f"), "zip.exec-option"},
	// docker, podman, kubectl
	{a("docker", "images"), ""},
	{a("docker", "ps", "-a", "--format", "{{.ID}}"), ""},
	{a("docker", "version"), ""},
	{a("docker", "image", "ls"), ""},
	{a("docker", "compose", "-f", "c.yml", "ps"), ""},
	{a("docker", "logs", "-f", "web"), ""},
	{a("docker", "run", "-v", "/:/mnt", "--rm", "-it", "alpine", "chroot", "/mnt", "/bin/sh"), "docker.command"},
	{a("docker", "exec", "c", "sh"), "docker.command"},
	{a("docker", "create", "alpine"), "docker.command"},
	{a("docker", "start", "c"), "docker.command"},
	{a("docker", "build", "."), "docker.command"},
	{a("docker", "cp", "c0ffee:temp-file", "/tmp/outside/file"), "docker.command"},
	{a("docker", "compose", "up"), "docker.command"},
	{a("docker", "container", "run", "x"), "docker.command"},
	{a("docker", "-H", "tcp://evil:2375", "ps"), "docker.global-option"},
	{a("docker", "--host=unix:///x", "images"), "docker.global-option"},
	{a("docker", "--config", "dir", "images"), "docker.global-option"},
	{a("docker", "-c", "remote", "ps"), "docker.global-option"},
	{a("docker", "buildx", "build", "."), "docker.command"},
	{a("podman", "images"), ""},
	{a("podman", "ps", "-a"), ""},
	{a("podman", "run", "alpine"), "podman.command"},
	{a("podman", "--runtime", "./x", "ps"), "podman.global-option"},
	{a("podman", "unshare", "id"), "podman.command"},
	{a("kubectl", "get", "pods"), ""},
	{a("kubectl", "get", "pods", "-n", "kube-system", "-o", "wide"), ""},
	{a("kubectl", "-n", "x", "describe", "pod", "p"), ""},
	{a("kubectl", "logs", "-f", "deploy/web", "-c", "app"), ""},
	{a("kubectl", "config", "current-context"), ""},
	{a("kubectl", "auth", "can-i", "get", "pods"), ""},
	{a("kubectl", "exec", "-it", "p", "--", "sh"), "kubectl.command"},
	{a("kubectl", "run", "x", "--image=alpine"), "kubectl.command"},
	{a("kubectl", "debug", "node/x", "-it", "--image=busybox"), "kubectl.command"},
	{a("kubectl", "cp", "p:/x", "/tmp/x"), "kubectl.command"},
	{a("kubectl", "apply", "-f", "x.yaml"), "kubectl.command"},
	{a("kubectl", "create", "ns", "x"), "kubectl.command"},
	{a("kubectl", "port-forward", "p", "8080"), "kubectl.command"},
	{a("kubectl", "proxy"), "kubectl.command"},
	{a("kubectl", "attach", "p"), "kubectl.command"},
	{a("kubectl", "plugin", "list"), "kubectl.command"},
	{a("kubectl", "evil"), "kubectl.command"},
	{a("kubectl", "config", "set-context", "x"), "kubectl.command"},
	{a("kubectl", "--kubeconfig", "k.yaml", "get", "pods"), "kubectl.global-option"},
	{a("kubectl", "get", "pods", "--server=https://evil"), "kubectl.global-option"},
	{a("kubectl", "get", "pods", "--profile-output", "/tmp/p"), "kubectl.output-path"},
	{a("kubectl", "--frob", "x", "get"), "kubectl.unknown-option"},
	{a("kubectl", "-shttps://evil", "get", "pods"), "kubectl.global-option"},
	{a("kubectl", "get", "pods", "-As", "https://evil"), "kubectl.global-option"},
	{a("kubectl", "get", "pods", "-ojsonpath={.items[*].status}"), ""},
	{a("kubectl", "get", "pods", "-lapp=s"), ""},
	{a("kubectl", "-nkube-system", "get", "pods"), ""},
	// file
	{a("file", "README.md"), ""},
	{a("file", "-b", "--mime-type", "x.bin"), ""},
	{a("file", "-z", "x.gz"), "file.exec-option"},
	{a("file", "-bZ", "x.gz"), "file.exec-option"},
	{a("file", "--uncomp", "x.gz"), "file.ambiguous-option"},
	{a("file", "--uncompress", "x.gz"), "file.exec-option"},
}

// testDir returns a working directory with a regular file "file.txt", a
// directory "sub" and a symlink "out -> /tmp" leading outside.
func testDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/tmp", filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func TestRecognizers(t *testing.T) {
	ctx := pinCtx(t, testDir(t))
	for _, r := range tableRows {
		expectRule(t, ctx, r.argv, r.rule)
	}
}

// expectRule runs argv's recognizer and checks the verdict: allowed when
// rule is "", otherwise refused with that rule and a well-formed Rejection.
func expectRule(t *testing.T, ctx Context, argv []string, rule refusal.Code) {
	t.Helper()
	rec := recOf(famName(baseName(argv)))
	if rec == nil {
		t.Errorf("%q: no recognizer for %q", argv, argv[0])
		return
	}
	got := rec(argv, ctx)
	if got != nil {
		checkDeclared(t, got.Code)
	}
	switch {
	case rule == "" && got != nil:
		t.Errorf("%q: want allow, got %s: %s", argv, got.Code, got.Message)
	case rule != "" && got == nil:
		t.Errorf("%q: want %s, got allow", argv, rule)
	case rule != "" && got.Code != rule:
		t.Errorf("%q: want %s, got %s: %s", argv, rule, got.Code, got.Message)
	case got != nil:
		checkRejection(t, argv, got)
	}
}

// checkRejection asserts the shared Rejection contract: Arg is argv[Index]
// (or starts with it for "-o FILE" pairs) and Message names it.
func checkRejection(t *testing.T, argv []string, r *Rejection) {
	t.Helper()
	if !strings.HasPrefix(r.Message, "Command rejected by default security policy: ") {
		t.Errorf("%q: message %q lacks the policy prefix", argv, r.Message)
	}
	if r.Index < 0 || r.Index >= len(argv) {
		t.Errorf("%q: index %d out of range", argv, r.Index)
		return
	}
	if !strings.HasPrefix(r.Arg, argv[r.Index]) && r.Index != 0 {
		t.Errorf("%q: Arg %q is not argv[%d] %q", argv, r.Arg, r.Index, argv[r.Index])
	}
	if !strings.Contains(r.Message, strconv.Quote(r.Arg)) && !strings.Contains(r.Message, r.Arg) {
		t.Errorf("%q: message %q does not name %q", argv, r.Message, r.Arg)
	}
}

// TestOutputSymlinkEscape checks the os.Root part of the containment: a
// relative path through a symlink leading outside is refused, for files
// and directories alike.
func TestOutputSymlinkEscape(t *testing.T) {
	ctx := pinCtx(t, testDir(t))
	for _, argv := range [][]string{
		a("curl", "-o", "out/x", "http://x/"),
		a("wget", "-P", "out/newdir", "http://x/"),
		a("curl", "--output-dir", "out", "-O", "http://x/f"),
		a("go", "build", "-o", "out/", "."),
	} {
		fam := famName(baseName(argv))
		if r := recOf(fam)(argv, ctx); r == nil || !strings.HasSuffix(string(r.Code), ".output-path") {
			t.Errorf("%q: want output-path refusal, got %v", argv, r)
		}
	}
}
