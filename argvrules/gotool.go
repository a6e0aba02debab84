package argvrules

import (
	"fmt"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

const goPolicy = "go external program or output"

// goRiskFlags are the build and test flags that name a program (or swap
// source files) in every go subcommand that takes build flags (go 1.26
// "go help build", "go help testflag").
var goRiskFlags = map[string]string{
	"exec":     "runs the built binary through a program of its choosing",
	"toolexec": "runs every compiler, assembler and linker invocation through a program of its choosing",
	"vettool":  "runs a program of its choosing as the vet analysis tool",
	"fixtool":  "runs a program of its choosing as the go fix analysis tool",
	"overlay":  "replaces source files with files named in a JSON overlay file",
}

// goOutputFlags are flags whose value is a path go writes, with "test."
// prefixes removed (go test passes -test.X through to the test binary).
var goOutputFlags = map[string]redirect.Kind{
	"o":                   redirect.FileOrDir,
	"modfile":             redirect.File,
	"pkgdir":              redirect.Dir,
	"outputdir":           redirect.Dir,
	"gocoverdir":          redirect.Dir,
	"coverprofile":        redirect.File,
	"cpuprofile":          redirect.File,
	"memprofile":          redirect.File,
	"blockprofile":        redirect.File,
	"mutexprofile":        redirect.File,
	"trace":               redirect.File,
	"testlogfile":         redirect.File,
	"debug-actiongraph":   redirect.File,
	"debug-trace":         redirect.File,
	"debug-runtime-trace": redirect.File,
	// testing.fuzzCacheDir (go 1.18+ src/testing/fuzz.go): the engine
	// writes its generated corpus beneath it.
	"fuzzcachedir": redirect.Dir,
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

// goTools says what each tool the go 1.26 distribution ships (the
// directories of $GOROOT/src/cmd that go tool builds or runs) may do: ""
// allowed (subject to goToolArgs), otherwise why it is refused. Any other
// name is a module tool (a go.mod tool directive) or a program found
// elsewhere. Only read-only inspection tools and the coverage/profile
// converters, whose outputs the flag scan contains, are allowed; the
// build tools are what go build runs, with arguments go build computes.
var goTools = map[string]string{
	"addr2line": "", "buildid": "", "covdata": "", "cover": "", "nm": "", "objdump": "",
	"preprofile": "", "test2json": "",
	"asm":      "is the assembler, which writes its -o output anywhere; use go build",
	"cgo":      "runs the C compiler (and a -wrapper program of its choosing) and writes into any -objdir; use go build",
	"compile":  "is the compiler, which writes -o, -asmhdr, -linkobj and profile files anywhere; use go build",
	"link":     "is the linker, which runs -extld/-extar programs and writes -o anywhere; use go build",
	"pack":     "creates and rewrites archives at any path",
	"pprof":    "runs programs (-tools, objdump, addr2line from PATH), fetches URLs, serves HTTP (-http) and opens a web browser",
	"trace":    "serves HTTP and opens a web browser",
	"vet":      "is the vet analysis driver, whose .cfg input names files it writes; use go vet",
	"fix":      "is the fix analysis driver, which rewrites source files; use go fix",
	"dist":     "bootstraps and installs the toolchain itself",
	"distpack": "writes toolchain distribution archives into GOROOT",
}

// checkGo is the recognizer of the go command (go 1.26, flag package syntax:
// -name, --name, -name=value, -name value; no clusters, no
// abbreviations). Because go test accepts build flags after packages and
// go run passes words after the package to the program, every word after
// the subcommand is scanned, whatever its position:
//   - refused: -exec, -toolexec, -vettool, -fixtool, -overlay,
//     -gccgoflags, -compiler other than gc, and -gcflags/-ldflags/
//     -asmflags values (split like the go command: optional pattern=,
//     quoted fields) carrying a tool flag that names a program, an output
//     path or an input configuration (goCompileDeny, goLinkDeny,
//     goAsmDeny; -extldflags beyond -static, -pie, -lNAME and similar,
//     see goExtLinkSafe);
//   - contained: -o, -modfile, -pkgdir and test profile/output flags
//     (-coverprofile, -cpuprofile, -outputdir, -trace ..., also as
//     -test.X) must name paths inside the working directory, as must the
//     file operand of go mod edit and go work edit.
//
// Refused subcommands: go generate, go bug, go env -w/-u, go tool NAME
// unless NAME is an inspection tool (goTools: addr2line, buildid without
// -w outside, covdata, cover, nm, objdump, preprofile, test2json without a
// command), go run PKG@VERSION (runs code fetched from the network, not
// repository code), go doc -http, and unknown subcommands. go
// build/test/run/vet/list/version/env NAME/install stay allowed: the
// repository's code, tests and cgo are delegated authority, GOFLAGS is not
// in the minimal child environment, and go install writes into GOBIN by
// design.
func checkGo(argv []string, ctx Context) *Rejection {
	i := 1
	for ; i < len(argv); i++ {
		name, value, hasValue, ok := longName(argv[i])
		if !ok {
			break
		}
		switch {
		case name == "C":
			word, at := argv[i], i
			if !hasValue && i+1 < len(argv) {
				i++
				value, word = argv[i], argv[at]+" "+argv[i]
			}
			// go changes into DIR before anything else (cmd/go main.go
			// handleChdirFlag), so DIR is where relative outputs, go.mod and
			// go.sum land: it must stay inside the working directory, and
			// every later output path is resolved below it.
			if r := outputPath(ctx, "go", at, word, value, redirect.Dir); r != nil {
				return r
			}
			ctx = ctx.below(value)
		case name == "h", name == "help":
		default:
			return ruleGoUnknownOption.Reject(i, argv[i],
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
		return ruleGoUnknownCommand.Reject(i, sub,
			"argument %d %q is not a go 1.26 subcommand (only known subcommands are allowed)", i, sub)
	case why != "":
		return ruleGoExecCommand.Reject(i, sub, "argument %d %q is go %s, which %s", i, sub, sub, why)
	}
	if r := goFlagScan(argv, i+1, ctx); r != nil {
		return r
	}
	return goSubcommand(argv, i, ctx)
}

// goFlagScan checks every flag-shaped word from argv[start:].
func goFlagScan(argv []string, start int, ctx Context) *Rejection {
	for j := start; j < len(argv); j++ {
		name, value, hasValue, ok := longName(argv[j])
		if !ok {
			continue
		}
		if why, bad := goRiskFlags[name]; bad {
			return ruleGoExecFlag.Reject(j, argv[j], "argument %d %q selects -%s, which %s", j, argv[j], name, why)
		}
		valueAt := j
		if !hasValue && j+1 < len(argv) {
			value, valueAt = argv[j+1], j+1
		}
		if r := goBuildToolFlag(argv, j, name, value, valueAt); r != nil {
			return r
		}
		kind := goOutputFlags[strings.TrimPrefix(name, "test.")]
		if kind == 0 || (!hasValue && valueAt == j) || redirect.Harmless(value) {
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

// goBuildToolFlag refuses build flags that choose the toolchain or pass
// it flags naming programs or output paths: -compiler other than gc,
// -gccgoflags, and -gcflags/-ldflags/-asmflags values with a refused
// tool flag (goToolFlagsProblem). argv[j] is the flag, value its value
// (at valueAt).
func goBuildToolFlag(argv []string, j int, name, value string, valueAt int) *Rejection {
	word := argv[j]
	if valueAt != j {
		word += " " + value
	}
	why := ""
	switch name {
	case "compiler":
		if value != "gc" {
			why = "selects a compiler toolchain other than gc (gccgo runs the gccgo and C toolchain programs with flags the go command does not check)"
		}
	case "gccgoflags":
		why = "passes arguments to gccgo, which can name programs (-wrapper, -B) and output files"
	case "gcflags", "ldflags", "asmflags":
		if p := goToolFlagsProblem(name, value); p != "" {
			why = fmt.Sprintf("passes %q to the %s; it %s", value, goToolOf[name], p)
		}
	}
	if why == "" {
		return nil
	}
	return ruleGoExecFlag.Reject(j, word, "argument %d %q %s", j, word, why)
}

// goToolOf names the tool each per-package build flag feeds.
var goToolOf = map[string]string{"gcflags": "compiler", "ldflags": "linker", "asmflags": "assembler"}

// goSubcommand applies the rules of one subcommand (argv[i] is its name).
func goSubcommand(argv []string, i int, ctx Context) *Rejection {
	sub, rest := argv[i], argv[i+1:]
	for k, w := range rest {
		j := i + 1 + k
		name, _, _, isFlag := longName(w)
		switch {
		case sub == "env" && isFlag && (name == "w" || name == "u"):
			return ruleGoEnvWrite.Reject(j, w,
				"argument %d %q makes go env write the user's go env file, which sets GOFLAGS, CC, GOTOOLCHAIN and other programs for later go commands", j, w)
		case sub == "doc" && isFlag && name == "http":
			return ruleGoExecFlag.Reject(j, w,
				"argument %d %q makes go doc fetch and run a documentation server and open a web browser", j, w)
		case sub == "run" && !isFlag && goRemoteVersion(w):
			return ruleGoRemoteRun.Reject(j, w,
				"argument %d %q asks go run to build and run a module version fetched from the network, not repository code", j, w)
		}
	}
	switch {
	case sub == "tool":
		return goTool(argv, i, ctx)
	case (sub == "mod" || sub == "work") && len(rest) > 0 && rest[0] == "edit":
		return goEditFile(argv, i+1, ctx)
	}
	return nil
}

// goEditFile contains the file operand of go mod edit / go work edit
// (argv[e] is "edit"): it names the go.mod or go.work file rewritten in
// place, which may be any path. -json and -print only print.
func goEditFile(argv []string, e int, ctx Context) *Rejection {
	for k := e + 1; k < len(argv); k++ {
		if name, _, _, isFlag := longName(argv[k]); isFlag && (name == "json" || name == "print") {
			return nil
		}
	}
	for _, k := range operandsAfter(argv, e) {
		if r := outputPath(ctx, "go", k, argv[k], argv[k], redirect.File); r != nil {
			return r
		}
	}
	return nil
}

// goRemoteVersion reports whether w looks like a package path at a module
// version (golang.org/x/tools/cmd/stringer@latest).
func goRemoteVersion(w string) bool {
	at := strings.IndexByte(w, '@')
	return at > 0 && strings.ContainsAny(w[:at], "./")
}

// goTool checks go tool's first operand (a tool name) against goTools,
// then the tool's own arguments (goToolArgs). "go tool" alone lists the
// tools.
func goTool(argv []string, i int, ctx Context) *Rejection {
	for j := i + 1; j < len(argv); j++ {
		w := argv[j]
		if _, _, _, isFlag := longName(w); isFlag {
			continue // go tool -n NAME
		}
		why, std := goTools[w]
		switch {
		case !std:
			return ruleGoExternalTool.Reject(j, w,
				"argument %d %q is not a standard go tool, so go tool would run a module tool or another program of that name", j, w)
		case why != "":
			return ruleGoExecTool.Reject(j, w,
				"argument %d %q selects go tool %s, which %s (only the inspection tools addr2line, buildid, covdata, cover, nm, objdump, preprofile and test2json are allowed)", j, w, w, why)
		}
		return goToolArgs(argv, j, ctx)
	}
	return nil
}

// goToolArgs applies the rules of the allowed tool argv[t] to the words
// after it (go 1.26 flag sets of each tool): cover -html without -o opens
// a web browser, cover -pkgcfg/-outfilelist name files listing outputs,
// buildid -w rewrites its operand in place (contained), and test2json
// with a command operand runs that program. -o and profile outputs are
// contained by goFlagScan.
func goToolArgs(argv []string, t int, ctx Context) *Rejection {
	tool, rest := argv[t], argv[t+1:]
	hasO, write := false, false
	html := -1
	for k, w := range rest {
		j := t + 1 + k
		name, _, _, isFlag := longName(w)
		switch {
		case isFlag && name == "o":
			hasO = true
		case tool == "cover" && isFlag && name == "html":
			html = j
		case tool == "cover" && isFlag && (name == "pkgcfg" || name == "outfilelist"):
			return ruleGoExecFlag.Reject(j, w,
				"argument %d %q makes go tool cover read a configuration naming the files it writes", j, w)
		case tool == "buildid" && isFlag && name == "w":
			write = true
		}
	}
	switch {
	case html >= 0 && !hasO:
		return ruleGoExecFlag.Reject(html, argv[html],
			"argument %d %q without -o makes go tool cover write a temporary file and open a web browser on it (add -o FILE.html)", html, argv[html])
	case write:
		for _, k := range operandsAfter(argv, t) {
			if r := outputPath(ctx, "go", k, argv[k], argv[k], redirect.File); r != nil {
				return r
			}
		}
	case tool == "test2json":
		return goTest2JSON(argv, t)
	}
	return nil
}

// goTest2JSON refuses go tool test2json with a command: test2json
// [-p pkg] [-t] [cmd args] runs cmd (flag package parsing: the first
// non-flag word ends the flags).
func goTest2JSON(argv []string, t int) *Rejection {
	for j := t + 1; j < len(argv); j++ {
		w := argv[j]
		if w == "--" {
			j++
			if j < len(argv) {
				return goTest2JSONCommand(argv, j)
			}
			return nil
		}
		name, _, hasValue, isFlag := longName(w)
		switch {
		case !isFlag:
			return goTest2JSONCommand(argv, j)
		case name == "p" && !hasValue:
			j++
		}
	}
	return nil
}

func goTest2JSONCommand(argv []string, j int) *Rejection {
	return ruleGoExecTool.Reject(j, argv[j],
		"argument %d %q is a command for go tool test2json, which runs it (pipe go test output into test2json instead, or use go test -json)", j, argv[j])
}
