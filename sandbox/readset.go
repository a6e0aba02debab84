package sandbox

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// programDirs hold the system's executables (Filesystem Hierarchy
// Standard 3.0: §3.4 /bin, §3.16 /sbin, §4.4 /usr/bin, §4.7 /usr/libexec,
// §4.9 /usr/local, §4.10 /usr/sbin; /usr/games is among §4.3's options).
// A stage whose family
// does not run other programs reads nothing beneath them but its own
// executables: it may execute its ELF interpreter, which loads a program
// with read(2) and mmap(2), which Landlock does not check, so
// "ld.so /bin/sh" must find /bin/sh unreadable. Internal executables
// beneath /usr/lib (which FHS §4.7 allows instead of /usr/libexec:
// git-core, JVMs) stay readable; see the package documentation.
var programDirs = []string{
	"/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/games", "/usr/libexec",
	"/usr/local/bin", "/usr/local/sbin", "/usr/local/games", "/usr/local/libexec",
}

// leafReads returns the trees a leaf stage may read: readDirs without
// programDirs. A read directory that holds a program directory (/usr,
// /usr/local, /) is replaced by its entries, recursively, leaving the
// program directories out. Directories are compared after resolving
// symbolic links (/bin is often a link to /usr/bin). The listing happens
// once, at start-up; entries created later beneath such a directory are
// not readable by leaf stages.
func leafReads(readDirs []string) []string {
	progs := realPaths(programDirs)
	var out []string
	for _, d := range readDirs {
		out = append(out, withoutPrograms(d, progs, 0)...)
	}
	return out
}

// maxListDepth bounds the recursion of withoutPrograms (program
// directories sit at most three levels deep: /usr/local/bin).
const maxListDepth = 4

func withoutPrograms(dir string, progs []string, depth int) []string {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil // missing: skipped, as every read directory
	}
	switch {
	case slices.ContainsFunc(progs, func(p string) bool { return workdir.Within(real, p) }):
		return nil
	case !slices.ContainsFunc(progs, func(p string) bool { return workdir.Within(p, real) }) || depth >= maxListDepth:
		return []string{dir}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		out = append(out, withoutPrograms(filepath.Join(dir, e.Name()), progs, depth+1)...)
	}
	return out
}

// realPaths resolves the symbolic links of every existing path and keeps
// the lexical one too.
func realPaths(paths []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, p)
		if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
			out = append(out, r)
		}
	}
	return out
}
