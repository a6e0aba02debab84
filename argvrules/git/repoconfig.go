package git

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

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

// checkRepoConfig refuses when the configuration of the repository git
// would use from the call's directory (after -C and --git-dir) sets an
// unpinnable program-valued key, or submodule.<name>.update to
// "!command".
func checkRepoConfig(g globals) *refusal.Rejection {
	if g.dir == nil {
		return nil
	}
	for _, file := range repoConfigFiles(g) {
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		if key, ok := programKey(data); ok {
			return ruleRepoConfig.Reject(0, "git",
				"the repository configuration %s sets %s, which names a program git runs; it cannot be pinned for the call, so git is refused here", file, key)
		}
	}
	return nil
}

// repoConfigFiles returns the config files of the git directory git would
// discover (setup.c setup_git_directory_gently): --git-dir if given, else
// walking up from the call's directory (and -C values) the first of a
// ".git" directory, a ".git" file's "gitdir:" target, or a bare
// repository; a linked worktree's commondir adds the common config.
func repoConfigFiles(g globals) []string {
	start := filepath.Join(append([]string{g.dir.Real()}, g.cdirs...)...)
	var gitDir string
	if g.gitDir != "" {
		gitDir = g.gitDir
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(start, gitDir)
		}
		gitDir = followGitFile(gitDir)
	} else {
		gitDir = discoverGitDir(start)
	}
	if gitDir == "" {
		return nil
	}
	files := []string{filepath.Join(gitDir, "config"), filepath.Join(gitDir, "config.worktree")}
	if c, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common := strings.TrimSpace(string(c))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
		files = append(files, filepath.Join(common, "config"))
	}
	return files
}

// maxDiscovery bounds the directories walked up (git stops at the file
// system root or GIT_CEILING_DIRECTORIES).
const maxDiscovery = 64

func discoverGitDir(dir string) string {
	for i := 0; i < maxDiscovery; i++ {
		dotgit := filepath.Join(dir, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			if fi.IsDir() {
				return dotgit
			}
			return followGitFile(dotgit)
		}
		if isGitDirAbs(dir) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
	return ""
}

// followGitFile returns the directory a "gitdir: PATH" file names, or p
// itself when p is not such a file.
func followGitFile(p string) string {
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() {
		return p
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return p
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return p
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(p), target)
	}
	return target
}

func isGitDirAbs(dir string) bool {
	if fi, err := os.Lstat(filepath.Join(dir, "HEAD")); err != nil || fi.IsDir() {
		return false
	}
	o, err1 := os.Stat(filepath.Join(dir, "objects"))
	r, err2 := os.Stat(filepath.Join(dir, "refs"))
	return err1 == nil && err2 == nil && o.IsDir() && r.IsDir()
}

// programKey scans git configuration text (git-config(1) CONFIGURATION
// FILE syntax: [section], [section "sub"], [section.sub], key = value,
// comments, continuation lines) for an unpinnable program-valued key.
func programKey(data []byte) (string, bool) {
	section, sub := "", ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
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
