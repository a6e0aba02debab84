package argvrules

import (
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// redTeamRows are the argv a red team found allowed although the real
// program ran a canary or wrote outside the working directory, with
// neighbouring spellings, and the everyday forms next to them that must
// stay allowed. They run in redTeamDir.
var redTeamRows = []row{
	// make: makefiles from standard input through unnormalised paths.
	{a("make"), ""},
	{a("make", "-f", "Makefile.ci", "test"), ""},
	{a("make", "-f", "Makefile", "-f", "rules.mk"), ""},
	{a("make", "-C", "sub"), ""},
	{a("make", "-C", "sub", "-f", "../Makefile"), ""},
	{a("make", "-f", "sub/../Makefile"), ""},
	{a("make", "-I", "include", "all"), ""},
	{a("make", "-f", "file.txt"), ""},
	{a("make", "-f", "//dev/stdin"), "make.stdin-makefile"},
	{a("make", "-f", "../../../proc/self/fd/0"), "make.stdin-makefile"},
	{a("make", "-f", "../../../../../../../../../../../../../proc/self/fd/0"), "make.stdin-makefile"},
	{a("make", "-f", "/./dev/stdin"), "make.stdin-makefile"},
	{a("make", "--file=//proc/self/fd/0"), "make.stdin-makefile"},
	{a("make", "--makefile", "/dev//fd/0"), "make.stdin-makefile"},
	{a("make", "--fi=/dev/stdin"), "make.stdin-makefile"},
	{a("make", "-sf/dev/stdin"), "make.stdin-makefile"},
	{a("make", "-f", "/sys/kernel/notes"), "make.stdin-makefile"},
	{a("make", "all", "-f", "-"), "make.stdin-makefile"},
	{a("make", "-f", "in"), "make.stdin-makefile"},               // in -> /dev/stdin
	{a("make", "-f", "fd0"), "make.stdin-makefile"},              // fd0 -> /proc/self/fd/0
	{a("make", "-f", "devdir/stdin"), "make.stdin-makefile"},     // devdir -> /dev
	{a("make", "-f", "loop"), "make.stdin-makefile"},             // loop -> loop
	{a("make", "-f", "fifo"), "make.stdin-makefile"},             // a named pipe
	{a("make", "-f", "usr/../dev/stdin"), "make.stdin-makefile"}, // usr -> /usr
	{a("make", "-f", "link/../Makefile"), ""},                    // link -> sub
	{a("make", "-C", "/dev", "-f", "stdin"), "make.device-directory"},
	{a("make", "-f", "stdin", "-C", "devdir"), "make.device-directory"},
	{a("make", "-C", "/", "-f", "dev/stdin"), "make.stdin-makefile"},
	{a("make", "-C", "/proc/self/fd"), "make.device-directory"},
	{a("make", "-C", "sub", "-C", "../../../../../../../../../../proc/self", "-f", "fd/0"), "make.device-directory"},
	{a("make", "-I", "/dev/fd"), "make.device-directory"},
	{a("make", "--include-dir=/proc/self/fd", "all"), "make.device-directory"},
	{a("make", "-f", "bad\x00name"), "make.stdin-makefile"},

	// go tool: only the inspection tools.
	{a("go", "build", "./..."), ""},
	{a("go", "build", "-ldflags=-s -w", "-o", "bin/app", "."), ""},
	{a("go", "build", "-ldflags", "-s -w -X main.version=1.2.3", "."), ""},
	{a("go", "build", "-ldflags=-X 'main.version=1.2 3' -s", "."), ""},
	{a("go", "build", "-ldflags=-linkmode=internal", "."), ""},
	{a("go", "build", "-gcflags=all=-N -l", "."), ""},
	{a("go", "build", "-gcflags=-m", "."), ""},
	{a("go", "build", "-gcflags", "all=-d=checkptr", "."), ""},
	{a("go", "build", "-asmflags=all=-trimpath=/x", "."), ""},
	{a("go", "build", "-compiler=gc", "."), ""},
	{a("go", "tool", "nm", "bin/app"), ""},
	{a("go", "tool", "objdump", "-s", "main.main", "bin/app"), ""},
	{a("go", "tool", "buildid", "bin/app"), ""},
	{a("go", "tool", "buildid", "-w", "bin/app"), ""},
	{a("go", "tool", "addr2line", "bin/app"), ""},
	{a("go", "tool", "covdata", "percent", "-i=covdir"), ""},
	{a("go", "tool", "covdata", "textfmt", "-i=covdir", "-o", "cov.txt"), ""},
	{a("go", "tool", "cover", "-func=cover.out"), ""},
	{a("go", "tool", "test2json", "-t", "-p", "pkg"), ""},
	{a("go", "tool", "-n", "nm"), ""},
	{a("go", "fix", "./..."), ""},
	{a("go", "mod", "edit", "-go=1.22"), ""},
	{a("go", "mod", "edit", "-require=x.org/y@v1.0.0", "go.mod"), ""},
	{a("go", "mod", "edit", "-json", "/abs/go.mod"), ""},
	{a("go", "tool", "cgo", "--", "-wrapper", "/tmp/x/canary.sh", "main.go"), "go.exec-tool"},
	{a("go", "tool", "link", "-linkmode=external", "-extld=/tmp/x/canary.sh", "main.o"), "go.exec-tool"},
	{a("go", "tool", "link", "-o", "app", "main.o"), "go.exec-tool"},
	{a("go", "tool", "pprof", "-tools=/tmp/x", "cpu.out"), "go.exec-tool"},
	{a("go", "tool", "pprof", "-http=:8080", "cpu.out"), "go.exec-tool"},
	{a("go", "tool", "compile", "-asmhdr=/tmp/x/h", "x.go"), "go.exec-tool"},
	{a("go", "tool", "compile", "-linkobj=/tmp/x/o", "x.go"), "go.exec-tool"},
	{a("go", "tool", "asm", "x.s"), "go.exec-tool"},
	{a("go", "tool", "pack", "c", "/tmp/x.a", "x.o"), "go.exec-tool"},
	{a("go", "tool", "trace", "trace.out"), "go.exec-tool"},
	{a("go", "tool", "vet", "vet.cfg"), "go.exec-tool"},
	{a("go", "tool", "fix", "./..."), "go.exec-tool"},
	{a("go", "tool", "dist", "install"), "go.exec-tool"},
	{a("go", "tool", "doc", "fmt"), "go.external-tool"},
	{a("go", "tool", "cover", "-html=c.out", "-o", "/tmp/c.html"), "go.output-path"},
	{a("go", "tool", "cover", "-pkgcfg=x.cfg", "-outfilelist=l", "x.go"), "go.exec-flag"},
	{a("go", "tool", "buildid", "-w", "/tmp/x/app"), "go.output-path"},
	{a("go", "tool", "covdata", "merge", "-i=a", "-o", "/tmp/merged"), "go.output-path"},
	{a("go", "tool", "preprofile", "-i", "cpu.pprof", "-o", "/tmp/p"), "go.output-path"},
	{a("go", "tool", "test2json", "./pkg.test", "-test.v"), "go.exec-tool"},
	{a("go", "tool", "test2json", "-p", "pkg", "/tmp/x/canary.sh"), "go.exec-tool"},
	{a("go", "tool", "test2json", "-t", "--", "/tmp/x/canary.sh"), "go.exec-tool"},
	{a("go", "build", "-compiler=gccgo", "-gccgoflags=-wrapper=/tmp/x/canary.sh", "."), "go.exec-flag"},
	{a("go", "build", "-compiler", "gccgo", "."), "go.exec-flag"},
	{a("go", "build", "-gccgoflags", "-O2", "."), "go.exec-flag"},
	{a("go", "build", "-gcflags=-asmhdr=/tmp/x/h", "."), "go.exec-flag"},
	{a("go", "build", "-gcflags=all=-asmhdr /tmp/x/h", "."), "go.exec-flag"},
	{a("go", "build", "-gcflags", "example.com/...=-N -linkobj=/tmp/o", "."), "go.exec-flag"},
	{a("go", "build", "-gcflags=-N '-o' /tmp/x", "."), "go.exec-flag"},
	{a("go", "build", "-gcflags=--cpuprofile=/tmp/p", "."), "go.exec-flag"},
	{a("go", "build", "-gcflags=-env=GOSSADIR=/tmp/x", "."), "go.exec-flag"},
	{a("go", "build", "-gcflags=-json=0,file:///tmp/x", "."), "go.exec-flag"},
	{a("go", "build", "-gcflags=-d=dumpinlfuncprops=/tmp/x", "."), "go.exec-flag"},
	{a("go", "build", "-gcflags=-importcfg=/tmp/cfg", "."), "go.exec-flag"},
	{a("go", "build", "-ldflags=-tmpdir=/tmp/x", "."), "go.exec-flag"},
	{a("go", "build", "-ldflags=-linkmode=external", "."), ""},
	{a("go", "build", "-ldflags=-linkmode external -extldflags -static", "."), ""},
	{a("go", "build", "-ldflags", "-linkmode external -extldflags \"-static -lm -lsqlite3\" -s -w", "."), ""},
	{a("go", "build", "-ldflags=-extldflags=-static", "."), ""},
	{a("go", "build", "-ldflags=-extldflags '-static -wrapper /tmp/x/canary.sh'", "."), "go.exec-flag"},
	{a("go", "build", "-ldflags=-extldflags=-fuse-ld=/tmp/x/ld", "."), "go.exec-flag"},
	{a("go", "build", "-ldflags=-extldflags \"-Wl,--plugin=/tmp/x.so\"", "."), "go.exec-flag"},
	{a("go", "build", "-ldflags=-extldflags -l/tmp/x", "."), "go.exec-flag"},
	{a("go", "build", "-ldflags=-extldflags", "."), ""},
	{a("go", "build", "-ldflags", "\"-extldflags=-wrapper /tmp/x/canary.sh\"", "."), "go.exec-flag"},
	{a("go", "build", "-ldflags=all=\"-extldflags=-wrapper /tmp/x/canary.sh\"", "."), "go.exec-flag"},
	{a("go", "build", "-ldflags=-I /tmp/x/canary", "."), "go.exec-flag"},
	{a("go", "build", "-ldflags=-r /tmp/x", "."), "go.exec-flag"},
	{a("go", "build", "-ldflags=-o /tmp/x/app", "."), "go.exec-flag"},
	{a("go", "build", "-ldflags=-capturehostobjs=/tmp/x", "."), "go.exec-flag"},
	{a("go", "build", "-ldflags=-X 'main.v=1", "."), "go.exec-flag"},
	{a("go", "build", "-asmflags=-o=/tmp/x", "."), "go.exec-flag"},
	{a("go", "test", "./...", "-ldflags=-extar=/tmp/x"), "go.exec-flag"},
	{a("go", "fix", "-fixtool=/tmp/x/canary.sh", "./..."), "go.exec-flag"},
	{a("go", "mod", "edit", "-go=1.22", "/tmp/x/go.mod"), "go.output-path"},
	{a("go", "work", "edit", "-use=./a", "../go.work"), "go.output-path"},

	// pip config: read-only actions only.
	{a("pip", "list"), ""},
	{a("pip", "config", "list"), ""},
	{a("pip", "config", "--user", "get", "global.index-url"), ""},
	{a("pip", "config", "debug"), ""},
	{a("pip", "config"), ""},
	{a("pip", "install", "-r", "requirements.txt"), ""},
	{a("pip", "config", "set", "global.python", "/tmp/x/canary.sh"), "pip.config-write"},
	{a("pip", "config", "--user", "set", "global.index-url", "http://x/"), "pip.config-write"},
	{a("pip", "config", "unset", "global.python"), "pip.config-write"},
	{a("pip", "config", "--cache", "list", "set", "global.python", "/tmp/x"), "pip.config-write"},
	{a("pip", "config", "se", "global.python", "/tmp/x"), "pip.config-write"},
	{a("pip3", "-q", "config", "set", "global.python", "/tmp/x"), "pip.config-write"},
	{a("pip", "--cache", "list", "config", "set", "global.python", "/tmp/x"), "pip.config-write"},
	{a("pip", "--cache", "c", "list"), ""},
	{a("pip", "--timeout", "5", "list"), ""},
	{a("pip", "--frob", "x", "y"), "pip.unknown-command"},

	// pip output directories.
	{a("pip", "download", "-d", "dist", "x"), ""},
	{a("pip", "download", "-r", "r.txt", "-d", "./wheels"), ""},
	{a("pip", "install", "--no-cache-dir", "--progress-bar", "off", "-c", "c.txt", "x"), ""},
	{a("npm", "ci", "--cache", ".npm", "--prefer-offline"), ""},
	{a("pip", "install", "--target", "vendor", "x"), ""},
	{a("pip", "install", "-t", "lib", "x"), ""},
	{a("pip", "install", "--pre", "--prefix", "venvprefix", "x"), ""},
	{a("pip", "install", "--pre", "x"), ""},
	{a("pip", "install", "--report", "-", "--dry-run", "x"), ""},
	{a("pip", "wheel", "-w", "wheels", "."), ""},
	{a("pip", "install", "--root-user-action=ignore", "x"), ""},
	{a("pip", "list", "--local"), ""},
	{a("pip", "download", "-d", "/tmp/x", "x"), "pip.output-path"},
	{a("pip", "download", "--dest=/tmp/x", "x"), "pip.output-path"},
	{a("pip", "download", "--destination-dir", "../x", "x"), "pip.output-path"},
	{a("pip", "install", "--target", "/tmp/x", "x"), "pip.output-path"},
	{a("pip", "install", "--tar=/tmp/x", "x"), "pip.output-path"},
	{a("pip", "install", "-t/tmp/x", "x"), "pip.output-path"},
	{a("pip", "install", "-Ut", "/tmp/x", "x"), "pip.output-path"},
	{a("pip", "install", "--prefix=/tmp/x", "x"), "pip.output-path"},
	{a("pip", "install", "--root", "/", "x"), "pip.output-path"},
	{a("pip", "install", "--log", "/tmp/log", "x"), "pip.output-path"},
	{a("pip", "install", "--report=/tmp/r.json", "x"), "pip.output-path"},
	{a("pip", "install", "--src", "/tmp/src", "-e", "git+https://x/y#egg=y"), "pip.output-path"},
	{a("pip", "wheel", "--wheel-dir=/tmp/w", "."), "pip.output-path"},
	{a("pip", "wheel", "-w", "out/w", "."), "pip.output-path"}, // out -> /tmp
	{a("pip", "--cache-dir", "/tmp/c", "install", "x"), "pip.output-path"},

	// npm output directories.
	{a("npm", "pack"), ""},
	{a("npm", "pack", "--pack-destination", "dist"), ""},
	{a("npm", "--prefix", "web", "run", "lint"), ""},
	{a("npm", "-C", "web", "install"), ""},
	{a("npm", "install", "--cache", ".npm-cache"), ""},
	{a("npm", "pack", "--pack-destination", "/tmp/x"), "npm.output-path"},
	{a("npm", "pack", "--pack-destination=../x"), "npm.output-path"},
	{a("npm", "pack", "--pack-dest=/tmp/x"), "npm.output-path"},
	{a("npm", "install", "--logs-dir", "/tmp/logs"), "npm.output-path"},
	{a("npm", "install", "--cache=/tmp/cache"), "npm.output-path"},
	{a("npm", "install", "--prefix", "/tmp/x"), "npm.output-path"},
	{a("npm", "install", "-prefix=/tmp/x"), "npm.output-path"},
	{a("npm", "install", "--config.prefix=/tmp/x"), "npm.output-path"},
	{a("npm", "-C", "/tmp/x", "install"), "npm.output-path"},
	{a("npm", "-gC", "/tmp/x", "install"), "npm.output-path"},
	{a("npm", "--prefix", "out", "install"), "npm.output-path"}, // out -> /tmp

	{a("pnpm", "-C", "web", "install"), ""},
	{a("pnpm", "--dir", "web", "run", "build"), ""},
	{a("pnpm", "add", "--global", "typescript"), ""},
	{a("pnpm", "install", "--store-dir", ".pnpm-store"), ""},
	{a("pnpm", "-C", "/tmp/x", "run", "t"), "pnpm.output-path"},
	{a("pnpm", "--dir=../x", "install"), "pnpm.output-path"},
	{a("pnpm", "install", "--store-dir", "/tmp/store"), "pnpm.output-path"},
	{a("pnpm", "install", "--store=/tmp/store"), "pnpm.output-path"},
	{a("pnpm", "pack", "--pack-destination", "/tmp/x"), "pnpm.output-path"},
	{a("yarn", "--cwd", "web", "build"), ""},
	{a("yarn", "pack", "--filename", "dist/x.tgz"), ""},
	{a("yarn", "--cwd", "/tmp/x", "run", "t"), "yarn.output-path"},
	{a("yarn", "install", "--cache-folder=/tmp/c"), "yarn.output-path"},
	{a("yarn", "pack", "--filename", "/tmp/x.tgz"), "yarn.output-path"},
	{a("yarn", "pack", "--out", "../x.tgz"), "yarn.output-path"},

	// cargo output directories.
	{a("cargo", "build", "--target-dir", "target"), ""},
	{a("cargo", "build", "--target-dir=target/alt"), ""},
	{a("cargo", "build", "--target-dir", "/tmp/x"), "cargo.output-path"},
	{a("cargo", "build", "--target-dir=../x"), "cargo.output-path"},
	{a("cargo", "build", "-Z", "unstable-options", "--artifact-dir", "/tmp/x"), "cargo.output-path"},
	{a("cargo", "build", "--out-dir=/tmp/x"), "cargo.output-path"},
	{a("cargo", "test", "--target-dir", "out"), "cargo.output-path"}, // out -> /tmp
}

// TestMakeUnknownDir checks that without a working directory a relative
// makefile cannot be resolved and is refused, while an absolute regular
// one is judged.
func TestMakeUnknownDir(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		rule refusal.Code
	}{
		{a("make", "-f", "Makefile"), "make.stdin-makefile"},
		{a("make", "-C", "sub"), "make.device-directory"},
		{a("make", "-f", "/dev/stdin"), "make.stdin-makefile"},
		{a("make", "all"), ""},
	} {
		got := checkMake(tc.argv, Context{})
		if (got == nil) != (tc.rule == "") || (got != nil && got.Code != tc.rule) {
			t.Errorf("%q: want %q, got %v", tc.argv, tc.rule, got)
		}
	}
}

func TestSplitQuotedFields(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  bool
	}{
		{"", nil, false},
		{"-s -w", []string{"-s", "-w"}, false},
		{" \t-s\n-w\r", []string{"-s", "-w"}, false},
		{"-X 'main.v=a b' -s", []string{"-X", "main.v=a b", "-s"}, false},
		{`"-o" /x`, []string{"-o", "/x"}, false},
		{`'a'b`, []string{"a", "b"}, false},
		{`a'b c'`, []string{"a'b", "c'"}, false},
		{`''`, []string{""}, false},
		{`-X 'x`, nil, true},
		{`"`, nil, true},
	} {
		got, err := splitQuotedFields(tc.in)
		if (err != nil) != tc.err || len(got) != len(tc.want) {
			t.Errorf("splitQuotedFields(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("splitQuotedFields(%q) = %q; want %q", tc.in, got, tc.want)
				break
			}
		}
	}
}

// TestNodeConfigWritesRefused: config writes land in the user's
// configuration outside the working directory and steer later commands.
func TestNodeConfigWritesRefused(t *testing.T) {
	for _, argv := range [][]string{
		{"npm", "config", "set", "registry", "http://127.0.0.1:9/"},
		{"npm", "set", "registry=http://127.0.0.1:9/"},
		{"npm", "config", "delete", "registry"},
		{"pnpm", "config", "set", "store-dir", "x"},
		{"yarn", "config", "set", "registry", "x"},
	} {
		if r := recOf(famName(argv[0]))(argv, pinCtx(t, t.TempDir())); r == nil {
			t.Errorf("%q allowed", argv)
		}
	}
	for _, argv := range [][]string{{"npm", "config", "get", "registry"}, {"npm", "config", "list"}} {
		if r := recOf("npm")(argv, pinCtx(t, t.TempDir())); r != nil {
			t.Errorf("%q refused: %s", argv, r.Message)
		}
	}
}
