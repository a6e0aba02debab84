package childenv

import (
	"bytes"
	"debug/elf"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The kernel opens a program's interpreter with the execute right, so a
// stage needs the right on it besides the program itself: an ELF
// program's PT_INTERP (its dynamic loader; without it even cat does not
// start under Landlock), and a script's #! interpreter (Linux
// fs/binfmt_script.c). Programs found through #!/usr/bin/env NAME need
// NAME too (coreutils 9.1 env(1) runs NAME from PATH).

// maxInterpDepth bounds how many interpreters a program may chain; Linux
// stops at BINPRM_MAX_RECURSION (4) levels.
const maxInterpDepth = 4

// shebangMax is how much of a script's first line the kernel reads
// (BINPRM_BUF_SIZE, 256 bytes since Linux 5.1).
const shebangMax = 256

// Interpreters returns the files the kernel needs to execute beside path
// to run path, each with its own interpreters, in order and without
// repeats. pathList is the stage's PATH, where #!/usr/bin/env looks its
// program up. Unreadable files and missing interpreters contribute
// nothing (the program then fails to start on its own, as unconfined).
func Interpreters(path, pathList string) []string {
	var out []string
	seen := map[string]bool{path: true}
	next := []string{path}
	for depth := 0; depth < maxInterpDepth && len(next) > 0; depth++ {
		var found []string
		for _, p := range next {
			for _, q := range interpreterOf(p, pathList) {
				if !seen[q] {
					seen[q] = true
					found = append(found, q)
				}
			}
		}
		out = append(out, found...)
		next = found
	}
	return out
}

// interpreterOf returns p's direct interpreters: PT_INTERP, or the #!
// interpreter and, for env, the program it runs.
func interpreterOf(p, pathList string) []string {
	h := headOf(p, nil)
	switch {
	case h.script:
		return shebang([]byte(h.line), pathList)
	case h.interp != "":
		return []string{h.interp}
	}
	return nil
}

// elfInterp returns the PT_INTERP path of an ELF file, or "".
func elfInterp(f *os.File) string {
	ef, err := elf.NewFile(f)
	if err != nil {
		return ""
	}
	for _, prog := range ef.Progs {
		if prog.Type != elf.PT_INTERP {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(prog.Open(), 4096))
		if err != nil {
			return ""
		}
		return string(bytes.TrimRight(b, "\x00"))
	}
	return ""
}

// shebang parses a #! line (after the #!): the interpreter is its first
// word; the kernel passes the rest as one argument. For env the program
// is the first word after env's options and NAME=VALUE assignments
// (-S splits the rest; -u and -C take a value).
func shebang(line []byte, pathList string) []string {
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	words := strings.Fields(string(line))
	if len(words) == 0 || !filepath.IsAbs(words[0]) {
		return nil
	}
	out := []string{words[0]}
	if filepath.Base(words[0]) != "env" {
		return out
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-u" || w == "-C" || w == "--unset" || w == "--chdir":
			i++
		case strings.HasPrefix(w, "-") || strings.Contains(w, "="):
		default:
			if p, err := LookPath(w, pathList, "/"); err == nil {
				out = append(out, p)
			}
			return out
		}
	}
	return out
}
