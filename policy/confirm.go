package policy

import (
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/git"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// Confirm is the confirm tier: what of the calls the policy allows must
// wait for the user's answer before it runs. It only narrows: a call it
// matches is still every bit as allowed and confined as one it does not.
type Confirm struct {
	// Commands are program names or paths (parsed as the allowlist's
	// entries).
	Commands []string
	// Patterns are full-match expressions (already anchored) for a
	// stage's argv joined with single spaces; PatternSources are the
	// operator's texts, for rule names.
	Patterns       []*regexp.Regexp
	PatternSources []string
}

// empty reports a tier that holds no call.
func (c Confirm) empty() bool { return len(c.Commands) == 0 && len(c.Patterns) == 0 }

// confirmations are the confirm-tier rules the approved call matches, one
// per matching stage (the first rule that matches it: commands, then
// patterns in the operator's order). A stage is read with every program
// it runs: a wrapper's stage (timeout, nice, env, xargs ...) matches when
// the program it runs does.
func (p *Policy) confirmations(call *plan.Call) []plan.Confirmation {
	if p.cfg.Confirm.empty() {
		return nil
	}
	var out []plan.Confirmation
	for i := range call.Stages {
		for st := &call.Stages[i]; st != nil; st = st.Wrapped {
			if rule := p.confirmRule(st); rule != "" {
				out = append(out, plan.Confirmation{Stage: i, Rule: rule})
				break
			}
		}
	}
	return out
}

// confirmRule is the first confirm rule st itself matches, or "".
func (p *Policy) confirmRule(st *plan.Stage) string {
	c := p.cfg.Confirm
	for _, e := range c.Commands {
		if p.confirmsProgram(e, st) {
			return "confirm.command:" + e
		}
	}
	for i, re := range c.Patterns {
		if slices.ContainsFunc(p.spellings(st), re.MatchString) {
			return "confirm.pattern:" + c.PatternSources[i]
		}
	}
	return ""
}

// confirmsProgram reports whether the confirm entry e names st's program:
// an entry with a path separator is compared with argv[0] and every file
// it leads to (Found, the symlink chain, Real); a name with the basename
// of each, as the host spells names (case-insensitive, without a Windows
// image extension). Matching any of them is the conservative reading:
// "rm" holds /usr/bin/rm and a symlink to it, "busybox" every applet.
// Last, the entry itself is resolved through the stage's PATH and held
// when it is the very file the stage runs: another name for it (awk for
// gawk through /etc/alternatives, bunzip2 for a hard link of bzip2).
func (p *Policy) confirmsProgram(e string, st *plan.Stage) bool {
	files := append([]string{st.Argv[0], st.Program.Found, st.Program.Real}, st.Program.Links...)
	if strings.ContainsAny(e, p.naming.separators) {
		return slices.Contains(files, e) || sameFile(e, st.Program.Real)
	}
	want, _ := stripExec(p.naming.base(e))
	for _, f := range files {
		if f == "" {
			continue
		}
		if got, _ := stripExec(p.naming.base(f)); got == want {
			return true
		}
	}
	path, _ := childenv.Lookup(st.Env, "PATH")
	r, err := childenv.Resolve(e, path, "")
	return err == nil && sameFile(r.Real, st.Program.Real)
}

// sameFile reports whether a and b name one file (a hard link included).
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// spellings are the texts a confirm pattern is matched against: argv
// joined with single spaces as sent; with argv[0] as its bare name
// (/usr/bin/git push → git push); and, for git, from the subcommand on,
// its global options left out (git -C . --no-pager push → git push), so
// that "git push.*" holds every git push however it is spelled.
func (p *Policy) spellings(st *plan.Stage) []string {
	argv := st.Argv
	name := argv[0][strings.LastIndexAny(argv[0], p.naming.separators)+1:]
	out := []string{strings.Join(argv, " ")}
	if name != argv[0] {
		out = append(out, strings.Join(append([]string{name}, argv[1:]...), " "))
	}
	if st.Family == "git" {
		if sub, ok := strings.CutPrefix(strings.ToLower(name), "git-"); ok && sub != "" {
			out = append(out, strings.Join(append([]string{"git", sub}, argv[1:]...), " "))
		} else if i := git.SubcommandIndex(argv); i > 1 {
			out = append(out, strings.Join(append([]string{name}, argv[i:]...), " "))
		}
	}
	return out
}
