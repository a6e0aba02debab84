package childenv

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// The Windows PATH search (lookpath_windows.go) is pure logic over a
// "does this file exist" function, kept here without a build tag so that
// it is tested on every platform.

// DefaultPathext is Windows' own default PATHEXT, in its order. The
// search uses it rather than the server's or the child's PATHEXT: the
// variable changes what a shell tries, not what CreateProcess runs, and
// the search must not depend on the server's environment.
var DefaultPathext = []string{".com", ".exe", ".bat", ".cmd", ".vbs", ".vbe", ".js", ".jse", ".wsf", ".wsh", ".msc"}

// directExt are the extensions CreateProcess runs itself; every other
// PATHEXT extension is run by another program.
var directExt = map[string]bool{".com": true, ".exe": true}

// hostOf names the program Windows hands a file to by its extension.
var hostOf = map[string]string{
	".bat": "cmd.exe", ".cmd": "cmd.exe",
	".vbs": "wscript.exe", ".vbe": "wscript.exe", ".js": "wscript.exe", ".jse": "wscript.exe",
	".wsf": "wscript.exe", ".wsh": "wscript.exe", ".msc": "mmc.exe",
}

// ErrScriptFile matches a *ScriptFileError with errors.Is.
var ErrScriptFile = errors.New("a script Windows runs through another program")

// ScriptFileError reports that a program name resolves to a file Windows
// does not run itself but through Host: a .bat or .cmd file runs in
// cmd.exe, whose command-line parsing the policy cannot judge, so it is
// refused rather than run.
type ScriptFileError struct {
	Name string // as asked for
	File string // what the search found
	Host string // the program that would run it ("cmd.exe" for .bat/.cmd)
}

func (e *ScriptFileError) Error() string {
	return fmt.Sprintf("%s resolves to %s, which Windows runs through %s", e.Name, e.File, e.Host)
}

// Unwrap returns ErrScriptFile.
func (e *ScriptFileError) Unwrap() error { return ErrScriptFile }

// extCandidates lists the files name can mean, in the order a Windows
// search tries them: name itself when its extension is one of exts,
// otherwise name plus each of exts.
func extCandidates(name string, exts []string) []string {
	ext := strings.ToLower(filepath.Ext(name))
	for _, e := range exts {
		if ext == e {
			return []string{name}
		}
	}
	out := make([]string, len(exts))
	for i, e := range exts {
		out[i] = name + e
	}
	return out
}

// findExt returns the first candidate of name (extCandidates with exts)
// in the first of dirs where present reports a regular file, joined with
// that directory ("" leaves name as it is, for a name with a directory).
// The first match decides: one Windows would run through another program
// gives a *ScriptFileError rather than a later match, so the result never
// differs from what a Windows shell would run. false: nothing matched.
func findExt(name string, dirs, exts []string, present func(string) bool) (string, bool, error) {
	cands := extCandidates(name, exts)
	for _, d := range dirs {
		for _, c := range cands {
			file := c
			if d != "" {
				file = filepath.Join(d, c)
			}
			if !present(file) {
				continue
			}
			ext := strings.ToLower(filepath.Ext(file))
			if directExt[ext] {
				return file, true, nil
			}
			host := hostOf[ext]
			if host == "" {
				host = "the program registered for " + ext
			}
			return "", true, &ScriptFileError{Name: name, File: file, Host: host}
		}
	}
	return "", false, nil
}
