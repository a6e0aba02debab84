package argvrules

import (
	"path"
	"strconv"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

const hgPolicy = "hg external code"

// checkHg is the recognizer of Mercurial (hg 5.x–6.x). hg loads code into
// itself: --config sets any configuration key, and extensions.NAME=PATH
// imports a Python file, hooks.*=python:FILE:fn calls into one, and
// ui.editor, ui.merge, pager.pager name programs (hg help config). hg
// reads its early options (--config, --cwd, -R/--repository/--repo,
// --debugger) with fancyopts.earlygetopt before it parses anything else,
// anywhere before "--" and even where they are the value of another
// option (mercurial/dispatch.py _earlyparseopts), and it loads the
// extensions they configure at once; so every word is scanned, wherever
// it is:
//
//   - --config (and any abbreviation hg would reject later) is refused,
//     whatever the key;
//
//   - --debugger is refused: pdb takes Python from standard input;
//
//   - --cwd DIR and -R/--repository/--repo REPO are contained in the
//     working directory (hg reads DIR/.hg/hgrc and REPO/.hg/hgrc, and
//     writes the repository);
//
//   - the command serve (and its prefixes) and the debug commands are
//     refused: serve --stdio and --cmdserver take commands on standard
//     input, debugshell is a Python prompt, debugserve, debugwireproto
//     and debugdownload start servers, processes and downloads.
//
//   - the repository hg will use, when it lies inside the working
//     directory (found from --cwd or the working directory upwards, or
//     named by -R), must carry no configuration that loads code or names
//     a program (hgRepoConfig): redirections and output options cannot
//     write .hg/hgrc, but patch, tar, cp or git apply write files by
//     their data.
//
// Delegated: a repository above the working directory and its
// configuration, the user's ~/.hgrc, and the files hg commands write
// elsewhere (clone and init destinations, archive, bundle, export -o),
// which the kernel sandbox contains.
func checkHg(argv []string, ctx Context) *Rejection {
	var cwd, repo string
	repoIdx := -1
	command := -1
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		if command < 0 && (len(w) < 2 || w[0] != '-') {
			command = i
			if rej := hgCommand(argv, i); rej != nil {
				return rej
			}
			continue
		}
		name, value, hasValue := hgLong(w)
		switch {
		case name != "" && hgIsPrefix(name, "config", 2):
			return ruleHgLoadCode.Reject(i, w,
				"argument %d %q sets hg configuration from the command line (extensions.NAME=FILE imports Python code, hooks run commands), which is refused whatever the key", i, w)
		case name != "" && (name == "debugger" || hgIsPrefix(name, "debugger", 6) && name != "debug"):
			return ruleHgLoadCode.Reject(i, w, "argument %d %q starts the Python debugger, which runs the code given on standard input", i, w)
		case name == "cwd" || name != "" && hgIsPrefix(name, "cwd", 2):
			v, vi := hgValue(argv, i, value, hasValue)
			if vi < 0 {
				continue
			}
			if rej := outputPath(ctx, "hg", i, hgWord(argv, i, vi), v, redirect.Dir); rej != nil {
				return rej
			}
			cwd = v
			i = vi
		case name == "repository" || name == "repo" || name != "" && hgIsPrefix(name, "repository", 5):
			v, vi := hgValue(argv, i, value, hasValue)
			if vi < 0 {
				continue
			}
			if rej := hgRepo(ctx, cwd, i, hgWord(argv, i, vi), v); rej != nil {
				return rej
			}
			repo, repoIdx, i = v, i, vi
		case strings.HasPrefix(w, "-R"):
			v, vi := hgValue(argv, i, w[2:], len(w) > 2)
			if vi < 0 {
				continue
			}
			if rej := hgRepo(ctx, cwd, i, hgWord(argv, i, vi), v); rej != nil {
				return rej
			}
			repo, repoIdx, i = v, i, vi
		case command < 0 && hgTakesValue[name] && !hasValue:
			i++ // a global option's value comes before the command
		}
	}
	return hgRepoConfig(argv, ctx, cwd, repo, repoIdx)
}

// hgTakesValue are hg's other global options with a value
// (commands.globalopts).
var hgTakesValue = map[string]bool{"color": true, "encoding": true, "encodingmode": true, "pager": true}

// hgLong returns the name of a long option word ("--name" or
// "--name=value").
func hgLong(w string) (name, value string, hasValue bool) {
	if !strings.HasPrefix(w, "--") || w == "--" {
		return "", "", false
	}
	name, value, hasValue = strings.Cut(w[2:], "=")
	return name, value, hasValue
}

// hgIsPrefix reports whether name abbreviates full (at least min bytes).
func hgIsPrefix(name, full string, min int) bool {
	return len(name) >= min && strings.HasPrefix(full, name)
}

// hgValue is an early option's value: attached, or the next word.
func hgValue(argv []string, i int, value string, hasValue bool) (string, int) {
	if hasValue {
		return value, i
	}
	if i+1 < len(argv) {
		return argv[i+1], i + 1
	}
	return "", -1
}

func hgWord(argv []string, i, vi int) string {
	if vi != i {
		return argv[i] + " " + argv[vi]
	}
	return argv[i]
}

// hgRepo contains a repository (or overlay bundle) path, relative to
// --cwd when one is given.
func hgRepo(ctx Context, cwd string, i int, word, v string) *Rejection {
	if cwd != "" {
		ctx = ctx.below(cwd)
	}
	return outputPath(ctx, "hg", i, word, v, redirect.FileOrDir)
}

// hgCommand refuses the commands that take commands from standard input,
// start a server or a process: serve (any prefix hg would resolve to it)
// and every debug command.
func hgCommand(argv []string, i int) *Rejection {
	w := argv[i]
	switch {
	case hgIsPrefix(w, "serve", 3):
		return ruleHgCommand.Reject(i, w, "argument %d %q is hg serve, which starts a server (serve --stdio and --cmdserver take commands on standard input)", i, w)
	case strings.HasPrefix(w, "debug") || hgIsPrefix(w, "debug", 3):
		return ruleHgCommand.Reject(i, w, "argument %d %q is an hg debug command (debugshell is a Python prompt; others start servers, processes or downloads), which are refused", i, w)
	}
	return nil
}

// hgRepoConfig finds the repository hg will use inside the working
// directory (-R's, or the first directory holding .hg from --cwd or the
// working directory upwards, as localrepo's findrepo) and refuses it when
// its configuration (.hg/hgrc, .hg/hgrc-not-shared) loads code or names a
// program, or when it shares another repository's (.hg/sharedpath). A
// search that leaves the working directory finds no repository here.
func hgRepoConfig(argv []string, ctx Context, cwd, repo string, idx int) *Rejection {
	if ctx.Dir == nil {
		return nil
	}
	var dirs []string
	switch {
	case repo != "":
		dirs = []string{path.Clean(path.Join(cwd, repo))}
	default:
		for d := path.Clean(path.Join(".", cwd)); ; d = path.Dir(d) {
			dirs = append(dirs, d)
			if d == "." || d == "/" {
				break
			}
		}
		idx = 0
	}
	for _, d := range dirs {
		if fi, err := ctx.Dir.Root().Stat(path.Join(d, ".hg")); err != nil || !fi.IsDir() {
			continue
		}
		if _, err := ctx.Dir.Root().Lstat(path.Join(d, ".hg", "sharedpath")); err == nil {
			return ruleHgRepoConfig.Reject(idx, argv[idx], "argument %d %q: the repository %s shares another repository's store and configuration (.hg/sharedpath), which the policy does not read", idx, argv[idx], path.Join(d, ".hg"))
		}
		for _, f := range []string{"hgrc", "hgrc-not-shared"} {
			name := path.Join(d, ".hg", f)
			text, err := readInside(ctx, name)
			if err != nil {
				continue
			}
			if why := hgConfigRisk(text); why != "" {
				return ruleHgRepoConfig.Reject(idx, argv[idx], "argument %d %q: the repository configuration %s %s, which hg would load for this call", idx, argv[idx], name, why)
			}
		}
		return nil
	}
	return nil
}

// hgConfigRisk says what in an hgrc makes hg load code or run a program
// (hg help config): %include reads another file; [extensions] entries
// with a value import Python files ("name =" loads an installed
// extension, "!" disables one); every [hooks] entry (python: hooks run
// in-process, the others through the shell); [merge-tools] and [alias]
// shell aliases; ui.editor, ui.merge, ui.ssh, ui.patch and pager.pager.
func hgConfigRisk(text string) string {
	section := ""
	for n, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' || t[0] == ';' || line[0] == ' ' || line[0] == '\t' {
			continue // comments and continuation lines (part of the previous value)
		}
		if strings.HasPrefix(t, "%include") {
			return "includes another file (line " + strconv.Itoa(n+1) + ")"
		}
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			section = strings.TrimSpace(t[1 : len(t)-1])
			continue
		}
		key, value, _ := strings.Cut(t, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		risky := false
		switch section {
		case "extensions":
			risky = value != "" && !strings.HasPrefix(value, "!")
		case "hooks", "merge-tools":
			risky = true
		case "alias":
			risky = strings.HasPrefix(value, "!")
		case "ui":
			risky = key == "editor" || key == "merge" || key == "ssh" || key == "patch"
		case "pager":
			risky = key == "pager"
		}
		if risky {
			return "sets " + section + "." + key + " (line " + strconv.Itoa(n+1) + "), which loads code or names a program"
		}
	}
	return ""
}
