package redirect

import "strings"

// Check applies the lexical rules to a redirection target: it must be
// non-empty, contain no NUL byte, be relative (not start with "/"), and have
// no component equal to ".." when split on "/" (so "..hidden" and "sub/./x"
// pass, while "sub/../x" is refused even though it stays inside: rule from
// tumf/mcp-shell-server 1.1.8 §6). It returns nil or a *refusal.Rejection with
// CodeMissingTarget, CodeNUL, CodeAbsolute or CodeParent.
func Check(target string) error {
	switch {
	case target == "":
		return reject(CodeMissingTarget, target, nil, "Missing path for redirection: the target is empty")
	case strings.IndexByte(target, 0) >= 0:
		return reject(CodeNUL, target, nil, "Redirection target %q contains a NUL byte", target)
	case strings.HasPrefix(target, "/"):
		return reject(CodeAbsolute, target, nil, "Redirection target must be relative to the working directory: %q", target)
	}
	for part := range strings.SplitSeq(target, "/") {
		if part == ".." {
			return reject(CodeParent, target, nil, "Redirection target cannot contain parent traversal: %q", target)
		}
	}
	return nil
}
