package argvrules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// The C and C++ compiler drivers: gcc, g++, cc, c++, clang, clang++ and
// the names distributions install them under. The grammar follows the
// GCC 12 manual (gcc(1)): 3.2 Overall Options (-o, -wrapper, -specs=,
// -fplugin=, @file), 3.13 Options for Linking (-Wl, -Xlinker), 3.16
// Directory Options (-B), 3.18 Developer Options (-dumpdir, -fdump-*,
// -save-temps, -aux-info in 3.4); clang's driver (clang 14–18
// Options.td) adds -Xclang, --ld-path=, --gcc-toolchain=, -ccc-*.

// ccPolicy is the catalogue phrase of the compiler family.
const ccPolicy = "compiler driver runs a program"

// ccSeparate are the options whose value may be the next argv element
// (GCC 12 manual, the option summary of 3.1; clang's Separate options).
var ccSeparate = map[string]bool{
	"-o": true, "-MF": true, "-MT": true, "-MQ": true, "-I": true, "-L": true, "-l": true, "-D": true, "-U": true,
	"-include": true, "-imacros": true, "-isystem": true, "-idirafter": true, "-iprefix": true, "-iwithprefix": true,
	"-iwithprefixbefore": true, "-isysroot": true, "-iquote": true, "-imultilib": true, "-x": true, "-Xlinker": true,
	"-Xassembler": true, "-Xpreprocessor": true, "-Xclang": true, "-u": true, "-T": true, "-z": true, "-aux-info": true,
	"-dumpdir": true, "-dumpbase": true, "-dumpbase-ext": true, "-wrapper": true, "-B": true, "-e": true, "--entry": true,
	"-specs": true, "--specs": true, "-arch": true, "-target": true, "--target": true, "-MJ": true, "--sysroot": true,
	"-G": true, "-Xarch_host": true, "-Xarch_device": true,
}

// ccExecPrefix are options that make the driver run or load a program
// of the request's choosing, matched as a prefix of the argv element.
var ccExecPrefix = []struct{ prefix, why string }{
	{"-wrapper", "runs every subprogram through the program it names (GCC 12 manual 3.2)"},
	{"-B", "makes the driver look for cc1, as, collect2 and ld in the directory it names (3.16)"},
	{"-specs=", "reads a specs file, whose entries name the programs the driver runs (3.2)"},
	{"--specs", "reads a specs file, whose entries name the programs the driver runs (3.2)"},
	{"-specs", "reads a specs file, whose entries name the programs the driver runs (3.2)"},
	{"-fplugin=", "loads a compiler plugin (shared library) into cc1 (3.2)"},
	{"-iplugindir=", "sets the directory -fplugin=NAME loads plugins from (3.16)"},
	{"-fpass-plugin=", "loads an LLVM pass plugin (shared library) into clang"},
	{"--ld-path=", "names the linker program clang runs"},
	{"--gcc-toolchain=", "names the GCC installation whose as and ld clang runs"},
	{"--gcc-install-dir=", "names the GCC installation whose programs clang runs"},
	{"-ccc-", "clang's driver-debugging options name the programs and directories it uses"},
}

// ccLoadWords are linker and clang frontend options, passed through
// -Wl, -Xlinker or -Xclang, that load a shared library into the program.
var ccLoadWords = lazyre.New(`^-{1,2}(plugin|load|plugin-opt|fplugin|fpass-plugin|add-plugin)(=|$)`)

// checkCC is the recognizer of the compiler drivers. It refuses the
// options that make the driver run or load a program of the request's
// choosing (-wrapper, -B, -specs=, -fplugin=, a linker -plugin, clang's
// -Xclang -load and --ld-path=, -fuse-ld= with a path), response files
// (@FILE: their options are hidden from this check), and keeps every path
// the compiler, the assembler or the linker writes inside the working
// directory: -o, -MF, -aux-info, -dumpdir, -fdump-*=FILE, -fopt-info*=FILE,
// clang's -MJ and -ftime-trace=, the linker's -Map and
// --dependency-file, the assembler's -a*=FILE, and the preprocessor's
// -MD/-MMD/-MF passed through -Wp. -save-temps and the dump files without
// a name land beside the output (-o) or in the working directory.
func checkCC(argv []string, ctx Context) *Rejection {
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		if strings.HasPrefix(w, "@") && len(w) > 1 || w == "--config" || strings.HasPrefix(w, "--config=") {
			// clang's --config FILE is a response file too (clang 16+
			// UsersManual, "Configuration files").
			return ruleCCResponseFile.Reject(i, w, "argument %d %q reads further options from a file, which this check cannot see", i, w)
		}
		name, value, next := w, "", -1
		if strings.HasPrefix(w, "--") && len(w) > 2 {
			var ok bool
			if name, value, next, ok = ccLong(argv, i); !ok {
				return ruleCCExecOption.Reject(i, w, "argument %d %q abbreviates several of the driver's long options", i, w)
			}
		}
		if next < 0 && value == "" && ccSeparate[name] && i+1 < len(argv) {
			value, next = argv[i+1], i+1
		}
		if r := ccWord(ctx, argv, i, name, value); r != nil {
			if name != w {
				r.Arg = w
				r.Message = strings.Replace(r.Message, strconv.Quote(name), fmt.Sprintf("%q (which the driver reads as %q)", w, name), 1)
			}
			return r
		}
		if next > 0 {
			i = next
		}
	}
	return nil
}

// ccWord judges one option (w at argv[i]) with its separate value ("" when
// attached or none).
func ccWord(ctx Context, argv []string, i int, w, sep string) *Rejection {
	if !strings.HasPrefix(w, "-") || w == "-" {
		return nil
	}
	for _, e := range ccExecPrefix {
		if strings.HasPrefix(w, e.prefix) {
			return ruleCCExecOption.Reject(i, w, "argument %d %q %s", i, w, e.why)
		}
	}
	out := func(p string, kind redirect.Kind) *Rejection {
		if p == "" {
			return nil
		}
		return outputPath(ctx, "cc", i, w, p, kind)
	}
	switch {
	case strings.HasPrefix(w, "-fuse-ld="):
		if strings.Contains(w, "/") {
			return ruleCCExecOption.Reject(i, w, "argument %d %q names the linker program by its path", i, w)
		}
	case w == "-o" || w == "-MF" || w == "-MJ" || w == "-aux-info":
		return out(sep, redirect.File)
	case strings.HasPrefix(w, "-MF"), strings.HasPrefix(w, "-MJ"):
		return out(w[3:], redirect.File)
	case strings.HasPrefix(w, "-o"):
		return out(w[2:], redirect.File)
	case w == "-dumpdir":
		return out(sep, redirect.Dir)
	case w == "-dumpbase":
		// The dump and -save-temps files are named after it, directory
		// included (GCC 12 manual 3.2 -dumpbase).
		return out(sep, redirect.File)
	case strings.HasPrefix(w, "-fdump-"), strings.HasPrefix(w, "-fopt-info"), strings.HasPrefix(w, "-ftime-trace="),
		strings.HasPrefix(w, "-foptimization-record-file="):
		if _, v, ok := strings.Cut(w, "="); ok {
			return out(v, redirect.File)
		}
	case strings.HasPrefix(w, "-fmodules-cache-path="):
		_, v, _ := strings.Cut(w, "=")
		return out(v, redirect.Dir)
	case w == "-Xlinker", w == "-Xassembler", w == "-Xpreprocessor", w == "-Xclang":
		return ccPassed(ctx, argv, i, w, []string{sep})
	case strings.HasPrefix(w, "-Wl,"), strings.HasPrefix(w, "-Wa,"), strings.HasPrefix(w, "-Wp,"):
		return ccPassed(ctx, argv, i, w, strings.Split(w[4:], ","))
	}
	return nil
}

// ccPassed judges the words an option passes to the linker (-Wl,
// -Xlinker), the assembler (-Wa, -Xassembler), the preprocessor (-Wp,
// -Xpreprocessor) or clang's frontend (-Xclang): a word that loads a
// plugin is refused, a path written is contained. A -Xlinker word pair
// (-Xlinker -Map -Xlinker FILE) is read as one sequence.
func ccPassed(ctx Context, argv []string, i int, opt string, words []string) *Rejection {
	if strings.HasPrefix(opt, "-X") && argv[i] == opt {
		// The values of consecutive -Xlinker (-Xassembler, -Xpreprocessor,
		// -Xclang) options form one argument list of the tool.
		words = nil
		for j := i; j+1 < len(argv) && argv[j] == opt; j += 2 {
			words = append(words, argv[j+1])
		}
	}
	for k, v := range words {
		if ccLoadWords.MatchString(v) {
			return ruleCCExecOption.Reject(i, argv[i], "argument %d %q passes %q, which loads a shared library into the %s", i, argv[i], v, ccTool(opt))
		}
		next := ""
		if k+1 < len(words) {
			next = words[k+1]
		}
		var p string
		kind := redirect.File
		switch {
		case isLDOutput(v):
			if _, p, _ = strings.Cut(v, "="); !strings.Contains(v, "=") {
				p = next
			}
		case v == "-o", v == "-Map", v == "--Map", v == "--MD", v == "-MD", v == "-MMD", v == "-MF", v == "--dependency-file":
			p = next
		case strings.HasPrefix(v, "-Map="), strings.HasPrefix(v, "--Map="), strings.HasPrefix(v, "--dependency-file="):
			_, p, _ = strings.Cut(v, "=")
		case strings.HasPrefix(v, "-a") && strings.Contains(v, "=") && opt != "-Xclang":
			_, p, _ = strings.Cut(v, "=") // as -adhln=FILE: the listing
		case strings.HasPrefix(v, "-o") && len(v) > 2 && !strings.HasPrefix(v, "--"):
			p = v[2:]
		}
		if p != "" {
			if r := outputPath(ctx, "cc", i, argv[i], p, kind); r != nil {
				return r
			}
		}
	}
	return nil
}

func ccTool(opt string) string {
	switch opt {
	case "-Xclang":
		return "compiler"
	case "-Xassembler", "-Wa,":
		return "assembler"
	case "-Xpreprocessor", "-Wp,":
		return "preprocessor"
	}
	return "linker"
}

// compilerName matches the names distributions install compiler drivers
// under: an optional target triplet, the driver, an optional version
// (x86_64-linux-gnu-gcc-12, gcc-12, clang-16, clang++-18,
// aarch64-linux-gnu-g++). gcc-ar, gcc-nm and gcc-ranlib (archiver
// wrappers) do not match.
var compilerName = lazyre.New(`^([A-Za-z0-9_.]+-)*(gcc|g\+\+|c\+\+|cc|clang|clang\+\+)(-[0-9][0-9.]*)?$`)

// isCompilerName reports whether base is a compiler driver's name.
func isCompilerName(base string) bool { return compilerName.MatchString(base) }

// isLDOutput reports whether a linker word is its -o in a long spelling:
// GNU ld 2.40 reads long options with getopt_long_only, so --output=F,
// -output F and their abbreviations down to --ou name the output file
// (ld(1) -o); the file follows "=" or is the next word.
func isLDOutput(v string) bool {
	if !strings.HasPrefix(v, "-") || strings.HasPrefix(v, "-o") && !strings.HasPrefix(v, "-ou") {
		return false
	}
	name, _, _ := strings.Cut(strings.TrimLeft(v, "-"), "=")
	return len(name) >= 2 && strings.HasPrefix("output", name)
}
