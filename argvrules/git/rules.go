package git

import (
	"slices"
	"strings"
	"sync"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/internal/fsview"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// checkOutputPath refuses an output file or directory that leaves the
// working directory, with the one containment check every family uses
// (redirect.ProbeWrite: lexical rules, then symlinks resolved under the
// call's directory). The path is judged as given and as git opens it:
// after the -C values (in order) and, for commands that chdir to the work
// tree, below each --work-tree value. Every -C, --git-dir and --work-tree
// value must itself pass the lexical rules. "-" and /dev/null are harmless.
func checkOutputPath(ev optEvent, g globals, kind redirect.Kind) *refusal.Rejection {
	idx, arg := ev.index, ev.arg
	if ev.vindex >= 0 {
		idx, arg = ev.vindex, ev.value
	}
	if ev.hasValue && redirect.Harmless(ev.value) {
		return nil
	}
	for _, d := range slices.Concat(g.cdirs, g.gitDirs, g.workTrees) {
		if err := redirect.Check(d); err != nil {
			return ruleOutput.Reject(idx, arg,
				"%q is resolved against the global directory option value %q, which leaves the working directory (%s)",
				ev.arg, d, err)
		}
	}
	for _, p := range outputCandidates(ev.value, g) {
		if err := redirect.ProbeWrite(g.dir, p, kind); err != nil || !ev.hasValue {
			return ruleOutput.Reject(idx, arg,
				"%q writes to %q, which must stay inside the working directory (%v)", ev.arg, ev.value, err)
		}
	}
	return nil
}

// outputCandidates are the paths git may open for value: as given, after
// the -C prefix, and below each work tree after that prefix.
func outputCandidates(value string, g globals) []string {
	out := []string{value}
	prefix := slices.Clone(g.cdirs)
	if len(prefix) > 0 {
		out = append(out, strings.Join(append(prefix, value), "/"))
	}
	for _, wt := range g.workTrees {
		out = append(out, strings.Join(append(slices.Clone(prefix), wt, value), "/"))
	}
	return out
}

// isOutputOption reports whether ev is diff.c's --output (typed exactly or
// as a prefix of at least two letters, conservatively: the diff parser
// does not abbreviate, but older parsers did).
func isOutputOption(ev optEvent) bool {
	name, ok := longName(ev.arg)
	if !ok || ev.unset {
		return false
	}
	return len(name) >= 2 && strings.HasPrefix("output", name)
}

// checkLogFamily covers log, show, diff and the other revision/diff
// walkers: --output=FILE must stay inside the working directory.
func checkLogFamily(args []string, base int, g globals) *refusal.Rejection {
	res, rej := parseAndCheck(args, base, &logTable)
	if rej != nil {
		return rej
	}
	for _, ev := range res.events {
		if isOutputOption(ev) {
			if rej := checkOutputPath(ev, g, redirect.File); rej != nil {
				return rej
			}
		}
	}
	return nil
}

var formatPatchTable = sync.OnceValue(func() *optTable {
	t := optTable{number: true, noAbbrev: true}
	t.opts = append(t.opts, logTable.opts...)
	t.opts = append(t.opts, formatPatchExtra...)
	return &t
})

// checkFormatPatch adds -o/--output-directory DIR (which must stay inside
// the working directory) to the log-family rules.
func checkFormatPatch(args []string, base int, g globals) *refusal.Rejection {
	res, rej := parseAndCheck(args, base, formatPatchTable())
	if rej != nil {
		return rej
	}
	if rej := checkPatchNames(res, args, base, g); rej != nil {
		return rej
	}
	for _, ev := range res.events {
		name, isLong := longName(ev.arg)
		isDir := ev.spec != nil && ev.spec.long == "output-directory" && !ev.unset
		if isLong && len(name) >= 7 && strings.HasPrefix("output-directory", name) {
			isDir = true
		}
		if isDir || isOutputOption(ev) {
			kind := redirect.File
			if isDir {
				kind = redirect.Dir
			}
			if rej := checkOutputPath(ev, g, kind); rej != nil {
				return rej
			}
		}
	}
	return nil
}

// checkArchive confines -o/--output and refuses --exec (with --remote it
// names the remote upload-archive program).
func checkArchive(args []string, base int, g globals) *refusal.Rejection {
	res, rej := parseAndCheck(args, base, &archiveTable)
	if rej != nil {
		return rej
	}
	if rej := checkArchiveFormat(res); rej != nil {
		return rej
	}
	for _, ev := range res.events {
		if ev.spec != nil && ev.spec.long == "output" && !ev.unset {
			if rej := checkOutputPath(ev, g, redirect.File); rej != nil {
				return rej
			}
		}
	}
	return nil
}

// checkApply refuses --unsafe-paths and confines --build-fake-ancestor
// and --directory. apply.c prepends the --directory root to every name of
// the patch and, without --unsafe-paths, refuses names that verify_path
// rejects (absolute, "..", .git); the root itself is kept to the lexical
// rules and the working directory here, so no value can point elsewhere
// even where git's own check would change.
func checkApply(args []string, base int, g globals) *refusal.Rejection {
	res, rej := parseAndCheck(args, base, &applyTable)
	if rej != nil {
		return rej
	}
	for _, ev := range res.events {
		if ev.spec == nil || ev.unset {
			continue
		}
		switch ev.spec.long {
		case "build-fake-ancestor":
			if rej := checkOutputPath(ev, g, redirect.File); rej != nil {
				return rej
			}
		case "directory":
			if rej := checkOutputPath(ev, g, redirect.Dir); rej != nil {
				return rej
			}
		}
	}
	return nil
}

// configReadActions are the legacy-mode actions of builtin/config.c that
// only read (git 2.53 ∪ 2.39).
var configReadActions = map[string]bool{
	"get": true, "get-all": true, "get-regexp": true, "get-urlmatch": true,
	"list": true, "get-color": true, "get-colorbool": true,
}

// checkConfig allows reading configuration and refuses every write: the
// 2.46+ subcommands other than list/get, the legacy write actions (and
// abbreviations that could mean one), -e/--edit, and the implicit set of
// "git config NAME VALUE". A global option before config is refused too,
// conservatively, so that reads are accepted only in their plain form.
func checkConfig(args []string, base int, g globals) *refusal.Rejection {
	if g.any {
		return ruleConfigWrite.Reject(base-1, "config",
			"git config is accepted only without global options before it (read-only forms such as \"git config --get NAME\")")
	}
	if len(args) > 0 {
		switch args[0] {
		case "list", "get":
			_, rej := parseAndCheck(args[1:], base+1, &configTable)
			return rej
		case "set", "unset", "rename-section", "remove-section", "edit":
			return ruleConfigWrite.Reject(base, args[0],
				"git config %s changes configuration", args[0])
		}
	}
	res, rej := parseAndCheck(args, base, &configTable)
	if rej != nil {
		return rej
	}
	action := ""
	for _, ev := range res.events {
		if ev.spec != nil && configReadActions[ev.spec.long] {
			action = ev.spec.long
		}
	}
	if action == "" && len(res.operands) >= 2 {
		i := res.operands[0]
		return ruleConfigWrite.Reject(i, args[i-base],
			"git config NAME VALUE sets %q", args[i-base])
	}
	return nil
}

// checkHelp allows the listing forms of git help and refuses those that
// open a manual page (any operand, -m/-w/-i).
func checkHelp(args []string, base int, g globals) *refusal.Rejection {
	res, rej := parseAndCheck(args, base, &helpTable)
	if rej != nil {
		return rej
	}
	if len(res.operands) > 0 {
		i := res.operands[0]
		return ruleHelp.Reject(i, args[i-base],
			"git help %s opens a manual page with man, info or a browser", args[i-base])
	}
	return nil
}

// checkBisect refuses "git bisect run" (it runs a command per step) and
// "git bisect visualize/view" with arguments (they run gitk, tig, any
// git* program or a git subcommand named by the first argument).
func checkBisect(args []string, base int, g globals) *refusal.Rejection {
	if len(args) == 0 {
		return nil
	}
	switch args[0] {
	case "run":
		return ruleExternal.Reject(base, args[0],
			"git bisect run runs the given command at every step")
	case "visualize", "view":
		if len(args) > 1 {
			return ruleExternal.Reject(base+1, args[1],
				"git bisect %s with arguments runs the program or subcommand they name", args[0])
		}
	}
	return tableCheck(&optTable{})(args, base, g)
}

// checkSubmodule refuses "git submodule foreach", following
// git-submodule.sh's loop: -q/--quiet and --cached may precede the
// subcommand, which is the first other argument.
func checkSubmodule(args []string, base int, g globals) *refusal.Rejection {
	for k, a := range args {
		switch a {
		case "-q", "--quiet", "--cached":
			continue
		case "foreach":
			return ruleExternal.Reject(base+k, a,
				"git submodule foreach runs a shell command in every submodule")
		}
		break
	}
	return tableCheck(&optTable{})(args, base, g)
}

// checkMaintenance allows "git maintenance run" (and its listing forms) and
// refuses the subcommands that install scheduled jobs or edit global
// configuration (start, stop, register, unregister).
func checkMaintenance(args []string, base int, g globals) *refusal.Rejection {
	if len(args) > 0 {
		switch args[0] {
		case "start", "stop", "register", "unregister":
			return ruleSubcommand.Reject(base, args[0],
				"git maintenance %s schedules jobs or edits global configuration", args[0])
		}
	}
	return tableCheck(&optTable{})(args, base, g)
}

// checkPatchNames contains the files format-patch names itself
// (log-tree.c fmt_output_subject: [vN-]NNNN-subject.patch, 0000-cover-letter.patch,
// or plain numbers with --numbered-files) in its output directory (-o DIR
// or the current one): a symlink planted under such a name would be
// followed when git opens the patch for writing.
func checkPatchNames(res parseResult, args []string, base int, g globals) *refusal.Rejection {
	if g.dir == nil {
		return nil
	}
	dir := "."
	for _, ev := range res.events {
		switch {
		case ev.spec == nil || ev.unset:
		case ev.spec.long == "stdout":
			return nil
		case ev.spec.long == "output-directory" && ev.hasValue:
			dir = ev.value
		}
	}
	full := strings.Join(append(append([]string{}, g.cdirs...), dir), "/")
	if redirect.Check(full) != nil && full != "." {
		return nil // an output directory outside is refused by its own rule
	}
	f, err := fsview.OpenDir(g.dir.Root(), full)
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	for _, n := range names {
		if !patchName.MatchString(n) {
			continue
		}
		if err := redirect.ProbeWrite(g.dir, full+"/"+n, redirect.File); err != nil {
			return ruleOutput.Reject(base-1, "format-patch",
				"git format-patch writes its patches under names like %q in %q, and that entry is refused (%v)", n, dir, err)
		}
	}
	return nil
}

// patchName matches the names format-patch writes.
var patchName = lazyre.New(`^(v[0-9]+-)?[0-9]+(-|$)`)
