package argvrules

import (
	"strings"
	"testing"
)

// ccRows are the compiler drivers' table (GCC 12 manual, clang 14–18
// driver options).
var ccRows = []row{
	{a("cc", "-c", "m.c"), ""},
	{a("gcc", "-O2", "-Wall", "-o", "hello", "main.c", "m.c"), ""},
	{a("g++", "-std=c++17", "-Iinclude", "-I", "/usr/include/x", "-o", "a.out", "a.cpp"), ""},
	{a("g++", "-o", "out/a", "a.cpp"), "cc.output-path"},
	{a("gcc", "-MMD", "-MF", "m.d", "-c", "m.c"), ""},
	{a("gcc", "-save-temps", "-c", "m.c"), ""},
	{a("gcc", "-flto", "-fuse-ld=gold", "-o", "x", "m.c"), ""},
	{a("gcc", "-Wl,-Map=out.map,--gc-sections", "-o", "x", "m.c"), ""},
	{a("gcc", "-Xlinker", "-Map", "-Xlinker", "out.map", "m.c"), ""},
	{a("gcc", "-print-prog-name=cc1"), ""},
	{a("gcc", "-L/usr/lib/x", "-lm", "-D", "X=1", "m.c"), ""},
	{a("clang", "-fsanitize=address", "-c", "m.c", "-ofoo.o"), ""},
	{a("x86_64-linux-gnu-gcc-12", "-c", "m.c"), ""},
	{a("clang++-18", "-c", "a.cpp"), ""},
	// programs and code it would run or load
	{a("gcc", "-wrapper", "gdb,--args", "m.c"), "cc.exec-option"},
	{a("gcc", "-B/tmp/x/", "m.c"), "cc.exec-option"},
	{a("gcc", "-B", "/tmp/x/", "m.c"), "cc.exec-option"},
	{a("gcc", "-specs=/tmp/evil.specs", "m.c"), "cc.exec-option"},
	{a("gcc", "--specs", "evil.specs", "m.c"), "cc.exec-option"},
	{a("gcc", "-fplugin=./p.so", "m.c"), "cc.exec-option"},
	{a("gcc", "-Wl,-plugin,/tmp/p.so", "m.c"), "cc.exec-option"},
	{a("gcc", "-Xlinker", "--plugin=/tmp/p.so", "m.c"), "cc.exec-option"},
	{a("clang", "-Xclang", "-load", "-Xclang", "/tmp/p.so", "m.c"), "cc.exec-option"},
	{a("clang", "-fpass-plugin=/tmp/p.so", "m.c"), "cc.exec-option"},
	{a("clang", "--ld-path=/tmp/ld", "m.c"), "cc.exec-option"},
	{a("clang", "--gcc-toolchain=/tmp/tc", "m.c"), "cc.exec-option"},
	{a("gcc", "-fuse-ld=/tmp/ld", "m.c"), "cc.exec-option"},
	{a("gcc", "@opts.rsp"), "cc.response-file"},
	{a("clang", "--config=evil.cfg", "m.c"), "cc.response-file"},
	{a("clang", "--config", "evil.cfg", "m.c"), "cc.response-file"},
	// paths written outside
	{a("gcc", "-o", "/tmp/x", "m.c"), "cc.output-path"},
	{a("gcc", "-o../x", "m.c"), "cc.output-path"},
	{a("gcc", "-MF", "/tmp/m.d", "-MMD", "-c", "m.c"), "cc.output-path"},
	{a("gcc", "-Wl,-Map=/tmp/m.map", "m.c"), "cc.output-path"},
	{a("gcc", "-Wl,-Map,/tmp/m.map", "m.c"), "cc.output-path"},
	{a("gcc", "-Xlinker", "-Map", "-Xlinker", "/tmp/m.map", "m.c"), "cc.output-path"},
	{a("gcc", "-Wp,-MD,/tmp/m.d", "-c", "m.c"), "cc.output-path"},
	{a("gcc", "-Wa,-adhln=/tmp/m.lst", "-c", "m.c"), "cc.output-path"},
	{a("gcc", "-dumpdir", "/tmp/", "-c", "m.c"), "cc.output-path"},
	{a("gcc", "-fdump-tree-all=/tmp/t", "-c", "m.c"), "cc.output-path"},
	{a("clang", "-MJ", "/tmp/cc.json", "-c", "m.c"), "cc.output-path"},
	{a("clang", "-ftime-trace=/tmp/t.json", "-c", "m.c"), "cc.output-path"},
	// the driver's long aliases (gcc.cc option_map) and ld's spellings
	{a("gcc", "--version"), ""},
	{a("gcc", "--std=c11", "--output", "a.out", "--save-temps", "m.c"), ""},
	{a("gcc", "--output=hello", "m.c"), ""},
	{a("cc", "--plugin=./evil.so", "-c", "m.c"), "cc.exec-option"},
	{a("cc", "--for-linker=--plugin=/tmp/p.so", "m.c"), "cc.exec-option"},
	{a("cc", "--for-linker", "-plugin", "m.c"), "cc.exec-option"},
	{a("cc", "--prefix=/tmp/pfx/", "-c", "m.c"), "cc.exec-option"},
	{a("cc", "--pre=/tmp/pfx/", "-c", "m.c"), "cc.exec-option"},
	{a("cc", "--specs=evil.specs", "m.c"), "cc.exec-option"},
	{a("cc", "--s", "x", "m.c"), "cc.exec-option"},
	{a("cc", "--output=/tmp/x", "m.c"), "cc.output-path"},
	{a("cc", "--out", "/tmp/x", "m.c"), "cc.exec-option"}, // ambiguous: --output, --output-class-directory
	{a("cc", "--dump-tree-original=/tmp/t", "-c", "m.c"), "cc.output-path"},
	{a("cc", "--dumpbase", "/tmp/x", "-save-temps", "-c", "m.c"), "cc.output-path"},
	{a("cc", "-dumpbase", "/tmp/x", "-save-temps", "-c", "m.c"), "cc.output-path"},
	{a("cc", "-Wl,--output=/tmp/x", "m.c"), "cc.output-path"},
	{a("cc", "-Wl,-output,/tmp/x", "m.c"), "cc.output-path"},
	{a("cc", "-Xlinker", "--output=/tmp/x", "m.c"), "cc.output-path"},
	{a("cc", "-Xlinker", "--out", "-Xlinker", "/tmp/x", "m.c"), "cc.output-path"},
	{a("cc", "-Xpreprocessor", "-MD", "-Xpreprocessor", "/tmp/m.d", "-c", "m.c"), "cc.output-path"},
	{a("cc", "-Xpreprocessor", "-MD", "-Xpreprocessor", "m.d", "-c", "m.c"), ""},
}

func TestCCRows(t *testing.T) {
	ctx := pinCtx(t, sedTestDir(t))
	for _, r := range ccRows {
		expectRule(t, ctx, r.argv, r.rule)
	}
}

// scriptRows are the distribution wrapper scripts' (p7zip, python-yq,
// gzip's z-scripts).
var scriptRows = []row{
	{a("7z", "a", "a.7z", "dir"), ""},
	{a("7z", "x", "-y", "-oout7", "a.7z"), ""},
	{a("7z", "a", "-wtmp", "a.7z", "dir"), ""},
	{a("7z", "x", "-o/tmp/x", "a.7z"), "7z.output-path"},
	{a("7z", "x", "-O../x", "a.7z"), "7z.output-path"},
	{a("7z", "a", "-w/tmp", "a.7z", "dir"), "7z.output-path"},
	{a("yq", ".name", "d.yaml"), ""},
	{a("zcat", "f.gz"), ""},
	{a("zgrep", "-n", "x", "f.gz"), ""},
}

func TestScriptRows(t *testing.T) {
	ctx := pinCtx(t, sedTestDir(t))
	for _, r := range scriptRows {
		expectRule(t, ctx, r.argv, r.rule)
	}
}

// FuzzCCDriver: checkCC answers any argv without panicking, and a word
// it rewrites from a long alias is judged like the short form: an argv
// accepted with "--output=V" is accepted with "-o V".
func FuzzCCDriver(f *testing.F) {
	for _, r := range ccRows {
		f.Add(strings.Join(r.argv[1:], "\x00"))
	}
	ctx := pinCtx(f, sedTestDir(f))
	f.Fuzz(func(t *testing.T, joined string) {
		argv := append([]string{"cc"}, strings.Split(joined, "\x00")...)
		long := checkCC(argv, ctx)
		for i := 1; i+1 < len(argv); i++ {
			if strings.HasPrefix(argv[i], "--output=") {
				short := append(append(append([]string{}, argv[:i]...), "-o", strings.TrimPrefix(argv[i], "--output=")), argv[i+1:]...)
				if long == nil && checkCC(short, ctx) != nil {
					t.Errorf("%q accepted, its short form %q refused", argv, short)
				}
			}
		}
	})
}
