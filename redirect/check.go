package redirect

import "strings"

// Check applies the lexical rules to a redirection target: it must be
// non-empty, contain no NUL byte, be relative (not start with "/"), and have
// no component equal to ".." when split on "/" (so "..hidden" and "sub/./x"
// pass, while "sub/../x" is refused even though it stays inside: rule from
// tumf/mcp-shell-server 1.1.8 §6). A leading "\\", a drive letter ("C:")
// and ".." between backslashes are refused too, as Windows programs (git
// for Windows) read them as absolute or parent paths. It returns nil or a *refusal.Rejection with
// CodeMissingTarget, CodeNUL, CodeAbsolute or CodeParent.
func Check(target string) error {
	switch {
	case target == "":
		return reject(CodeMissingTarget, target, nil, "Missing path for redirection: the target is empty")
	case strings.IndexByte(target, 0) >= 0:
		return reject(CodeNUL, target, nil, "Redirection target %q contains a NUL byte", target)
	case strings.HasPrefix(target, "/"), strings.HasPrefix(target, `\`), hasDriveLetter(target):
		return reject(CodeAbsolute, target, nil, "Redirection target must be relative to the working directory: %q", target)
	}
	for part := range strings.FieldsFuncSeq(target, isSeparator) {
		if part == ".." {
			return reject(CodeParent, target, nil, "Redirection target cannot contain parent traversal: %q", target)
		}
	}
	return nil
}

// isSeparator is "/" and, for Windows programs, "\\".
func isSeparator(r rune) bool { return r == '/' || r == '\\' }

// hasDriveLetter reports a Windows drive prefix such as "C:".
func hasDriveLetter(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}
