package programs

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
)

const goPolicy = "go external program or output"

// goRiskFlags are the build and test flags that name a program (or swap
// source files) in every go subcommand that takes build flags (go 1.26
// "go help build", "go help testflag").
var goRiskFlags = map[string]string{
	"exec":     "runs the built binary through a program of its choosing",
	"toolexec": "runs every compiler, assembler and linker invocation through a program of its choosing",
	"vettool":  "runs a program of its choosing as the vet analysis tool",
	"overlay":  "replaces source files with files named in a JSON overlay file",
}

// goOutputFlags are flags whose value is a path go writes, with "test."
// prefixes removed (go test passes -test.X through to the test binary).
var goOutputFlags = map[string]outKind{
	"o":                   outAny,
	"modfile":             outFile,
	"pkgdir":              outDir,
	"outputdir":           outDir,
	"gocoverdir":          outDir,
	"coverprofile":        outFile,
	"cpuprofile":          outFile,
	"memprofile":          outFile,
	"blockprofile":        outFile,
	"mutexprofile":        outFile,
	"trace":               outFile,
	"testlogfile":         outFile,
	"debug-actiongraph":   outFile,
	"debug-trace":         outFile,
	"debug-runtime-trace": outFile,
}

// goCommands says what each go 1.26 subcommand is: "" allowed (subject to
// the flag scan), otherwise the reason it is refused.
var goCommands = map[string]string{
	"build": "", "clean": "", "doc": "", "env": "", "fix": "", "fmt": "",
	"get": "", "help": "", "install": "", "list": "", "mod": "", "work": "",
	"run": "", "telemetry": "", "test": "", "tool": "", "version": "", "vet": "",
	"generate": "runs the commands written in //go:generate comments",
	"bug":      "opens a web browser",
}

// goStdTools are the tools the go distribution ships in
// $GOROOT/pkg/tool (go 1.26 "go tool" listing); any other name is a
// module tool or a program found elsewhere.
var goStdTools = map[string]bool{
	"addr2line": true, "asm": true, "buildid": true, "cgo": true, "compile": true,
	"covdata": true, "cover": true, "dist": true, "distpack": true, "doc": true,
	"fix": true, "link": true, "nm": true, "objdump": true, "pack": true,
	"pprof": true, "preprofile": true, "test2json": true, "trace": true, "vet": true,
}

// Go is the recognizer of the go command (go 1.26, flag package syntax:
// -name, --name, -name=value, -name value; no clusters, no
// abbreviations). Because go test accepts build flags after packages and
// go run passes words after the package to the program, every word after
// the subcommand is scanned, whatever its position:
//   - refused: -exec, -toolexec, -vettool, -overlay; -ldflags/-gcflags
//     values naming an external linker or archiver (extld, extar);
//   - contained: -o, -modfile, -pkgdir and test profile/output flags
//     (-coverprofile, -cpuprofile, -outputdir, -trace ..., also as
//     -test.X) must name paths inside the working directory.
//
// Refused subcommands: go generate, go bug, go env -w/-u, go tool NAME
// where NAME is not a standard tool, go run PKG@VERSION (runs code fetched
// from the network, not repository code), go doc -http, and unknown
// subcommands. go build/test/run/vet/list/version/env NAME stay allowed:
// the repository's code, tests and cgo are delegated authority, and
// GOFLAGS is not in the minimal child environment.
func Go(argv []string, ctx argvrules.Context) *argvrules.Rejection {
	i := 1
	for ; i < len(argv); i++ {
		name, _, hasValue, ok := longName(argv[i])
		if !ok {
			break
		}
		switch {
		case name == "C" && !hasValue:
			i++ // -C dir
		case name == "C", name == "h", name == "help":
		default:
			return argvrules.Reject("go.unknown-option", "go option grammar", i, argv[i],
				"argument %d %q is not a go command option (only -C DIR and -h come before the subcommand)", i, argv[i])
		}
	}
	if i >= len(argv) {
		return nil
	}
	sub := argv[i]
	why, known := goCommands[sub]
	switch {
	case !known:
		return argvrules.Reject("go.unknown-command", "go option grammar", i, sub,
			"argument %d %q is not a go 1.26 subcommand (only known subcommands are allowed)", i, sub)
	case why != "":
		return argvrules.Reject("go.exec-command", goPolicy, i, sub, "argument %d %q is go %s, which %s", i, sub, sub, why)
	}
	if r := goFlagScan(argv, i+1, ctx); r != nil {
		return r
	}
	return goSubcommand(argv, i)
}

// goFlagScan checks every flag-shaped word from argv[start:].
func goFlagScan(argv []string, start int, ctx argvrules.Context) *argvrules.Rejection {
	for j := start; j < len(argv); j++ {
		name, value, hasValue, ok := longName(argv[j])
		if !ok {
			continue
		}
		if why, bad := goRiskFlags[name]; bad {
			return argvrules.Reject("go.exec-flag", goPolicy, j, argv[j], "argument %d %q selects -%s, which %s", j, argv[j], name, why)
		}
		valueAt := j
		if !hasValue && j+1 < len(argv) {
			value, valueAt = argv[j+1], j+1
		}
		switch name {
		case "ldflags", "gcflags", "asmflags", "gccgoflags":
			if strings.Contains(value, "extld") || strings.Contains(value, "extar") {
				return argvrules.Reject("go.exec-flag", goPolicy, j, argv[j],
					"argument %d %q passes %q to the toolchain, which names an external linker or archiver program", j, argv[j], value)
			}
		}
		kind := goOutputFlags[strings.TrimPrefix(name, "test.")]
		if kind == 0 || (!hasValue && valueAt == j) || harmlessOutput(value) {
			continue
		}
		word := argv[j]
		if valueAt != j {
			word += " " + value
		}
		if r := outputPath(ctx, "go", j, word, value, kind); r != nil {
			return r
		}
	}
	return nil
}

// goSubcommand applies the rules of one subcommand (argv[i] is its name).
func goSubcommand(argv []string, i int) *argvrules.Rejection {
	sub, rest := argv[i], argv[i+1:]
	for k, w := range rest {
		j := i + 1 + k
		name, _, _, isFlag := longName(w)
		switch {
		case sub == "env" && isFlag && (name == "w" || name == "u"):
			return argvrules.Reject("go.env-write", goPolicy, j, w,
				"argument %d %q makes go env write the user's go env file, which sets GOFLAGS, CC, GOTOOLCHAIN and other programs for later go commands", j, w)
		case sub == "doc" && isFlag && name == "http":
			return argvrules.Reject("go.exec-flag", goPolicy, j, w,
				"argument %d %q makes go doc fetch and run a documentation server and open a web browser", j, w)
		case sub == "run" && !isFlag && goRemoteVersion(w):
			return argvrules.Reject("go.remote-run", goPolicy, j, w,
				"argument %d %q asks go run to build and run a module version fetched from the network, not repository code", j, w)
		}
	}
	if sub == "tool" {
		return goTool(argv, i)
	}
	return nil
}

// goRemoteVersion reports whether w looks like a package path at a module
// version (golang.org/x/tools/cmd/stringer@latest).
func goRemoteVersion(w string) bool {
	at := strings.IndexByte(w, '@')
	return at > 0 && strings.ContainsAny(w[:at], "./")
}

// goTool checks go tool's first operand: a standard tool name, or none.
func goTool(argv []string, i int) *argvrules.Rejection {
	for j := i + 1; j < len(argv); j++ {
		w := argv[j]
		if _, _, _, isFlag := longName(w); isFlag {
			continue
		}
		if goStdTools[w] {
			return nil
		}
		return argvrules.Reject("go.external-tool", goPolicy, j, w,
			"argument %d %q is not a standard go tool, so go tool would run a module tool or another program of that name", j, w)
	}
	return nil
}
