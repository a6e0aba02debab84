package argvrules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// round2Dir is a working directory for the issue 12 rows: ordinary files,
// a package, an input list, and symlinks planted where programs write
// under names they make up (each leads outside).
func round2Dir(t *testing.T) string {
	t.Helper()
	dir := testDir(t)
	mk := func(p, content string) {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(content), 0o644)
	}
	mk("data.txt", "b\na\n")
	mk("src.txt", "x\n")
	mk("package.json", `{"name":"p","version":"1.0.0"}`)
	mk("urls.txt", "https://example.com/a.tgz\nhttps://example.com/.gitconfig\n")
	mk("good-urls.txt", "https://example.com/a.tgz\n")
	mk("build/.keep", "")
	mk("cr/Cargo.toml", "[package]\nname = \"cr\"\n")
	mk("planted/.keep", "")
	for name, target := range map[string]string{
		"planted/dl.tgz": "/tmp/elsewhere/dl", "planted/xaa": "/tmp/elsewhere/xaa",
		"m.mgc": "/tmp/elsewhere/m", "planted/p-1.0.0.tgz": "/tmp/elsewhere/p",
		"planted/awkvars.out": "/tmp/elsewhere/v",
	} {
		os.Symlink(target, filepath.Join(dir, name))
	}
	return dir
}

// round2Rows are one test per class of issue 12 for the families in this
// package (awk's are in TestAwkDialectRows; the policy, redirect and git
// packages test theirs): each row fails on the code before the issue.
var round2Rows = []row{
	// class 6: go -C DIR is where go writes
	{a("go", "-C", "/tmp/elsewhere/gdir", "build", "-o", "bin", "."), "go.output-path"},
	{a("go", "-C", "../x", "build", "."), "go.output-path"},
	{a("go", "-C", "sub", "build", "-o", "../../x", "."), "go.output-path"},
	{a("go", "-C", "out", "mod", "tidy"), "go.output-path"}, // out -> /tmp
	{a("go", "-C", "sub", "build", "-o", "bin/app", "."), ""},
	{a("go", "-C=sub", "test", "-coverprofile=c.out", "./..."), ""},
	// class 6: cargo's pass-through arguments and toolchain paths
	{a("cargo", "rustc", "--", "-o", "/tmp/elsewhere/x"), "cargo.output-path"},
	{a("cargo", "rustc", "--", "-o/tmp/elsewhere/x"), "cargo.output-path"},
	{a("cargo", "rustc", "--", "--emit=link=/tmp/elsewhere/x"), "cargo.output-path"},
	{a("cargo", "rustc", "--", "--emit", "asm,obj=../x.o"), "cargo.output-path"},
	{a("cargo", "rustc", "--", "--out-dir", "/tmp/x"), "cargo.output-path"},
	{a("cargo", "rustc", "--", "-C", "incremental=/tmp/x"), "cargo.output-path"},
	{a("cargo", "rustc", "--", "@args.txt"), "cargo.exec-option"},
	{a("cargo", "rustc", "--", "-Zdump-mir-dir=/tmp/x"), "cargo.exec-option"},
	{a("cargo", "rustc", "--", "-C", "llvm-args=-info-output-file=/tmp/x"), "cargo.exec-option"},
	{a("cargo", "rustc", "--", "--extern", "m=/tmp/libm.so"), "cargo.exec-option"},
	{a("cargo", "rustdoc", "--", "-o", "/tmp/doc"), "cargo.output-path"},
	{a("cargo", "test", "--", "--logfile", "/tmp/elsewhere/log"), "cargo.output-path"},
	{a("cargo", "+/tmp/elsewhere/tc", "build"), "cargo.exec-option"},
	{a("cargo", "+./tc", "build"), "cargo.exec-option"},
	{a("cargo", "+nightly-2024-05-01", "build"), ""},
	{a("cargo", "rustc", "--release", "--", "-C", "opt-level=3", "--emit=asm"), ""},
	{a("cargo", "test", "--", "--nocapture", "--test-threads=1"), ""},
	{a("cargo", "build", "--target-dir", "build"), ""},
	// class 6: curl writes through uploads, globs and remote names
	{a("curl", "-sS", "-T", "src.txt", "file:///tmp/elsewhere/x"), "curl.output-path"},
	{a("curl", "-T", "src.txt", "FILE://localhost/tmp/elsewhere/x"), "curl.output-path"},
	{a("curl", "-T", "src.txt", "--proto-default", "file", "/tmp/elsewhere/x"), "curl.output-path"},
	{a("curl", "http://x/{a,/tmp/elsewhere/b}", "-o", "#1"), "curl.output-path"},
	{a("curl", "http://x/{a,..}", "-o", "#1/x"), "curl.output-path"},
	{a("curl", "-O", "http://x/.gitconfig"), "curl.output-path"},
	{a("curl", "--output-dir", "planted", "-O", "http://x/dl.tgz"), "curl.output-path"},
	{a("curl", "-OJ", "http://x/f"), "curl.output-path"},
	{a("curl", "-T", "src.txt", "https://x/upload"), ""},
	{a("curl", "http://x/{a,b}.txt", "-o", "out_#1.txt"), ""},
	{a("curl", "-O", "http://x/release.tgz"), ""},
	// class 4: names programs make up
	{a("wget", "-q", "https://example.com/.gitconfig"), "wget.output-path"},
	{a("wget", "-P", "planted", "https://example.com/dl.tgz"), "wget.output-path"},
	{a("wget", "--content-disposition", "https://example.com/f"), "wget.output-path"},
	{a("wget", "-e", "content_disposition=on", "https://example.com/f"), "wget.output-path"},
	{a("wget", "-i", "urls.txt"), "wget.output-path"},
	{a("wget", "-i", "-"), "wget.output-path"},
	{a("wget", "-i", "good-urls.txt"), ""},
	{a("wget", "-r", "-np", "https://example.com/docs/"), ""},
	{a("split", "-l", "10", "data.txt", "planted/x"), "split.output-path"},
	{a("split", "-a", "1", "data.txt", ".gitconfi"), "split.output-path"},
	{a("split", "-l", "10", "data.txt", "part_"), ""},
	{a("file", "-C", "-m", "planted/m"), "file.output-path"},
	{a("file", "-C", "-m", "magic"), ""},
	{a("npm", "pack", "--pack-destination", "planted"), "npm.output-path"},
	{a("npm", "install", "--prefix", "out"), "npm.output-path"},
	{a("npm", "pack"), ""},
	{a("npm", "ci"), ""},
	// false rejections fixed, and class 7
	{a("wget", "-e", "robots=off", "-r", "https://x.example"), ""},
	{a("wget", "-e", "tries = 3", "https://x.example/f"), ""},
	{a("wget", "-e", "Use-AskPass = ./x", "0"), "wget.exec-option"},
	{a("wget", "-e", "output_document=/tmp/x", "http://x/"), "wget.output-path"},
	{a("wget", "-e", "frobnicate=1", "http://x/"), "wget.exec-option"},
	{a("npm", "--registry", "https://r", "--loglevel", "silent", "exec", "-c", "id"), "npm.exec-command"},
	{a("npm", "--cache", "c", "--tag", "t", "--before", "2020-01-01", "x", "cowsay"), "npm.exec-command"},
	{a("npm", "--", "exec", "id"), "npm.exec-command"},
	{a("npm", "-dd", "exec", "id"), "npm.exec-command"},
	{a("npm", "test", "-qc", "id"), "npm.exec-option"},
	{a("npm", "pkg", "set", "scripts.test=touch /tmp/p"), "npm.exec-command"},
	{a("npm", "pkg", "set", "scripts[postinstall]=id"), "npm.exec-command"},
	{a("npm", "pkg", "set", "version=1.0.1"), ""},
	{a("npm", "run", "e2e", "--", "--browser", "chrome"), ""},
	{a("npm", "test", "--", "--script-shell", "x"), ""},
	{a("pip", "--prox", "install", "--cer", "list", "config", "set", "global.python", "/tmp/x"), "pip.config-write"},
	{a("pip", "--cache-dir", "config", "config", "set", "x", "y"), "pip.config-write"},
	{a("pip", "--tim", "5", "--retr", "list", "config", "unset", "x"), "pip.config-write"},
	{a("pip", "-v", "--proxy", "config", "list"), ""},
	{a("pip", "--timeout", "5", "install", "-r", "requirements.txt"), ""},
	{a("sort", "-o", "sorted.txt", "data.txt"), ""},
	{a("sort", "-o", "/tmp/elsewhere/x", "data.txt"), "sort.output-path"},
	{a("make", "VERBOSE=1"), ""},
	{a("make", "test", "TESTS=unit"), ""},
	{a("make", "CC=./evil"), "make.variable-assignment"},
	{a("zip", "-r", "out.zip", "dir"), ""},
	{a("zip", "--help"), "zip.no-archive"},
	{a("kubectl", "rollout", "status", "deploy/web"), ""},
	{a("kubectl", "rollout", "undo", "deploy/web"), "kubectl.command"},
}

func TestRound2Rows(t *testing.T) {
	ctx := pinCtx(t, round2Dir(t))
	for _, r := range round2Rows {
		expectRule(t, ctx, r.argv, r.rule)
	}
}

// TestKubectlHomeConfig (class 11): without HOME and KUBECONFIG for
// children, kubectl reads ./.kube/config; refused when the working
// directory has a .kube, allowed otherwise or with HOME passed.
func TestKubectlHomeConfig(t *testing.T) {
	dir := testDir(t)
	plain := pinCtx(t, dir)
	os.Mkdir(filepath.Join(t.TempDir(), ".kube"), 0o755)
	kdir := testDir(t)
	os.MkdirAll(filepath.Join(kdir, ".kube"), 0o755)
	withKube := pinCtx(t, kdir)
	argv := a("kubectl", "get", "pods")
	for _, tt := range []struct {
		ctx  Context
		env  []string
		want refusal.Code
	}{
		{plain, nil, ""},
		{withKube, nil, "kubectl.home-config"},
		{withKube, []string{"HOME="}, "kubectl.home-config"},
		{withKube, []string{"HOME=/home/u"}, ""},
		{withKube, []string{"KUBECONFIG=/etc/kube.conf"}, ""},
	} {
		c := tt.ctx
		c.Env = envLookup(tt.env)
		expectRule(t, c, argv, tt.want)
	}
}
