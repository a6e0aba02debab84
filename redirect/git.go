package redirect

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// A ">" or ">>" (or any program's output option, through ProbeWrite) into
// a file a program reads as its configuration would let an allowed writer
// plant settings that make a later command run a program: git's
// repository and global configuration, hooks, kubeconfig exec plugins,
// .curlrc and .wgetrc options, npm's script-shell. Such files are
// recognised by role, not by one name: a git directory by its content
// (a bare repository or a --separate-git-dir has its config outside any
// ".git"), the per-user and per-project configuration files by the path
// their programs read (configFiles). The checks run on the resolved path,
// so a symlink cannot lead around them.

// checkGit refuses real, an absolute symlink-resolved path, when it lies
// in a .git directory or a git directory recognised by content below d,
// or names a configuration file by role.
func checkGit(d *workdir.Dir, real, target string) error {
	if !workdir.Within(real, d.Real()) {
		return nil // outside d: the escape checks decide
	}
	rel, err := filepath.Rel(d.Real(), real)
	if err != nil || rel == "." {
		return nil
	}
	parts := strings.Split(rel, string(filepath.Separator))
	for _, part := range parts {
		if strings.EqualFold(part, ".git") {
			return reject(CodeGit, target, nil, "Redirection target %q leads into a .git directory (%s): repository configuration and hooks there make git run programs", target, rel)
		}
	}
	for i := 0; i <= len(parts); i++ { // the last is the target itself: a directory some programs write into
		dir := path.Join(parts[:i]...)
		if dir == "" {
			dir = "."
		}
		if isGitDir(d.Root(), dir) {
			return reject(CodeGit, target, nil, "Redirection target %q leads into a git directory (%s holds HEAD, objects and refs: a bare or separate repository), whose configuration and hooks make git run programs", target, dir)
		}
	}
	if cf, ok := configFileOf(parts); ok {
		return reject(CodeConfigFile, target, nil, "Redirection target %q is %s (%s), which %s reads as configuration: settings there can make it run programs", target, cf.what, rel, cf.program)
	}
	return nil
}

// isGitDir reports whether dir (relative to root) is a git directory the
// way git's setup.c is_git_directory() decides: a HEAD file and either
// objects/ and refs/ directories or a commondir file (a linked worktree's
// private directory).
func isGitDir(root *os.Root, dir string) bool { return IsGitDir(root, dir) }

// IsGitDir reports whether dir (relative to root) is a git directory the
// way git's setup.c is_git_directory() decides: a HEAD file and either
// objects/ and refs/ directories or a commondir file.
func IsGitDir(root *os.Root, dir string) bool {
	if fi, err := root.Lstat(path.Join(dir, "HEAD")); err != nil || fi.IsDir() {
		return false
	}
	if _, err := root.Lstat(path.Join(dir, "commondir")); err == nil {
		return true
	}
	return isDirIn(root, path.Join(dir, "objects")) && isDirIn(root, path.Join(dir, "refs"))
}

func isDirIn(root *os.Root, p string) bool {
	fi, err := root.Stat(p)
	return err == nil && fi.Mode()&fs.ModeType == fs.ModeDir
}

// resolveAncestor resolves the symlinks of p's longest existing prefix and
// appends the rest unchanged (a file about to be created).
func resolveAncestor(p string) string {
	rest := ""
	for cur := p; ; cur = filepath.Dir(cur) {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		}
		if filepath.Dir(cur) == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
	}
}
