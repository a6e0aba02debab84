package argvrules

import (
	"testing"
)

// goRows are the table rows of go: -exec/-toolexec, go tool, env -w, -C,
// build-flag values, output paths.
var goRows = familyRows([]row{
	{a("go", "version"), ""},
	{a("go", "env", "GOPATH"), ""},
	{a("go", "build", "./..."), ""},
	{a("go", "list", "./..."), ""},
	{a("go", "test", "./..."), ""},
	{a("go", "test", "-race", "-count=1", "-run", "TestX", "./pkg/..."), ""},
	{a("go", "test", ".", "-fuzz=FuzzA", "-test.fuzzcachedir=/tmp/elsewhere/fz"), "go.output-path"},
	{a("go", "test", ".", "-fuzz=FuzzA", "-test.fuzzcachedir=fz"), ""},
	{a("go", "vet", "./..."), ""},
	{a("go", "run", "."), ""},
	{a("go", "build", "-o", "bin/app", "./cmd/app"), ""},
	{a("go", "build", "-o", "sub/", "./..."), ""},
	{a("go", "build", "-o", "sub", "./..."), ""},
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
	{a("go", "-C", "/tmp/elsewhere/gdir", "build", "-o", "bin", "."), "go.output-path"},
	{a("go", "-C", "../x", "build", "."), "go.output-path"},
	{a("go", "-C", "sub", "build", "-o", "../../x", "."), "go.output-path"},
	{a("go", "-C", "out", "mod", "tidy"), "go.output-path"}, // out -> /tmp
	{a("go", "-C", "sub", "build", "-o", "bin/app", "."), ""},
	{a("go", "-C=sub", "test", "-coverprofile=c.out", "./..."), ""},
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
})

func TestGoRows(t *testing.T) { checkRows(t, goRows) }

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
