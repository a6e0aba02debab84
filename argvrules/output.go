package argvrules

import (
	"path"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// outputValue checks the path named by an output option's value.
func outputValue(ctx Context, family string, ev *event, kind redirect.Kind) *Rejection {
	if redirect.Harmless(ev.Value) {
		return nil
	}
	word := ev.Word
	if ev.ValueIndex >= 0 && ev.ValueIndex != ev.Index {
		word = ev.Word + " " + ev.Value
	}
	return outputPath(ctx, family, ev.Index, word, ev.Value, kind)
}

// outputPath is the one containment check for options that name a path a
// program will write (git log --output, curl -o, wget -O, go build -o,
// tar --index-file ...): redirect.ProbeWrite, the rules of a ">" target
// (relative, no ".." component, resolving inside ctx.Dir through os.Root,
// not a FIFO or device, no symlink leading outside), for a file or a
// directory that may not exist yet. It creates nothing; the program opens
// the path itself later, so this is a check, not a confinement (SECURITY.md,
// "Non-goals"). The refusal is "<family>.output-path" naming arg, the argv
// element at index that carried the path.
func outputPath(ctx Context, family string, index int, arg, p string, kind redirect.Kind) *Rejection {
	const policy = "output path outside the working directory"
	if ctx.base != "" && !path.IsAbs(p) && !redirect.Harmless(p) {
		p = ctx.base + "/" + p
	}
	err := redirect.ProbeWrite(ctx.Dir, p, kind)
	if err == nil {
		if ctx.Outputs != nil {
			*ctx.Outputs = append(*ctx.Outputs, p)
		}
		return nil
	}
	what := "writes to"
	if kind == redirect.Dir {
		what = "writes into the directory"
	}
	return familyRule(family, kindOutputPath, policy).Reject(index, arg,
		"argument %d %q %s %q, which must stay inside the working directory (%s)", index, arg, what, p, err.Error())
}
