package argvrules

import (
	"errors"
	"fmt"
	"strings"
)

// errUnterminatedQuote is returned by splitQuotedFields for a field that
// opens a quote and never closes it (the go command fails there too).
var errUnterminatedQuote = errors.New("unterminated quoted field")

// splitQuotedFields splits a -gcflags/-ldflags/-asmflags value into the
// arguments the go command passes to the tool (go 1.26 cmd/internal/quoted
// semantics, written from its documentation): space, tab, CR and LF
// separate fields; a field that starts with ' or " runs to the next
// identical quote and is taken verbatim (no escapes); quotes inside a
// field are ordinary bytes.
func splitQuotedFields(s string) ([]string, error) {
	var fields []string
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for i := 0; i < len(s); {
		if isSpace(s[i]) {
			i++
			continue
		}
		if q := s[i]; q == '"' || q == '\'' {
			end := strings.IndexByte(s[i+1:], q)
			if end < 0 {
				return nil, errUnterminatedQuote
			}
			fields = append(fields, s[i+1:i+1+end])
			i += end + 2
			continue
		}
		start := i
		for i < len(s) && !isSpace(s[i]) {
			i++
		}
		fields = append(fields, s[start:i])
	}
	return fields, nil
}

// goPerPackageValue strips the optional "pattern=" prefix of a per-package
// build flag value (go help build: -gcflags '[pattern=]arg list'): after
// trimming spaces, a value that does not start with "-" and contains "="
// is a package pattern, then the argument list.
func goPerPackageValue(v string) string {
	v = strings.TrimSpace(v)
	if v == "" || v[0] == '-' {
		return v
	}
	if _, list, ok := strings.Cut(v, "="); ok {
		return list
	}
	return v
}

// Reasons a toolchain flag is refused.
const (
	whyProgram = "names a program the toolchain runs"
	whyOutput  = "names a file or directory the toolchain writes, which the go command does not confine to the working directory"
	whyInput   = "makes the toolchain read packages, configuration or environment from a path of its choosing instead of the ones the go command computed"
)

// goCompileDeny are the go 1.26 compiler flags (cmd/compile -help) that
// -gcflags may not carry.
var goCompileDeny = map[string]string{
	"o": whyOutput, "asmhdr": whyOutput, "linkobj": whyOutput, "bench": whyOutput,
	"cpuprofile": whyOutput, "memprofile": whyOutput, "blockprofile": whyOutput,
	"mutexprofile": whyOutput, "traceprofile": whyOutput, "json": whyOutput,
	"importcfg": whyInput, "embedcfg": whyInput, "coveragecfg": whyInput, "symabis": whyInput,
	"I":   whyInput,
	"env": "sets compiler environment variables such as GOSSADIR and GSHS_LOGFILE, which name files the compiler writes",
}

// goLinkDeny are the go 1.26 linker flags (cmd/link -help) that -ldflags
// may not carry; -extldflags is judged by its value (goExtLinkFlagOK).
// -linkmode=external stays allowed: it runs the default C linker (gcc or
// the CC the go command computed) with the flags the go command checked,
// as every cgo build does.
var goLinkDeny = map[string]string{
	"extld": whyProgram + " (the external linker)",
	"extar": whyProgram + " (the archiver for c-archive)",
	"I":     "sets the ELF dynamic linker (interpreter), a program the kernel runs whenever the built binary starts",
	"r":     "sets the run-time library search path, so the built binary loads shared libraries from a directory of its choosing",
	"o":     whyOutput, "tmpdir": whyOutput, "cpuprofile": whyOutput, "memprofile": whyOutput,
	"benchmarkprofile": whyOutput, "fipso": whyOutput, "capturehostobjs": whyOutput,
	"importcfg": whyInput, "L": whyInput,
}

// goAsmDeny are the go 1.26 assembler flags (cmd/asm -help) that
// -asmflags may not carry.
var goAsmDeny = map[string]string{"o": whyOutput, "I": whyInput}

// goToolFlagDeny maps a go build flag to the deny table of its tool.
var goToolFlagDeny = map[string]map[string]string{
	"gcflags": goCompileDeny, "ldflags": goLinkDeny, "asmflags": goAsmDeny,
}

// goToolFlagsProblem returns why the value of -gcflags, -ldflags or
// -asmflags (flag names the build flag) is refused, or "". Tool flags use
// the flag package syntax (-name, --name, -name=value, -name value).
func goToolFlagsProblem(flag, value string) string {
	deny := goToolFlagDeny[flag]
	if v := strings.TrimSpace(value); v != "" && (v[0] == '"' || v[0] == '\'') {
		return "starts with a quote character, where the go command expects a flag or a package pattern, so what reaches the tool cannot be decided"
	}
	fields, err := splitQuotedFields(goPerPackageValue(value))
	if err != nil {
		return fmt.Sprintf("cannot be split into tool arguments (%v), so what reaches the tool cannot be decided", err)
	}
	for k, f := range fields {
		name, v, hasValue, ok := longName(f)
		if !ok {
			continue
		}
		if why, bad := deny[name]; bad {
			return fmt.Sprintf("carries the tool flag %q, which %s", f, why)
		}
		if !hasValue && k+1 < len(fields) {
			v = fields[k+1]
		}
		switch {
		case flag == "ldflags" && name == "extldflags":
			if p := goExtLinkFlagsProblem(v); p != "" {
				return fmt.Sprintf("carries the tool flag %q, which passes %q to the external linker; %s", f, v, p)
			}
		case flag == "gcflags" && name == "d" && strings.Contains(strings.ToLower(v), "dumpinlfuncprops"):
			return fmt.Sprintf("carries the compiler debug setting %q, whose dumpinlfuncprops key names a file the compiler writes", v)
		}
	}
	return ""
}

// goExtLinkSafe are the C linker driver flags -extldflags may carry
// (gcc 12 "Link Options"): they select static or position-independent
// linking and name no program, plugin, script or path. -lNAME links a
// library from the standard search path.
var goExtLinkSafe = map[string]bool{
	"-static": true, "-static-pie": true, "-static-libgcc": true, "-static-libstdc++": true,
	"-pie": true, "-no-pie": true, "-s": true, "-rdynamic": true, "-pthread": true,
}

// goExtLinkFlagsProblem returns why an -extldflags value is refused, or
// "": every field (split like the linker does, quoted fields) must be in
// goExtLinkSafe or a plain -lNAME. Anything else can name a program
// (-wrapper, -fuse-ld=PATH, -B), a linker plugin or script (-Wl,...,
// -T) or an output file.
func goExtLinkFlagsProblem(v string) string {
	fields, err := splitQuotedFields(v)
	if err != nil {
		return fmt.Sprintf("it cannot be split into linker arguments (%v)", err)
	}
	for _, f := range fields {
		if goExtLinkSafe[f] || goPlainLib(f) {
			continue
		}
		return fmt.Sprintf("%q is not among the linker flags allowed there (-static, -static-pie, -pie, -no-pie, -s, -rdynamic, -pthread, -lNAME), and linker flags can name programs (-wrapper, -fuse-ld), plugins and output files", f)
	}
	return ""
}

// goPlainLib reports whether f is -lNAME with NAME of letters, digits,
// "_", "+", "-" and "." only (no path).
func goPlainLib(f string) bool {
	name, ok := strings.CutPrefix(f, "-l")
	if !ok || name == "" || name[0] == ':' {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_+-.", c)) {
			return false
		}
	}
	return true
}
