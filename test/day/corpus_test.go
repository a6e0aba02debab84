//go:build linux

package day

// row is one command of the day, run in dir (relative to the allowed
// directory) after the rows before it, in both modes.
type row struct {
	family string
	argv   []string
	dir    string
	stdin  string
	envs   map[string]string
	want   string   // text the result must contain ("": exit status 0 is enough)
	needs  []string // programs the row needs on the test's PATH
	heavy  bool     // runs only under MCP_SHELL_TEST_HEAVY=1
	// light marks the rows of the sampled run (the README's test
	// command): the examples and one row of each family.
	light bool
	// cold runs the row on the fixture's cold server: the default
	// configuration, whose caches are empty until its first call.
	cold bool
}

func r(family, dir string, argv ...string) row { return row{family: family, dir: dir, argv: argv} }

func (x row) in(stdin string) row  { x.stdin = stdin; return x }
func (x row) wants(s string) row   { x.want = s; return x }
func (x row) need(p ...string) row { x.needs = p; return x }
func (x row) key() row             { x.light = true; return x }
func (x row) onCold() row          { x.cold = true; return x }

// corpus is the day, in order: later rows work on what earlier ones made.
// Every row must succeed unconfined.
var corpus = []row{
	// git: everyday history work, the script subcommands of git 2.39
	// (bisect, submodule: sh, basename, sed, gettext.sh), an octopus merge
	// (git-merge-octopus is a script), worktrees, rebase, LFS and signing.
	r("git", "repo", "git", "status", "--short").key(),
	r("git", "repo", "git", "config", "--get", "user.name").wants("Day Tester").key(),
	r("git", "repo", "git", "log", "--oneline", "-3"),
	r("git", "repo", "git", "diff", "HEAD~1", "--stat"),
	r("git", "repo", "git", "show", "--stat", "HEAD"),
	r("git", "repo", "git", "grep", "-n", "line"),
	r("git", "repo", "git", "blame", "a.txt"),
	r("git", "repo", "git", "describe", "--tags"),
	r("git", "repo", "git", "shortlog", "-sn", "HEAD"),
	r("git", "repo", "tee", "c.txt").in("new file\n").key(),
	r("git", "repo", "git", "add", "c.txt").key(),
	r("git", "repo", "git", "commit", "-q", "-m", "add c").key(),
	r("git", "repo", "git", "stash", "list"),
	r("git", "repo", "tee", "-a", "c.txt").in("more\n"),
	r("git", "repo", "git", "stash"),
	r("git", "repo", "git", "stash", "pop"),
	r("git", "repo", "git", "commit", "-q", "-am", "more c"),
	r("git", "repo", "git", "merge", "-q", "-m", "octopus", "b1", "b2", "b3").key(),
	r("git", "repo", "git", "bisect", "start", "HEAD", "v0.1").key(),
	r("git", "repo", "git", "bisect", "good"),
	r("git", "repo", "git", "bisect", "bad"),
	r("git", "repo", "git", "bisect", "log"),
	r("git", "repo", "git", "bisect", "reset"),
	r("git", "repo", "git", "switch", "-q", "-c", "topic", "HEAD~2"),
	r("git", "repo", "tee", "t.txt").in("topic\n"),
	r("git", "repo", "git", "add", "t.txt"),
	r("git", "repo", "git", "commit", "-q", "-m", "topic work"),
	r("git", "repo", "git", "rebase", "-q", "main").key(),
	r("git", "repo", "git", "rebase", "-q", "-i", "--autosquash", "HEAD~1"),
	r("git", "repo", "git", "switch", "-q", "main"),
	r("git", "repo", "git", "cherry-pick", "topic"),
	r("git", "repo", "git", "revert", "--no-edit", "HEAD"),
	r("git", "repo", "git", "tag", "-a", "v0.2", "-m", "release"),
	r("git", "repo", "git", "format-patch", "-q", "-1", "HEAD"),
	r("git", "repo", "git", "archive", "-o", "repo.tar", "HEAD"),
	r("git", "repo", "git", "worktree", "add", "-q", "../repo-wt", "-b", "wt").key(),
	r("git", "repo", "git", "worktree", "list"),
	r("git", "repo-wt", "git", "status", "--short"),
	r("git", "repo", "git", "worktree", "remove", "../repo-wt"),
	r("git", "repo", "git", "submodule", "add", "-q", "../sub", "sub").key(),
	r("git", "repo", "git", "submodule", "status"),
	r("git", "repo", "git", "commit", "-q", "-m", "add sub"),
	r("git", "", "git", "clone", "-q", "repo", "clone"),
	r("git", "clone", "git", "submodule", "update", "--init", "-q"),
	r("git", "clone", "git", "pull", "-q", "--ff-only"),
	r("git", "clone", "git", "fetch", "-q", "origin"),
	r("git", "repo", "git", "gc", "-q"),
	r("git", "lfs", "git", "lfs", "track", "*.bin").need("git-lfs").key(),
	r("git", "lfs", "git", "add", ".gitattributes", "blob.bin").need("git-lfs").key(),
	r("git", "lfs", "git", "commit", "-q", "-m", "lfs blob").need("git-lfs"),
	r("git", "lfs", "git", "lfs", "ls-files").wants("blob.bin").need("git-lfs"),
	r("git", "gpgsig", "git", "commit", "-q", "-S", "--allow-empty", "-m", "gpg signed").need("gpg").key(),
	r("git", "gpgsig", "git", "verify-commit", "HEAD").need("gpg"),
	r("git", "gpgsig", "git", "log", "--show-signature", "-1").need("gpg"),
	r("git", "sshsig", "git", "commit", "-q", "-S", "--allow-empty", "-m", "ssh signed").need("ssh-keygen").key(),
	r("git", "sshsig", "git", "verify-commit", "HEAD").need("ssh-keygen"),

	// go in a git repository: VCS stamping runs git.
	r("go", "gomod", "go", "version").key(),
	// Found where the toolchain installs it, which the default safe
	// PATH gains at start-up.
	r("go", "gomod", "go", "env", "GOROOT").wants("/usr/local/go").need("/usr/local/go/bin/go").key(),
	r("go", "gomod", "go", "build", "./...").key(),
	r("go", "gomod", "go", "build", "-o", "hello", "./cmd/hello"),
	r("go", "gomod", "go", "test", "./...").key(),
	r("go", "gomod", "go", "test", "-count=1", "-run", "TestAdd", "."),
	r("go", "gomod", "go", "vet", "./...").key(),
	// The first go vet of a server of the default configuration, in a
	// fresh module: the sandbox's own build cache starts empty, and the
	// call keeps the default timeout.
	r("go", "coldvet", "go", "vet", "./...").onCold().key(),
	r("go", "gomod", "go", "list", "./..."),
	r("go", "gomod", "go", "list", "-m", "all").key(),
	r("go", "gomod", "go", "mod", "tidy"),
	r("go", "gomod", "go", "mod", "download"),
	r("go", "gomod", "go", "mod", "verify"),
	r("go", "gomod", "go", "env", "GOCACHE"),
	r("go", "gomod", "go", "run", "./cmd/hello").wants("hello 2"),
	r("go", "gomod", "go", "install", "./cmd/hello"),
	r("go", "gomod", "go", "fmt", "./..."),
	r("go", "gomod", "gofmt", "-l", "."),
	r("go", "gomod", "go", "doc", "Add"),
	r("go", "gomod", "go", "test", "./cgo").need("gcc").key(),
	r("go", "gomod", "go", "version", "-m", "hello"),

	// npm with a local dependency and a tarball, no registry.
	r("npm", "app", "npm", "install").need("npm").key(),
	r("npm", "app", "npm", "test").need("npm").key(),
	r("npm", "app", "npm", "run", "build").need("npm"),
	r("npm", "app", "npm", "run", "hello").wants("dep says hello").need("npm"),
	r("npm", "app", "npm", "ls").need("npm"),
	r("npm", "app", "npm", "ci").need("npm"),
	r("npm", "app", "npm", "install", "../dep/dep-1.0.0.tgz").need("npm"),
	r("npm", "app", "npm", "pack", "--dry-run").need("npm"),
	r("npm", "app", "npm", "config", "get", "registry").need("npm"),

	// make wrapping cc, git, go and npm.
	r("make", "mk", "make").need("cc").key(),
	r("make", "mk", "make", "git").key(),
	r("make", "mk", "make", "test").key(),
	r("make", "mk", "make", "gotest"),
	r("make", "mk", "make", "gobuild"),
	r("make", "mk", "make", "npmtest").need("npm").key(),
	r("make", "mk", "make", "-n", "all"),

	// The C toolchain: gcc's driver runs cc1, as, collect2 and ld from
	// its libexec directories.
	r("cc", "c", "cc", "-c", "m.c").key(),
	r("cc", "c", "gcc", "-O2", "-Wall", "-o", "hello", "main.c", "m.c").key(),
	r("cc", "c", "g++", "-o", "hellocpp", "a.cpp").need("g++").key(),
	r("cc", "c", "c++", "-c", "a.cpp").need("c++"),
	r("cc", "c", "gcc", "-S", "m.c"),
	r("cc", "c", "gcc", "-E", "main.c"),
	r("cc", "c", "gcc", "-MMD", "-MF", "m.d", "-c", "m.c"),
	r("cc", "c", "gcc", "-save-temps", "-c", "m.c"),
	r("cc", "c", "gcc", "-flto", "-o", "hello-lto", "main.c", "m.c"),
	r("cc", "c", "gcc-12", "-c", "m.c").need("gcc-12"),
	r("cc", "c", "x86_64-linux-gnu-gcc-12", "-c", "m.c").need("x86_64-linux-gnu-gcc-12"),
	r("cc", "c", "gcc", "-print-prog-name=cc1"),
	r("cc", "c", "clang", "-c", "m.c").need("clang"),
	r("cc", "c", "as", "s.s", "-o", "s.o"),
	r("cc", "c", "ld", "-r", "m.o", "s.o", "-o", "both.o"),
	r("cc", "c", "ar", "rcs", "libm.a", "m.o"),

	// cargo offline, a project without dependencies.
	r("cargo", "rs", "cargo", "build", "--offline").need("cargo").key(),
	r("cargo", "rs", "cargo", "test", "--offline").need("cargo"),
	r("cargo", "rs", "cargo", "run", "--offline").wants("3").need("cargo"),
	r("cargo", "rs", "cargo", "check", "--offline").need("cargo"),

	// pip in a virtual environment, offline.
	r("pip", "", "{work}/venv/bin/pip", "list").need("/usr/bin/python3").key(),
	r("pip", "", "{work}/venv/bin/pip", "install", "--no-index", "dist/dayhello-0.1-py3-none-any.whl").need("/usr/bin/python3").key(),
	r("pip", "", "{work}/venv/bin/pip", "show", "dayhello").need("/usr/bin/python3"),
	r("pip", "", "{work}/venv/bin/pip", "freeze").need("/usr/bin/python3"),

	// Archives with every compressor installed.
	r("tar", "arc", "tar", "-czf", "a.tgz", "dir").key(),
	r("tar", "arc", "tar", "-tzf", "a.tgz"),
	r("tar", "arc", "tar", "-cjf", "a.tbz", "dir").need("bzip2"),
	r("tar", "arc", "tar", "-cJf", "a.txz", "dir").need("xz"),
	r("tar", "arc", "tar", "--zstd", "-cf", "a.tzst", "dir").need("zstd"),
	r("tar", "arc", "tar", "-caf", "a.tar.lz4", "dir").need("lz4"),
	r("tar", "arc", "tar", "-xf", "a.txz", "-C", "dir", "--one-top-level=x1").need("xz"),
	r("tar", "arc", "tar", "-xzf", "a.tgz", "--one-top-level=x2"),
	r("zip", "arc", "zip", "-qr", "a.zip", "dir").need("zip").key(),
	r("zip", "arc", "unzip", "-l", "a.zip").need("unzip"),
	r("zip", "arc", "unzip", "-qo", "a.zip", "-d", "unz").need("unzip"),
	r("gzip", "arc", "gzip", "-k", "dir/f0.txt").key(),
	r("gzip", "arc", "zcat", "dir/f0.txt.gz").wants("file 0").key(),
	r("gzip", "arc", "gunzip", "-f", "dir/f0.txt.gz"),
	r("7z", "arc", "7z", "a", "a.7z", "dir").need("7z").key(),
	r("7z", "arc", "7z", "l", "a.7z").need("7z"),
	r("7z", "arc", "7z", "x", "-y", "-oout7", "a.7z").need("7z"),

	// Searching and data.
	r("rg", "", "rg", "-n", "Add", "gomod").key(),
	r("rg", "", "rg", "--files", "c"),
	r("jq", "data", "jq", ".items | length", "d.json").wants("3").need("jq").key(),
	r("jq", "data", "jq", "-r", ".name", "d.json").need("jq"),
	r("yq", "data", "yq", ".name", "d.yaml").wants("day").need("yq").key(),
	r("yq", "data", "yq", "-y", ".items", "d.yaml").need("yq"),
	r("coreutils", "data", "sort", "words.txt").key(),
	r("coreutils", "", "find", "c", "-name", "*.c"),
	r("coreutils", "", "grep", "-rn", "Add", "gomod"),
}
