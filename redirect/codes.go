package redirect

import "github.com/seed-b63acb1b/mcp-shell-server/refusal"

// Reason codes of the refusals this package makes (refusal.Rejection.Code). The human messages start with the
// reference server's catalogue texts (tumf/mcp-shell-server 1.1.8 §1.4).
const (
	// CodeMissingTarget: the target is empty. The policy emits the
	// reference's "Missing path for output/input redirection" itself when
	// an operator has no following element.
	CodeMissingTarget refusal.Code = "redirect.missing-target"
	// CodeAbsolute: the target is an absolute path.
	CodeAbsolute refusal.Code = "redirect.absolute"
	// CodeParent: the target has a ".." component.
	CodeParent refusal.Code = "redirect.parent"
	// CodeEscape: the target resolves (through symlinks) outside the
	// working directory.
	CodeEscape refusal.Code = "redirect.escape"
	// CodeNUL: the target contains a NUL byte.
	CodeNUL refusal.Code = "redirect.nul"
	// CodeInput: the "<" target cannot be opened (missing, unreadable).
	CodeInput refusal.Code = "redirect.input"
	// CodeOutput: the ">"/">>" target cannot be opened (directory, missing
	// parent, permission, hard-linked).
	CodeOutput refusal.Code = "redirect.output"
	// CodeGit: an output target lies, after symlinks, inside a .git
	// directory or a directory git recognises as a repository by its
	// content (HEAD and objects/, refs/ or commondir: a bare or separate
	// git directory), where configuration and hooks make git run programs.
	CodeGit refusal.Code = "redirect.git"
	// CodeConfigFile: an output target is, after symlinks, a file a
	// program reads as its configuration by role (~/.gitconfig,
	// .kube/config, .curlrc, .wgetrc, .npmrc, .cargo/config.toml ...).
	CodeConfigFile refusal.Code = "redirect.config-file"
	// CodeNotRegular: the target is a FIFO, device, socket or directory.
	CodeNotRegular refusal.Code = "redirect.not-regular"
)

// reject builds the *refusal.Rejection of target. Index is -1: the policy,
// which knows where target sits in the request argv, sets it.
func reject(code refusal.Code, target string, cause error, format string, args ...any) *refusal.Rejection {
	r := refusal.New(code, -1, target, format, args...)
	r.Err = cause
	return r
}
