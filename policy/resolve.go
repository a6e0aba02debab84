package policy

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// The checks on where argv[0] leads. A name is judged by what runs, not by
// how it is spelled: the refusal list sees every file of the symlink chain
// (x86_64 -> setarch), and a program that lies in a directory calls can
// write (an allowed directory: the request can plant or replace files
// there with redirections, archives, patches or copies) runs only when the
// operator allowlisted its exact absolute path. The resolution is the
// plan's: the runner executes the file it found after checking that it
// is still the same file (childenv.Resolution.Verify), never the name
// again.

// resolveProgram resolves name with the child PATH. A name that is not
// found yields a Program with Err set: the runner then fails to start
// it, and recognizers judge by the name alone. A name the search finds
// as a script Windows would hand to cmd.exe or a script host is refused
// here, with the file it found.
func (p *Policy) resolveProgram(name string, index int) (plan.Program, error) {
	r, err := childenv.Resolve(name, p.programPath, "")
	if se, ok := errors.AsType[*childenv.ScriptFileError](err); ok {
		return plan.Program{}, reject(CodeRefusedProgram, index, name,
			"Command rejected by default security policy: %q resolves to %s, a script Windows runs through %s: refused whatever the allowlist says", name, se.File, se.Host)
	}
	if err != nil {
		return plan.Program{Err: err}, nil
	}
	return plan.Program{Resolution: r}, nil
}

// checkLocation refuses a relative program path (it names a file in the
// working directory) and a program any of whose chain lies where calls
// can write: an allowed directory, the call's directory, or a tree the
// sandbox makes writable outside them (its caches, an operator's GOPATH:
// sandbox.Rules.WritableRoots), unless name is an absolute path the
// operator allowlisted exactly.
func (p *Policy) checkLocation(name string, index int, prog plan.Program, c callContext) error {
	if strings.Contains(name, "/") && !filepath.IsAbs(name) {
		return reject(CodeWritableProgram, index, name,
			"Command rejected by default security policy: program in a writable directory: %q is a path relative to the working directory, which calls can write; allowlist the program's absolute path and call it by that path", name)
	}
	if prog.Found == "" || (filepath.IsAbs(name) && p.commands[name]) {
		return nil
	}
	writable := append(append([]string{}, p.cfg.AllowedDirs...), p.cfg.Sandbox.WritableRoots(c.base)...)
	if c.dir != nil {
		writable = append(writable, c.dir.Real())
	}
	for _, f := range chainFiles(prog.Resolution) {
		if d := workdir.Inside(f, writable); d != "" {
			return reject(CodeWritableProgram, index, name,
				"Command rejected by default security policy: program in a writable directory: %q resolves to %s, inside %s, where calls can plant or replace programs; only an exact absolute path in ALLOW_COMMANDS runs such a program", name, f, d)
		}
	}
	return nil
}

// chainFiles are the files of r's chain with their directories resolved:
// where each hop really lies.
func chainFiles(r childenv.Resolution) []string {
	out := []string{r.Real}
	for _, f := range append([]string{r.Found}, r.Links...) {
		if d, err := filepath.EvalSymlinks(filepath.Dir(f)); err == nil {
			f = filepath.Join(d, filepath.Base(f))
		}
		out = append(out, f)
	}
	return out
}

// checkTargets applies the refusal list to every file of the chain after
// the name itself, up to a multi-call binary (BusyBox runs the applet that
// argv[0]'s basename names, which the name check has judged; but a name
// starting with the binary's own name makes it take the applet from
// argv[1], so such a name is refused).
func checkTargets(name string, index int, r childenv.Resolution) error {
	base := strings.ToLower(filepath.Base(name))
	for _, f := range append(r.Links, r.Real) {
		t := filepath.Base(f)
		if multiCallTarget[t] {
			if strings.HasPrefix(base, t) {
				return refusedTarget(name, index, f, t, "multi-call binary with a shell")
			}
			return nil
		}
		if n, category, ok := Refused(t); ok {
			return refusedTarget(name, index, f, n, category)
		}
	}
	return nil
}

// checkSystemDir refuses, on Windows, a program inside the Windows
// directory (naming.systemDir), found through any PATH entry.
func (p *Policy) checkSystemDir(name string, index int, r childenv.Resolution) error {
	getenv := func(v string) string { s, _ := p.getenv(v); return s }
	if dir := p.naming.systemDir(r.Real, getenv); dir != "" {
		return reject(CodeRefusedProgram, index, name,
			"Command rejected by default security policy: %q resolves to %s, inside the Windows directory %s, whose programs (sort, find, more, xcopy, ...) have grammars the argument rules do not know: refused whatever the allowlist says", name, r.Real, dir)
	}
	return nil
}

// multiCallTarget are the refused multi-call binaries whose applets are
// judged by argv[0]'s name (Alpine links awk, ls, grep ... to busybox).
var multiCallTarget = map[string]bool{"busybox": true, "toybox": true}

func refusedTarget(name string, index int, file, n, category string) error {
	return reject(CodeRefusedProgram, index, name,
		"Command rejected by default security policy: %s (%q resolves to %s, which is %s %q: refused whatever the allowlist says)", n, name, file, category, n)
}
