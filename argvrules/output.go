package argvrules

import (
	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// OutputPath is the shared containment check for options that name a file
// a program will write (git log --output, curl -o, wget -O ...): the path
// must pass the same rules as a ">" redirection target (relative, no ".."
// component, resolving inside ctx.Dir through os.Root, not a directory,
// FIFO or device, no symlink leading outside). It creates nothing. The
// program opens the file itself later, so this is a check, not a
// confinement: SECURITY.md says so.
//
// It returns nil or a *Rejection with rule "<family>.output-path" naming
// arg (the argv element at index that carried the path).
func OutputPath(ctx Context, family, policy string, index int, arg, path string) *Rejection {
	err := redirect.ProbeWrite(ctx.Dir, path, redirect.File)
	if err == nil {
		return nil
	}
	why := err.Error()
	return familyRule(family, kindOutputPath, policy).Reject(index, arg,
		"argument %d %q writes to %q, which must stay inside the working directory (%s)", index, arg, path, why)
}
