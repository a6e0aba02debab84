package git

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/internal/fsview"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// Some program-valued keys cannot be pinned in the child configuration
// because their names carry a subsection the request or the repository
// chooses (remote.<name>.uploadpack, diff.<driver>.command,
// filter.<driver>.process ...), and diff.external has no neutral value
// (an empty one makes git try to run ""). For those the recognizer reads
// the configuration of the repository git will use, before the call, and
// refuses when one of them is set there: a repository configuration is
// written by the repository's owner, not by a request, and the redirect
// and output checks refuse writing one, but other writers (cp, tar -x,
// git init over an existing file) can plant one. It is a check at the
// time of the call, not a confinement.

// unpinnableKeys match "section.subsection.key" (subsection "*" = any,
// none = no subsection) of git-config(1) (git 2.39) whose value names a
// program git runs, and that ChildConfig cannot pin.
var unpinnableKeys = []struct{ section, sub, key string }{
	{"remote", "*", "uploadpack"},
	{"remote", "*", "receivepack"},
	{"remote", "*", "vcs"},
	{"diff", "", "external"},
	{"diff", "*", "command"},
	{"diff", "*", "textconv"},
	{"filter", "*", "clean"},
	{"filter", "*", "smudge"},
	{"filter", "*", "process"},
	{"merge", "*", "driver"},
	{"trailer", "*", "command"},
	{"trailer", "*", "cmd"},
	{"core", "", "alternaterefscommand"},
	{"sendemail", "", "sendmailcmd"},
	{"sendemail", "", "tocmd"},
	{"sendemail", "", "cccmd"},
	{"sendemail", "", "headercmd"},
	{"sendemail", "", "smtpserver"},
	{"include", "", "path"},
	{"includeif", "*", "path"},
}

// lfsValues are the git-lfs filter commands (git-lfs install), which run
// the git-lfs program, not one a request could choose.
var lfsValues = map[string]bool{
	"git-lfs clean -- %f": true, "git-lfs smudge -- %f": true, "git-lfs filter-process": true,
	"git-lfs smudge --skip -- %f": true, "git-lfs filter-process --skip": true,
}

// maxConfigFile bounds a configuration, .git or commondir file read to
// judge a call: far above any hand-written one.
const maxConfigFile = 1 << 20

// scriptSubcommands are the subcommands this package knows that are not
// builtins of git 2.39 or 2.53 (git-send-email is Perl; git-bisect and
// git-submodule are shell scripts in 2.39): git.c run_argv looks them up
// as aliases when their program is missing (see checkAliases).
var scriptSubcommands = map[string]bool{"send-email": true, "bisect": true, "submodule": true}

// checkRepoConfig refuses when the configuration of the repository git
// would use for the call (found as repository locates it) sets an
// unpinnable program-valued key, submodule.<name>.update to "!command",
// or an alias the call may run (checkAliases); when that repository lies
// outside what the stage may read; and when a file git reads to find it
// cannot be read without blocking (a FIFO, a device, an oversized file).
// known is whether sub is a subcommand this package models.
func checkRepoConfig(g globals, sub string, known bool) *refusal.Rejection {
	if g.dir == nil {
		return nil
	}
	loc := locator{g: g, view: fsview.View{Dir: g.dir, Trees: g.trees}}
	files, rej := loc.configFiles()
	if rej != nil || files == nil {
		return rej
	}
	builtin := known && !scriptSubcommands[sub]
	for _, file := range files {
		data, err := loc.view.ReadFile(file, maxConfigFile)
		switch {
		case fsview.Missing(err):
			continue
		case err != nil:
			return loc.unreadable(file, err)
		}
		entries := scanConfig(data)
		if key, ok := programEntry(entries); ok {
			return ruleRepoConfig.Reject(loc.blame(), loc.blameArg(),
				"the repository configuration %s sets %s, which names a program git runs; it cannot be pinned for the call, so git is refused here", file, key)
		}
		if rej := loc.checkAliases(file, entries, sub, builtin); rej != nil {
			return rej
		}
	}
	return nil
}

// checkAliases refuses a repository alias the call may run. git.c
// run_argv runs a builtin without looking at aliases (handle_builtin);
// for any other name it first tries the git-NAME program
// (execv_dashed_external) and, when that is missing or cannot run, expands
// alias.NAME (handle_alias, alias.c alias_lookup: the name compared case
// insensitively), whose value is a shell command ("!...") or a git
// command line with options of its own ("-c key=value cmd"), and loops,
// so an alias may expand into another alias. So: alias.SUB in repository
// configuration is refused whatever SUB is (naming the key); and for a
// subcommand that is not a builtin (git-send-email when it is not
// installed, an operator-admitted name, the 2.39 scripts), any repository
// alias is refused, since an alias chain from the user's own
// configuration can reach it.
func (l locator) checkAliases(file string, entries []configEntry, sub string, builtin bool) *refusal.Rejection {
	var other string
	for _, e := range entries {
		if e.section != "alias" {
			continue
		}
		name := e.key
		if e.sub != "" {
			name = e.sub // [alias "name"] command = ...
		}
		if strings.EqualFold(name, sub) || strings.EqualFold(e.key, sub) {
			return ruleRepoConfig.Reject(l.blame(), l.blameArg(),
				"the repository configuration %s sets alias.%s, which git may run in place of the %q subcommand (a shell command or a git command line of the repository's choosing), so git is refused here; define aliases in your own configuration", file, name, sub)
		}
		if other == "" {
			other = name
		}
	}
	if other != "" && !builtin {
		return ruleRepoConfig.Reject(l.blame(), l.blameArg(),
			"the repository configuration %s sets alias.%s, and %q is not a git builtin, so git may expand aliases for it (an alias of your own configuration can lead to this one, which the repository chooses); git is refused here", file, other, sub)
	}
	return nil
}

// locator finds the repository git would use for a call, as setup.c
// does, looking only where the stage may read.
type locator struct {
	g    globals
	view fsview.View
}

// blame is the argv index a repository refusal names: the last directory
// option, or the subcommand's position when none was given (-1).
func (l locator) blame() int {
	if n := len(l.g.order); n > 0 {
		return l.g.order[n-1].index
	}
	return -1
}

func (l locator) blameArg() string {
	if n := len(l.g.order); n > 0 {
		return l.g.order[n-1].val
	}
	return "git"
}

// unreadable refuses a file git reads to find or configure the
// repository that cannot be judged: outside the view, or not a regular
// file (a FIFO would block the reader), or too large.
func (l locator) unreadable(file string, err error) *refusal.Rejection {
	if errors.Is(err, fsview.ErrHidden) {
		return l.outside(l.blame(), l.blameArg(), file)
	}
	return ruleRepoConfig.Reject(l.blame(), l.blameArg(),
		"git would read %s to find or configure the repository, and it cannot be read to judge the call (%v), so git is refused here", file, err)
}

// outside refuses a repository path outside what the stage may read
// (before anything there is looked at, so the verdict says nothing about
// it).
func (l locator) outside(index int, arg, path string) *refusal.Rejection {
	return ruleRepoOutside.Reject(index, arg,
		"argument %q makes git use %s, outside the working directory and the allowed directories the stage may read; the repository must be inside the working directory", arg, path)
}

// env is the stage's value of name ("" when unset or empty).
func (l locator) env(name string) string {
	if l.g.env == nil {
		return ""
	}
	v, _ := l.g.env(name)
	return v
}

// configFiles returns the configuration files of the repository git
// would use: the directory after every -C (git.c handle_options chdirs at
// each, a relative value against the previous directory, an absolute one
// replacing it), then the git directory: --git-dir (the last one, which
// git.c stores in GIT_DIR) or GIT_DIR from the stage's environment,
// resolved against that directory and followed when it is a "gitdir:"
// file (setup.c setup_explicit_git_dir, read_gitfile_gently); else
// discovery (setup_git_directory_gently_1) from there upwards while the
// view reaches (ChildConfig's GIT_CEILING_DIRECTORIES stops git at the
// same place); the common directory of GIT_COMMON_DIR or the git
// directory's commondir file (setup.c get_common_dir_noenv). Work trees
// (--work-tree, GIT_WORK_TREE) select no configuration but must lie
// within the view too. nil, nil: no repository (or a -C directory git
// cannot enter).
func (l locator) configFiles() ([]string, *refusal.Rejection) {
	cwd := l.g.dir.Real()
	for _, o := range l.g.order {
		if o.opt != "-C" || o.val == "" { // git ignores an empty -C
			continue
		}
		r, err := l.view.Walk(cwd, o.val)
		switch {
		case errors.Is(err, fsview.ErrHidden):
			return nil, l.outside(o.index, o.val, r.Path)
		case err != nil:
			return nil, l.unreadable(r.Path, err)
		case !r.Exists:
			return nil, nil // git cannot chdir there and stops
		}
		cwd = r.Path
	}
	for _, wt := range l.workTrees() {
		if r, err := l.view.Walk(cwd, wt.val); errors.Is(err, fsview.ErrHidden) {
			return nil, l.outside(wt.index, wt.val, r.Path)
		}
	}
	gitDir, rej := l.gitDir(cwd)
	if rej != nil || gitDir == "" {
		return nil, rej
	}
	files := []string{filepath.Join(gitDir, "config"), filepath.Join(gitDir, "config.worktree")}
	common := l.env("GIT_COMMON_DIR")
	at := dirOption{val: "GIT_COMMON_DIR", index: -1}
	if common == "" {
		data, err := l.view.ReadFile(filepath.Join(gitDir, "commondir"), maxConfigFile)
		switch {
		case fsview.Missing(err):
		case err != nil:
			return nil, l.unreadable(filepath.Join(gitDir, "commondir"), err)
		default:
			common, at = strings.TrimSpace(string(data)), dirOption{val: filepath.Join(gitDir, "commondir"), index: l.blame()}
		}
	}
	if common != "" {
		base := gitDir
		if at.val == "GIT_COMMON_DIR" {
			base = cwd
		}
		r, err := l.view.Walk(base, common)
		switch {
		case errors.Is(err, fsview.ErrHidden):
			return nil, l.outside(at.index, at.val, r.Path)
		case err != nil:
			return nil, l.unreadable(r.Path, err)
		}
		files = append(files, filepath.Join(r.Path, "config"))
	}
	return files, nil
}

// workTrees are the --work-tree values and GIT_WORK_TREE.
func (l locator) workTrees() []dirOption {
	var out []dirOption
	for _, o := range l.g.order {
		if o.opt == "--work-tree" {
			out = append(out, o)
		}
	}
	if v := l.env("GIT_WORK_TREE"); v != "" {
		out = append(out, dirOption{"GIT_WORK_TREE", v, -1})
	}
	return out
}

// gitDir is the git directory git would use from cwd ("" for none).
func (l locator) gitDir(cwd string) (string, *refusal.Rejection) {
	explicit := dirOption{val: l.env("GIT_DIR"), index: -1}
	if explicit.val != "" {
		explicit.opt = "GIT_DIR"
	}
	for _, o := range l.g.order {
		if o.opt == "--git-dir" {
			explicit = o
		}
	}
	if explicit.opt != "" {
		arg := explicit.val
		if explicit.opt == "GIT_DIR" {
			arg = "GIT_DIR=" + explicit.val
		}
		r, err := l.view.Walk(cwd, explicit.val)
		switch {
		case errors.Is(err, fsview.ErrHidden):
			return "", l.outside(explicit.index, arg, r.Path)
		case err != nil:
			return "", l.unreadable(r.Path, err)
		case !r.Exists:
			return "", nil
		}
		return l.followGitFile(r.Path, explicit.index, arg)
	}
	return l.discover(cwd)
}

// discover walks up from dir (setup.c setup_git_directory_gently_1): the
// first of a ".git" directory, a ".git" file's "gitdir:" target, or a
// bare repository, while the view reaches.
func (l locator) discover(dir string) (string, *refusal.Rejection) {
	for i := 0; i < maxDiscovery && l.view.Visible(dir); i++ {
		dotgit := filepath.Join(dir, ".git")
		fi, err := l.view.Lstat(dotgit)
		switch {
		case err == nil && fi.Mode()&fs.ModeSymlink != 0:
			r, werr := l.view.Walk(dir, ".git")
			switch {
			case errors.Is(werr, fsview.ErrHidden):
				return "", l.outside(l.blame(), l.blameArg(), r.Path+" (the target of "+dotgit+")")
			case werr != nil:
				return "", l.unreadable(dotgit, werr)
			case r.Exists:
				return l.followGitFile(r.Path, l.blame(), l.blameArg())
			}
		case err == nil && fi.IsDir():
			return dotgit, nil
		case err == nil:
			return l.followGitFile(dotgit, l.blame(), l.blameArg())
		case !fsview.Missing(err):
			return "", l.unreadable(dotgit, err)
		}
		if l.isGitDir(dir) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
	return "", nil
}

// maxDiscovery bounds the directories walked up (git stops at the file
// system root or GIT_CEILING_DIRECTORIES).
const maxDiscovery = 64

// followGitFile returns the directory a "gitdir: PATH" file p names (a
// physical, visible path), or p itself when p is a directory. A FIFO or
// other non-regular p is refused unread (git itself rejects it:
// read_gitfile_gently READ_GITFILE_ERR_NOT_A_FILE).
func (l locator) followGitFile(p string, index int, arg string) (string, *refusal.Rejection) {
	fi, err := l.view.Stat(p)
	switch {
	case fsview.Missing(err):
		return p, nil
	case err != nil:
		return "", l.unreadable(p, err)
	case fi.IsDir():
		return p, nil
	}
	data, err := l.view.ReadFile(p, maxConfigFile)
	if err != nil {
		return "", l.unreadable(p, err)
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return p, nil
	}
	r, err := l.view.Walk(filepath.Dir(p), strings.TrimSpace(target))
	switch {
	case errors.Is(err, fsview.ErrHidden):
		return "", l.outside(index, arg, r.Path+" (named by "+p+")")
	case err != nil:
		return "", l.unreadable(r.Path, err)
	}
	return r.Path, nil
}

// isGitDir reports whether dir looks like a git directory (setup.c
// is_git_directory: HEAD, objects/ and refs/).
func (l locator) isGitDir(dir string) bool {
	if fi, err := l.view.Lstat(filepath.Join(dir, "HEAD")); err != nil || fi.IsDir() {
		return false
	}
	o, err1 := l.view.Stat(filepath.Join(dir, "objects"))
	r, err2 := l.view.Stat(filepath.Join(dir, "refs"))
	return err1 == nil && err2 == nil && o.IsDir() && r.IsDir()
}

// configEntry is one "key = value" of a configuration file.
type configEntry struct{ section, sub, key, value string }

// programKey reports the first unpinnable program-valued key of data.
func programKey(data []byte) (string, bool) { return programEntry(scanConfig(data)) }

// programEntry is programKey over scanned entries.
func programEntry(entries []configEntry) (string, bool) {
	for _, e := range entries {
		section, sub, key, value := e.section, e.sub, e.key, e.value
		if section == "submodule" && sub != "" && key == "update" && strings.HasPrefix(value, "!") {
			return "submodule." + sub + ".update", true
		}
		for _, k := range unpinnableKeys {
			if section == k.section && key == k.key && (k.sub == "*") == (sub != "") {
				if section == "filter" && lfsValues[value] {
					continue
				}
				if sub != "" {
					return section + "." + sub + "." + key, true
				}
				return section + "." + key, true
			}
		}
	}
	return "", false
}

// scanConfig reads git configuration text (git-config(1) CONFIGURATION
// FILE syntax: [section], [section "sub"], [section.sub], key = value,
// comments, continuation lines) into its entries.
func scanConfig(data []byte) []configEntry {
	var out []configEntry
	section, sub := "", ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), maxConfigFile+1)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			section, sub, line = parseSectionHeader(line)
			if line == "" {
				continue
			}
		}
		key, value, _ := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.Trim(strings.TrimSpace(value), `"`)
		if i := strings.IndexAny(key, " \t#;"); i >= 0 {
			key = key[:i]
		}
		out = append(out, configEntry{section, sub, key, value})
	}
	return out
}

// parseSectionHeader splits "[section "sub"] rest" into the lower-cased
// section, the subsection and the text after "]" (a key may follow on
// the same line).
func parseSectionHeader(line string) (section, sub, rest string) {
	end := strings.IndexByte(line, ']')
	if end < 0 {
		return "", "", ""
	}
	head, rest := strings.TrimSpace(line[1:end]), strings.TrimSpace(line[end+1:])
	if name, q, ok := strings.Cut(head, " "); ok {
		return strings.ToLower(name), strings.Trim(strings.TrimSpace(q), `"`), rest
	}
	if name, s, ok := strings.Cut(head, "."); ok {
		return strings.ToLower(name), strings.ToLower(s), rest
	}
	return strings.ToLower(head), "", rest
}
