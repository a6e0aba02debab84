package git

import (
	"path"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// One rule for every path git writes: it is resolved the way git resolves
// it (after the global -C, --git-dir and --work-tree values) and must stay
// inside the working directory (checkOutputPath). The diff options'
// --output=FILE is accepted by every command that takes diff or revision
// options (log, show, reflog, stash show/list, diff-*, range-diff,
// format-patch, whatchanged, an operator's alias ...), so it is checked on
// every subcommand, whatever its table says.

// checkOutputWords confines every --output (diff.c, exact or abbreviated
// to at least "--ou"; "--output FILE" or "--output=FILE") among the
// options of any subcommand, before a "--".
func checkOutputWords(args []string, base int, g globals) *refusal.Rejection {
	for k := 0; k < len(args); k++ {
		a := args[k]
		if a == "--" || a == "--end-of-options" {
			return nil
		}
		name, ok := longName(a)
		if !ok || len(name) < 2 || !strings.HasPrefix("output", name) {
			continue
		}
		ev := optEvent{index: base + k, vindex: -1, arg: a}
		if _, v, has := strings.Cut(a, "="); has {
			ev.value, ev.hasValue = v, true
		} else if k+1 < len(args) {
			k++
			ev.value, ev.hasValue, ev.vindex = args[k], true, base+k
		}
		if redirect.Harmless(ev.value) {
			continue
		}
		if rej := checkOutputPath(ev, g, redirect.File); rej != nil {
			return rej
		}
	}
	return nil
}

// bundleTable is builtin/bundle.c's create options (git 2.39 ∪ 2.53).
var bundleTable = optTable{opts: []optSpec{
	f("quiet", 'q'), f("progress", 0), f("all-progress", 0), f("all-progress-implied", 0),
	r("version", 0),
}}

// checkBundle allows "git bundle create FILE REVS" with FILE contained
// ("-" is standard output) and the reading forms (verify, list-heads,
// unbundle).
func checkBundle(args []string, base int, g globals) *refusal.Rejection {
	if len(args) == 0 {
		return nil
	}
	switch args[0] {
	case "verify", "list-heads", "unbundle":
		return tableCheck(&bundleTable)(args[1:], base+1, g)
	case "create":
	default:
		return ruleUnknownSub.Reject(base, args[0], "%q is not a git bundle subcommand (create, verify, list-heads, unbundle)", args[0])
	}
	res, rej := parseAndCheck(args[1:], base+1, &bundleTable)
	if rej != nil || len(res.operands) == 0 {
		return rej
	}
	i := res.operands[0]
	file := args[i-base]
	if file == "-" {
		return nil
	}
	return checkOutputPath(optEvent{index: i, vindex: -1, arg: file, value: file, hasValue: true}, g, redirect.File)
}

// checkInit confines the repository git init creates and refuses to let it
// adopt a configuration written before: init keeps an existing "config"
// file in the git directory and only adds its core settings (builtin/init-db.c
// create_default_files uses git_config_set), so "> evil/config" followed by
// "git init --bare evil" would make evil a repository whose configuration
// the request wrote (remote.*.uploadpack, core.fsmonitor ...).
func checkInit(args []string, base int, g globals) *refusal.Rejection {
	res, rej := parseAndCheck(args, base, &initTable)
	if rej != nil {
		return rej
	}
	bare, sep := g.bare, ""
	for _, ev := range res.events {
		switch {
		case ev.spec == nil:
		case ev.spec.long == "bare" && !ev.unset:
			bare = true
		case ev.spec.long == "separate-git-dir" && ev.hasValue:
			sep = ev.value
		}
	}
	dir, at := ".", base-1
	if len(res.operands) > 0 {
		at = res.operands[0]
		dir = args[at-base]
	}
	var gitDirs []string
	switch {
	case sep != "":
		gitDirs = append(gitDirs, sep)
	case g.gitDir != "":
		gitDirs = append(gitDirs, g.gitDir)
	case bare:
		gitDirs = append(gitDirs, dir)
	default:
		gitDirs = append(gitDirs, path.Join(dir, ".git"))
	}
	arg := "init"
	if at >= base {
		arg = args[at-base]
	}
	return checkAdoption(gitDirs, at, arg, g)
}

// checkClone adds to clone's table the adoption check for
// --separate-git-dir (a bare or mirror clone needs an empty destination).
func checkClone(args []string, base int, g globals) *refusal.Rejection {
	res, rej := parseAndCheck(args, base, &cloneTable)
	if rej != nil {
		return rej
	}
	for _, ev := range res.events {
		if ev.spec != nil && ev.spec.long == "separate-git-dir" && ev.hasValue {
			if rej := checkAdoption([]string{ev.value}, ev.index, ev.arg, g); rej != nil {
				return rej
			}
		}
	}
	return nil
}

// checkAdoption refuses when a would-be git directory, resolved after the
// -C values, already holds a "config" file without being a repository.
func checkAdoption(gitDirs []string, at int, arg string, g globals) *refusal.Rejection {
	if g.dir == nil {
		return nil
	}
	for _, d := range gitDirs {
		p := path.Join(append(append([]string{}, g.cdirs...), d)...)
		if redirect.Check(p) != nil {
			continue // outside the working directory: git writes there on its own (delegated)
		}
		root := g.dir.Root()
		if _, err := root.Lstat(path.Join(p, "config")); err != nil || redirect.IsGitDir(root, p) {
			continue
		}
		return ruleInitAdopt.Reject(at, arg,
			"git would make %q a git directory and keep the \"config\" file already there, which this call did not let git write: configuration there can make git run programs", p)
	}
	return nil
}

// archiveFormats are git archive's built-in formats and the extensions
// -o maps to them (archive.c, archive-tar.c tar_filters: tar.gz and tgz run
// "gzip -cn", pinned in ChildConfig). Any other name selects a
// tar.<format>.command filter from configuration, which runs a program.
var archiveFormats = map[string]bool{"tar": true, "zip": true, "tar.gz": true, "tgz": true}

// knownArchiveExt reports whether name ends in the extension of a
// built-in format (archive.c match_extension).
func knownArchiveExt(name string) bool {
	for f := range archiveFormats {
		if strings.HasSuffix(name, "."+f) {
			return true
		}
	}
	return false
}

// checkArchiveFormat refuses --format values and -o extensions that could
// select a configured tar.<format>.command filter.
func checkArchiveFormat(res parseResult) *refusal.Rejection {
	for _, ev := range res.events {
		if ev.spec == nil || !ev.hasValue || ev.unset {
			continue
		}
		switch ev.spec.long {
		case "format":
			if !archiveFormats[ev.value] {
				return ruleExternal.Reject(ev.index, ev.arg,
					"%q selects an archive format that is not built in, so git runs the tar.<format>.command filter configuration names", ev.arg)
			}
		case "output":
			if name := path.Base(ev.value); strings.Contains(name, ".") && !knownArchiveExt(name) {
				return ruleExternal.Reject(ev.index, ev.arg,
					"%q has an extension git may map to a configured tar.<format>.command filter, which runs a program; use .tar, .zip, .tgz or .tar.gz", ev.arg)
			}
		}
	}
	return nil
}
