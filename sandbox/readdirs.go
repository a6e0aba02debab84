package sandbox

import (
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
)

// ReadDirsVar is the setting that replaces DefaultReadDirs. It replaces
// rather than extends, so that an operator can narrow the list; every
// hint that widens it therefore gives the whole value to set.
const ReadDirsVar = "MCP_SHELL_SANDBOX_READ_DIRS"

// ReadDirsSetting is the assignment of ReadDirsVar that keeps current
// and adds each of add not already beneath an entry of it by name, e.g.
// "MCP_SHELL_SANDBOX_READ_DIRS=/usr,/bin,...,/etc,/proc". Names, not
// resolved links: /lib stays in the value beside /usr where it is a
// link to /usr/lib, as in the default list.
func ReadDirsSetting(current []string, add ...string) string {
	list := append([]string{}, current...)
	for _, a := range add {
		if a != "" && !slices.ContainsFunc(list, func(d string) bool { return within(d, a) }) {
			list = append(list, a)
		}
	}
	return ReadDirsVar + "=" + strings.Join(list, ",")
}

// ReadDirs are the trees every confined stage may read: the configured
// list or DefaultReadDirs. DefaultReadDirs for a nil r.
func (r *Rules) ReadDirs() []string {
	if r == nil {
		return DefaultReadDirs
	}
	return r.cfg.readDirs()
}

// covered reports whether p is one of dirs or beneath one, by name or
// after resolving symbolic links (/lib is /usr/lib on a merged-/usr
// system, and Landlock's rules follow the link).
func covered(dirs []string, p string) bool {
	rp := resolved(p)
	for _, d := range dirs {
		if within(d, p) || within(resolved(d), rp) {
			return true
		}
	}
	return false
}

func within(dir, p string) bool {
	return dir == p || dir == "/" || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// loaderProbe is the program whose PT_INTERP names the dynamic loader
// that dynamically linked programs share.
const loaderProbe = "/bin/ls"

// interpreter is the PT_INTERP of the ELF file at path, "" when it has
// none or cannot be read.
func interpreter(path string) string {
	f, err := elf.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b := make([]byte, p.Filesz)
			if _, err := p.ReadAt(b, 0); err != nil {
				return ""
			}
			return strings.TrimRight(string(b), "\x00")
		}
	}
	return ""
}

// loaderPaths are the files and trees dynamically linked programs need
// to load: the dynamic loader of loaderProbe and the library
// directories /lib* and /usr/lib* (not /usr/libexec) that exist.
func loaderPaths() []string {
	var out []string
	if in := interpreter(loaderProbe); filepath.IsAbs(in) {
		out = append(out, in)
	}
	for _, pat := range []string{"/lib*", "/usr/lib*"} {
		ms, _ := filepath.Glob(pat)
		for _, m := range ms {
			if fi, err := os.Stat(m); err == nil && fi.IsDir() && !strings.HasSuffix(m, "libexec") {
				out = append(out, m)
			}
		}
	}
	return out
}

// LoaderDirsOutside are the entries of DefaultReadDirs that exist and
// hold the dynamic loader or shared libraries (loaderPaths) that
// readDirs leaves unreadable, in DefaultReadDirs' order: with any of
// them missing a dynamically linked program exits 127 before it runs
// ("error while loading shared libraries").
func LoaderDirsOutside(readDirs []string) []string {
	return loaderDirsOutside(readDirs, loaderPaths())
}

func loaderDirsOutside(readDirs, needed []string) []string {
	var out []string
	for _, d := range DefaultReadDirs {
		if _, err := os.Stat(d); err != nil {
			continue
		}
		for _, p := range needed {
			if (within(d, p) || within(resolved(d), resolved(p))) && !covered(readDirs, p) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// loadFailure matches the dynamic loader's message when a library will
// not load, with the library's name: glibc's ld.so "PROG: error while
// loading shared libraries: NAME: cannot open shared object file: ..."
// (glibc 2.36 elf/dl-load.c _dl_map_object's "cannot open shared object
// file", printed by elf/rtld.c through _dl_fatal_printf) and musl 1.2's
// "Error loading shared library NAME: ... (needed by PROG)"
// (ldso/dynlink.c load_deps). Under Landlock the loader's last error is
// often ENOENT from another directory it searched, so the message alone
// does not tell a denial from a missing library: libraryDenials looks
// for the file.
var loadFailure = lazyre.New(`error while loading shared libraries: ([^\s:]+):|Error loading shared library ([^\s:]+):`)

// libraryDirs are the patterns of the directories the dynamic loaders
// search by default (glibc's system directories with Debian's multiarch
// ones, musl's /lib:/usr/local/lib:/usr/lib), where libraryDenials looks
// for a library that did not load.
var libraryDirs = []string{"/lib", "/lib/*-linux-*", "/lib64", "/lib32", "/libx32", "/usr/lib", "/usr/lib/*-linux-*", "/usr/lib64", "/usr/lib32", "/usr/libx32", "/usr/local/lib"}

// LibraryDenials are the shared libraries stderr says did not load (for
// a stage that exited 127, the loader's status) that exist in a library
// directory readDirs (Rules.ReadDirs; nil for DefaultReadDirs) leaves
// unreadable; a library found nowhere, or where the stage may read, is
// no denial.
func LibraryDenials(readDirs []string, stderr []byte) []Denial {
	if readDirs == nil {
		readDirs = DefaultReadDirs
	}
	var out []Denial
	for line := range bytes.Lines(stderr) {
		m := loadFailure.FindStringSubmatch(string(line))
		if m == nil {
			continue
		}
		name := m[1] + m[2]
		if strings.Contains(name, "/") {
			continue // a path the program names itself: no search
		}
		if lib := findLibrary(name); lib != "" && !covered(readDirs, lib) {
			if d := (Denial{Kind: DeniedLibrary, Target: lib, Guess: true}); !containsDenial(out, d) && len(out) < MaxDenials {
				out = append(out, d)
			}
		}
	}
	return out
}

// findLibrary is the resolved path of the first file called name in
// libraryDirs, "" when there is none.
func findLibrary(name string) string {
	for _, pat := range libraryDirs {
		dirs, _ := filepath.Glob(pat)
		for _, d := range dirs {
			if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.Mode().IsRegular() {
				return resolved(filepath.Join(d, name))
			}
		}
	}
	return ""
}

// readAdditions are the directories a read hint adds to readDirs: for
// each read or access denial its directory (the target itself when it
// is a directory), "DIR" when a target is not absolute; for a library,
// the default directory holding it and every other loader directory
// readDirs leaves out, so that one setting lets the program load.
func readAdditions(ds []Denial, readDirs []string) []string {
	var add []string
	for _, d := range ds {
		switch d.Kind {
		case DeniedRead, DeniedAccess:
			switch {
			case !filepath.IsAbs(d.Target):
				add = append(add, "DIR")
			case isDir(d.Target):
				add = append(add, filepath.Clean(d.Target))
			default:
				add = append(add, filepath.Dir(d.Target))
			}
		case DeniedLibrary:
			dir := filepath.Dir(d.Target)
			for _, def := range DefaultReadDirs {
				if within(resolved(def), dir) {
					dir = def
					break
				}
			}
			add = append(add, dir)
			add = append(add, LoaderDirsOutside(readDirs)...)
		}
	}
	return add
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
